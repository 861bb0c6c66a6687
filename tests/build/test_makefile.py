"""The Makefile's serving targets, as a reader of the README runs them: a busy port is one clear line, and
`make preview` builds the site for the very address it serves it on (instant navigation needs that)."""

from __future__ import annotations

import re
import socket
import subprocess
from collections.abc import Iterator

import pytest

from tests.support import ROOT


@pytest.fixture
def busy_port() -> Iterator[int]:
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        yield listener.getsockname()[1]


def make(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["make", "--no-print-directory", *args], cwd=ROOT, capture_output=True, text=True, timeout=300, check=False
    )


@pytest.mark.parametrize("target", ["serve", "preview"])
def test_a_busy_port_is_one_clear_line(busy_port: int, target: str) -> None:
    result = make(target, f"PORT={busy_port}")
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert f"127.0.0.1:{busy_port} is in use" in lines[0] and f"make {target} PORT=" in lines[0]
    assert "Traceback" not in result.stdout + result.stderr


def test_preview_builds_for_the_address_it_serves() -> None:
    plan = make("-n", "preview", "PORT=8123", "HOST=127.0.0.1").stdout
    assert "SITE_URL=http://127.0.0.1:8123/ " in plan
    assert re.search(r"http\.server --directory site --bind 127\.0\.0\.1 8123", plan)


def test_the_readme_documents_preview_port_and_host() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "make preview" in readme and "PORT=" in readme and "HOST=" in readme
    assert "reads normally" not in readme  # the file:// promise, as it was: links opened folder listings
