"""What MkDocs lets pass in silence stops the strict build with a located line: broken front matter, and footnotes
cited without a definition, defined twice, or defined and never cited. Code that shows footnote syntax is left alone."""

from __future__ import annotations

import re
from pathlib import Path

from tests.build.sites import build_fixture
from tests.support import ROOT

_WARNING = re.compile(r"^WARNING\s+-\s+(?P<message>.*?)\s*$", re.MULTILINE)


def test_front_matter_that_is_not_yaml(tmp_path: Path) -> None:
    page = "---\ntitle: Roofline\nsummary: [unclosed\n---\n# Roofline\n"
    build = build_fixture(tmp_path, {"docs/index.md": page})
    assert build.returncode != 0
    assert build.errors() == [
        "docs/index.md:3: front matter is not valid YAML: while parsing a flow sequence, expected ',' or ']', but got "
        "'<stream end>' (a [ or { opened here is not closed, or its items lack commas)"
    ]


def test_footnotes_without_their_other_half(tmp_path: Path) -> None:
    page = (
        "---\ntitle: Notes\n---\n# Notes\n\n"
        "H100 reads 3.35 TB/s[^h100], and TPU v5e 819 GB/s[^v5e].\n\n"
        "Write `[^name]` to cite, as in this example:\n\n```markdown\nA claim[^example].\n```\n\n"
        "[^h100]: NVIDIA, H100 datasheet.\n[^h100]: Again.\n[^unused]: Nobody cites this.\n"
    )
    build = build_fixture(tmp_path, {"docs/index.md": page})
    assert build.returncode != 0
    # (MkDocs adds its own warning about the second [^h100], which Markdown reads as a link.)
    assert [warning for warning in _WARNING.findall(build.output) if warning.startswith("docs/")] == [
        "docs/index.md:6: footnote [^v5e] is cited but never defined: add a line '[^v5e]: ...' with its source",
        "docs/index.md:15: footnote [^h100] is defined twice (first at line 14)",
        "docs/index.md:16: footnote [^unused] is defined but never cited: cite it with [^unused] or remove it",
    ]


def test_good_footnotes_pass(tmp_path: Path) -> None:
    page = "# Notes\n\nA figure[^a] and a list item:\n\n- cited again[^a]:\n\n[^a]: A source.\n    Continued.\n"
    build = build_fixture(tmp_path, {"docs/index.md": page})
    assert build.returncode == 0, build.output
    assert "WARNING" not in build.output


def test_a_page_left_out_of_nav_stops_the_books_build(tmp_path: Path) -> None:
    """With the book's own validation settings, a page that is not in `nav` stops the strict build, naming it."""
    from mkdocs.utils.yaml import yaml_load

    with (ROOT / "mkdocs.yml").open(encoding="utf-8") as config:
        validation = yaml_load(config)["validation"]
    files = {"docs/index.md": "# Home\n", "docs/chapters/28-new.md": "# New\n"}
    build = build_fixture(tmp_path, files, nav=[{"Home": "index.md"}], validation=validation)
    assert build.returncode != 0
    assert 'are not included in the "nav" configuration:\n  - chapters/28-new.md' in build.output
