"""The build says which address it was built for: served anywhere else, instant navigation turns into page reloads."""

from __future__ import annotations

from pathlib import Path

from tests.build.sites import build_fixture


def test_the_log_names_the_site_url(tmp_path: Path) -> None:
    build = build_fixture(
        tmp_path, {"docs/index.md": "# Home\n"}, site_url="http://127.0.0.1:8123/book/", plugin={"snapshot": False}
    )
    assert build.returncode == 0, build.output
    assert (
        "calculators: built for http://127.0.0.1:8123/book/ (serve it at that address: instant navigation needs it)"
        in build.output
    )
