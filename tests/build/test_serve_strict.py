"""`mkdocs serve` of a book whose mkdocs.yml says `strict: true` (the own-book guide's) keeps serving through an
author's mistake, in a block or in the book's package: the mistake is printed and shown at its block, the page
answers, and once it is fixed the block renders again. Without this, strict mode aborts the rebuild and MkDocs
serves nothing until a build passes: every page request hangs. A strict `mkdocs build` of the same mistake still
stops."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.build.test_own_book_guide import guide_files
from tests.support import NODE_MODULES, build_env, free_port, mkdocs_serve

BROKEN = "use: ohms-lawz"
MISTAKE = "docs/index.md:6: unknown calculator &#x27;ohms-lawz&#x27; (expected one of: ohms-law)"
WAIT = 20  # seconds for a build of the one-page book on a busy machine


@pytest.fixture
def guide_book(tmp_path: Path) -> Path:
    """The guide's files as the page gives them (its strict mkdocs.yml included), on this clone's node_modules."""
    for path, text in guide_files().items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text, encoding="utf-8")
    (tmp_path / "node_modules").symlink_to(NODE_MODULES)
    return tmp_path


def _env(book: Path) -> dict[str, str]:
    return build_env(PYTHONPATH=os.pathsep.join([str(book), os.environ.get("PYTHONPATH", "")]))


def _page(port: int, path: str = "") -> str:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/{path}", timeout=WAIT) as response:
        return str(response.read().decode("utf-8"))


def _until(failure: str, check: Callable[[], object]) -> None:
    """Wait (at most WAIT seconds) until `check()` is true; else fail, saying what did not happen."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.2)
    pytest.fail(f"mkdocs serve: {failure} within {WAIT} s")


def test_serve_reports_a_mistake_and_keeps_serving(guide_book: Path) -> None:
    index = guide_book / "docs/index.md"
    good = index.read_text(encoding="utf-8")
    assert "use: ohms-law\n" in good
    index.write_text(good.replace("use: ohms-law\n", BROKEN + "\n"), encoding="utf-8")
    port = free_port()
    serve, log = mkdocs_serve(guide_book, port, _env(guide_book))
    try:
        _until("no 'Serving on' line", lambda: any("Serving on" in line for line in log) or serve.poll())
        assert serve.poll() is None, "".join(log)
        assert "Aborted" not in "".join(log)
        assert "ERROR   -  docs/index.md:6: unknown calculator 'ohms-lawz' (expected one of: ohms-law)\n" in log
        broken = _page(port)
        assert MISTAKE in broken  # shown at the block
        assert '<output for="calc-1-form">' not in broken

        index.write_text(good, encoding="utf-8")
        _until("the mended block was not rendered", lambda: '<output for="calc-1-form">0.02 A' in _page(port))
        assert MISTAKE not in _page(port)
        assert serve.poll() is None

        # The package broken: every block says why, and so do the pages it makes, which the nav links to (a missing
        # one would be MkDocs' own warning, and stop the rebuild).
        module = guide_book / "circuits/ohm.py"
        source = module.read_text(encoding="utf-8")
        module.write_text(source + "def broken(:\n", encoding="utf-8")
        line = len(source.splitlines()) + 1
        syntax = f"circuits/ohm.py:{line}: SyntaxError: invalid syntax"
        _until("the broken package was not shown", lambda: syntax in _page(port))
        assert syntax in _page(port, "reference/calculators/")
        assert serve.poll() is None
        module.write_text(source, encoding="utf-8")
        _until("the mended package was not rendered", lambda: '<output for="calc-1-form">0.02 A' in _page(port))
        assert 'id="ohms-law"' in _page(port, "reference/calculators/")
        assert "Aborted" not in "".join(log)
    finally:
        serve.terminate()
        try:
            serve.wait(timeout=WAIT)
        except subprocess.TimeoutExpired:
            serve.kill()
            pytest.fail("mkdocs serve did not stop")


def test_a_strict_build_still_stops_on_it(guide_book: Path) -> None:
    index = guide_book / "docs/index.md"
    index.write_text(index.read_text(encoding="utf-8").replace("use: ohms-law\n", BROKEN + "\n"), encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "-q", "--site-dir", str(guide_book / "site")],
        cwd=guide_book,
        env=_env(guide_book),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 1
    assert "docs/index.md:6: unknown calculator 'ohms-lawz' (expected one of: ohms-law)" in result.stderr
    assert "Aborted with 1 errors in strict mode!" in result.stdout + result.stderr
