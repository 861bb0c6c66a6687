"""The Makefile's targets, as a reader of the README runs them: a busy port is one clear line, `make preview` builds
the site for the very address it serves it on (instant navigation needs that), and a missing tool (Python, Node.js,
Chromium) is one line saying what to install, checked by one script that `.ci/run` uses too."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

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


def free_port() -> int:
    """A port nothing listens on now (a fixed one may be taken on a shared machine, and `make preview` checks)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_preview_builds_for_the_address_it_serves() -> None:
    port = free_port()
    plan = make("-n", "preview", f"PORT={port}", "HOST=127.0.0.1").stdout
    assert f"SITE_URL=http://127.0.0.1:{port}/ " in plan
    assert re.search(rf"http\.server --directory site --bind 127\.0\.0\.1 {port}", plan)


def test_the_readme_documents_preview_port_and_host() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "make preview" in readme and "PORT=" in readme and "HOST=" in readme
    assert "reads normally" not in readme  # the file:// promise, as it was: links opened folder listings


def prerequisites(*tools: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(ROOT / ".ci/prerequisites"), *tools],
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize(
    ("tool", "env", "says"),
    [
        ("python", {"PYTHON": "/nonexistent/python3"}, "Python 3.11 or newer is needed, and '/nonexistent/python3' is"),
        ("node", {"NODE": "/nonexistent/node"}, "Node.js 20 or newer with npm is needed"),
        ("chromium", {"CHROMIUM": "/nonexistent/chromium"}, "CHROMIUM=/nonexistent/chromium is not an executable"),
    ],
)
def test_a_missing_tool_is_one_line_saying_what_to_install(tool: str, env: dict[str, str], says: str) -> None:
    result = prerequisites(tool, **env)
    assert result.returncode == 1
    assert len(result.stdout.strip().splitlines()) == 1 and says in result.stdout, result.stdout
    assert "install" in result.stdout or "point it at" in result.stdout


def test_a_node_too_old_is_named_with_its_version(tmp_path: Path) -> None:
    node = tmp_path / "node"
    node.write_text("#!/bin/sh\necho v18.19.0\n", encoding="utf-8")
    node.chmod(0o755)
    result = prerequisites("node", NODE=str(node))
    assert result.returncode == 1 and "'" + str(node) + "' is v18.19.0: install a newer one" in result.stdout


def test_tools_that_are_there_pass_silently() -> None:
    # Not Chromium: where it is missing, the check installs it (as root with apt-get).
    result = prerequisites("python", "node", PYTHON=sys.executable)
    assert (result.returncode, result.stdout) == (0, "")


def test_make_bench_without_chromium_is_one_line_not_a_traceback() -> None:
    """Before measuring anything (a fresh machine without Chromium once got a Playwright traceback here)."""
    result = subprocess.run(
        ["make", "--no-print-directory", "bench"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "CHROMIUM": "/nonexistent/chromium"},
        timeout=300,
        check=False,
    )
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "CHROMIUM=/nonexistent/chromium is not an executable file" in lines[0], result.stderr
    assert "Traceback" not in result.stdout + result.stderr


def test_ci_and_the_makefile_share_one_check() -> None:
    for path in (".ci/run", "Makefile"):
        text = (ROOT / path).read_text(encoding="utf-8")
        assert ".ci/prerequisites" in text and "apt-get" not in text, path
