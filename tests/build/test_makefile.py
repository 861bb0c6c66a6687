"""The Makefile's targets, as a reader of the README runs them: a busy port is one clear line, `make preview` builds
the site for the very address it serves it on (instant navigation needs that), and a missing tool (Python, Node.js,
Chromium) is one line saying what to install, checked by one script that `.ci/run` uses too."""

from __future__ import annotations

import json
import os
import re
import shutil
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
        ("node", {"NODE": "/nonexistent/node"}, "Node.js 22.12 or newer (22 or 24) with npm is needed"),
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
    node.write_text("#!/bin/sh\necho v20.20.2\n", encoding="utf-8")
    node.chmod(0o755)
    result = prerequisites("node", NODE=str(node))
    assert result.returncode == 1
    assert f"NODE={node} is v20.20.2: point it at Node.js 22 or 24" in result.stdout, result.stdout


def _node_20_first_on_path(folder: Path) -> dict[str, str]:
    """An environment whose PATH finds, first, a Node.js that says it is 20.20.2 (and runs as the system's does, so
    that npm works through it), as this machine's Debian Node did."""
    real = shutil.which("node")
    assert real is not None
    folder.mkdir()
    node = folder / "node"
    node.write_text(f'#!/bin/sh\n[ "$1" = --version ] && echo v20.20.2 && exit 0\nexec {real} "$@"\n', encoding="utf-8")
    node.chmod(0o755)
    return {"PATH": f"{folder}{os.pathsep}{os.environ['PATH']}"}


def make_eval(recipe: str, **env: str) -> subprocess.CompletedProcess[str]:
    """A one-line recipe run by the Makefile (its variables and exported PATH) from the repository's root."""
    return subprocess.run(
        ["make", "--no-print-directory", "--eval", f"probe: ; @{recipe}", "probe"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        timeout=120,
        check=False,
    )


def test_an_older_node_gets_node_22_installed_and_first_on_the_makefiles_path(tmp_path: Path) -> None:
    """Node 20 on PATH (this machine's): the check installs the pinned Node 22 from the npm registry into NODE_HOME,
    silently on stdout, and every recipe of the Makefile then runs it."""
    home = tmp_path / "cache/node-v22"
    env = {**_node_20_first_on_path(tmp_path / "bin"), "NODE_HOME": str(home)}
    result = prerequisites("node", **env)
    assert (result.returncode, result.stdout) == (0, ""), result.stdout + result.stderr
    assert "Installing Node.js 22." in result.stderr
    version = subprocess.run([home / "bin/node", "--version"], capture_output=True, text=True, check=True).stdout
    assert re.fullmatch(r"v22\.(1[2-9]|[2-9]\d)\.\d+\n", version), version
    found = make_eval("command -v node; node --version", **env)
    assert found.stdout.splitlines() == [str(home / "bin/node"), version.strip()], found.stdout + found.stderr
    again = prerequisites("node", **env)  # installed once: found, not installed again
    assert (again.returncode, again.stdout, again.stderr) == (0, "", "")


def test_npm_ci_on_the_makefiles_node_warns_of_no_engine(tmp_path: Path) -> None:
    """The lock's packages all run on the Node the Makefile uses (KaTeX's commander asks for 22.12): `npm ci`
    (dry-run, in a copy of the two files) says nothing of an unsupported engine."""
    assert prerequisites("node").returncode == 0
    for name in ("package.json", "package-lock.json"):
        shutil.copy(ROOT / name, tmp_path / name)
    result = make_eval(f"cd {tmp_path} && node --version && npm ci --dry-run --no-audit --no-fund")
    assert result.returncode == 0, result.stdout + result.stderr
    assert int(result.stdout.split(".")[0].removeprefix("v")) in (22, 24), result.stdout
    assert "EBADENGINE" not in result.stdout + result.stderr, result.stdout + result.stderr


def test_package_json_names_the_node_every_locked_package_runs_on() -> None:
    """`engines` says Node 22.12 or newer, and every package of the lock (the runtime's and the test tools') runs on
    the first of the two LTS lines' supported releases and on Node 24."""
    package = json.loads((ROOT / "package.json").read_text(encoding="utf-8"))
    assert package["engines"] == {"node": ">=22.12"}
    script = """
const semver = require("./node_modules/semver");
const lock = require("./package-lock.json");
const refused = Object.entries(lock.packages)
  .filter(([, entry]) => entry.engines?.node)
  .filter(([, entry]) => !["22.12.0", "24.0.0"].every((v) => semver.satisfies(v, entry.engines.node)))
  .map(([name, entry]) => `${name || "(root)"} ${entry.engines.node}`);
console.log(JSON.stringify(refused));
"""
    result = subprocess.run(["node", "-e", script], cwd=ROOT, capture_output=True, text=True, check=True)
    assert json.loads(result.stdout) == []


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
