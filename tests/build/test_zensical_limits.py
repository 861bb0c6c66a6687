"""R10 beyond MkDocs: under Zensical (the `calculators` Markdown extension) and in the `mkdocs-calculators` command,
the book's code that never returns is stopped at its time limit with the plugin's one located line, and the process
ends with a non-zero status, never a traceback or a hang.

Each step runs under a timeout it must beat by far (TIMEOUT, against a limit of LIMIT seconds): without a limit,
the step would hang and the test fail on subprocess.TimeoutExpired.
"""

from __future__ import annotations

import functools
import re
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.build.test_author_code_limits import assert_clean
from tests.build.test_zensical import copy_of_the_book
from tests.support import NODE_MODULES, Together, build_env, build_with_zensical, started_together

LIMIT = 2  # seconds: the extension's time_limit in these books
TIMEOUT = 90  # seconds a step may take before the test fails as hung (a plain `zensical build` takes a few)
PAGE = "# Circuits\n\n```calculator\nuse: ohms-law\nvolts: 9\nohms: 450\n```\n\n```calculator\nuse: ohms-law\n```\n"
FIRST_LINE = '    volts, ohms = number(inputs, "volts"), number(inputs, "ohms")\n'  # ohm.py's compute function's first
# What hangs, just after that line, for the page's first block only; and the line of it the code is stuck on.
HANGS = {
    "a Python loop": ("    while volts == 9: pass\n", 0),
    "arithmetic in C": ("    if volts == 9:\n        return 10**10**8\n", 1),
}
# At the top level of ohm.py, a sleep in C: a host that imported the package in its own process would hang beside it.
# Every host stops the book's code through the one compute process, so each kind of hang (a Python loop, C holding
# the interpreter, a sleep and a wait in C) is met once, under MkDocs (test_author_code_limits.py); here, the hang
# that waits its limit out without spending a core, which the tests beside it share (a loop cost 11 CPU-s a host).
IMPORT_HANG = "import time; time.sleep(10**6)"
ROWS_HANG = f"    {IMPORT_HANG}\n"  # the same, first in a data table's rows function
IMPORT_LIMIT = 12  # the import's: six limits, at least ten seconds


def book_with(parent: Path, ohm: tuple[str, str], page: str = PAGE) -> Path:
    """The second book, its `circuits/ohm.py` with `ohm[0]` replaced by `ohm[1]`, `page` as its only page, and the
    time limit given to the plugin and to the Markdown extension (Zensical's build reads the extension's)."""
    root = copy_of_the_book(parent)
    config = root / "mkdocs.yml"
    text = config.read_text(encoding="utf-8")
    assert text.count("      package: circuits\n") == 2
    config.write_text(
        text.replace("      package: circuits\n", f"      package: circuits\n      time_limit: {LIMIT}\n"),
        encoding="utf-8",
    )
    module = root / "circuits/ohm.py"
    source = module.read_text(encoding="utf-8")
    assert ohm[0] in source
    module.write_text(source.replace(ohm[0], ohm[1], 1), encoding="utf-8")
    (root / "docs/index.md").write_text(page, encoding="utf-8")
    return root


def errors(stderr: str) -> list[str]:
    """The messages of the ERROR lines, as Zensical's extension and MkDocs print them."""
    return [re.sub(r"^ERROR +-  ", "", line) for line in stderr.splitlines() if line.startswith("ERROR")]


def import_hang(parent: Path, statement: str) -> tuple[Path, int]:
    """A book whose ohm.py runs `statement` at its top level, and that line."""
    root = book_with(parent, ("\n\ndef _compute", f"\n\n{statement}\n\n\ndef _compute"))
    source = (root / "circuits/ohm.py").read_text(encoding="utf-8")
    return root, source[: source.index(statement)].count("\n") + 1


SUMMARY = "calculators: 1 problem(s) in 1 page(s) (listed above): the build failed"


@pytest.mark.parametrize(("statements", "stuck"), HANGS.values(), ids=HANGS.keys())
def test_zensical_stops_a_compute_that_never_returns(tmp_path: Path, statements: str, stuck: int) -> None:
    """The page's line, the calculator, its inputs and the line the code was stuck on, as the plugin says it; the
    page's other calculator is computed (no error for it), and `zensical build` ends with status 1."""
    root = book_with(tmp_path, (FIRST_LINE, FIRST_LINE + statements))
    line = (root / "circuits/ohm.py").read_text(encoding="utf-8").split("\n").index(FIRST_LINE.rstrip("\n")) + 2
    started = time.monotonic()
    pages, build = build_with_zensical(root, ("pages", "build"), timeout=TIMEOUT)
    assert time.monotonic() - started < TIMEOUT / 2
    assert pages.returncode == 0, pages.stderr  # it imports the package, and computes nothing
    assert build.returncode == 1, build.stderr
    assert errors(build.stderr) == [
        f"docs/index.md:3: calculator 'ohms-law' did not finish within {LIMIT} s for these inputs (volts=9, ohms=450) "
        f"(circuits/ohm.py:{line + stuck})",
        SUMMARY,
    ], build.stderr
    assert_clean(build.stdout + build.stderr)
    html = (root / "site/index.html").read_text(encoding="utf-8")
    assert html.count('data-calculator="ohms-law"') == 1  # the block at the defaults, computed


def _import_hang_run(parent: Path, step: str) -> tuple[subprocess.CompletedProcess[str], int, Path]:
    """`step` of a book whose ohm.py sleeps at its top level: its result, the sleeping line and the book."""
    root, line = import_hang(parent, IMPORT_HANG)
    if step != "build":  # the site to ship needs only be there: the package is imported before anything in it is read
        (root / "site").mkdir()
        (root / "site/index.html").write_text("<!doctype html><title>Circuits</title>", encoding="utf-8")
    [result] = build_with_zensical(root, (step,), timeout=TIMEOUT)
    return result, line, root


def _rows_hang_run(parent: Path, host: str) -> tuple[subprocess.CompletedProcess[str], int]:
    """`host` building a book whose data table's rows function sleeps: its result and the sleeping line."""
    root = book_with(parent, ("", ""))
    wires = root / "circuits/wires.py"
    head = "def _rows() -> dict[str, Row]:\n"
    source = wires.read_text(encoding="utf-8")
    wires.write_text(source.replace(head, head + ROWS_HANG, 1), encoding="utf-8")
    line = source[: source.index(head)].count("\n") + 2
    if host == "mkdocs build":
        environment = build_env(PYTHONPATH=str(root), CIRCUITS_NODE_MODULES=str(NODE_MODULES))
        command = [sys.executable, "-m", "mkdocs", "build", "--strict"]
        result = subprocess.run(command, capture_output=True, text=True, env=environment, cwd=root, timeout=TIMEOUT)
    else:
        [result] = build_with_zensical(root, ("build" if host == "zensical build" else "pages",), timeout=TIMEOUT)
    return result, line


HOSTS = ["mkdocs build", "zensical build", "mkdocs-calculators pages"]


@pytest.fixture(scope="module")
def asleep(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Together]:
    """The module's six runs whose book's code sleeps until the import's limit ends it, started together: each test
    below reads its own result (and how long it took), and the module waits out one limit instead of six."""
    runs: dict[str, Callable[[], Any]] = {
        f"import, {step}": functools.partial(_import_hang_run, tmp_path_factory.mktemp("import"), step)
        for step in ("build", "pages", "ship")
    }
    runs |= {
        f"rows, {host}": functools.partial(_rows_hang_run, tmp_path_factory.mktemp("rows"), host) for host in HOSTS
    }
    with started_together(**runs) as results:
        yield results


def test_zensical_stops_a_package_whose_import_hangs(asleep: Together) -> None:
    (build, line, _), took = asleep["import, build"]()
    assert took < TIMEOUT * 2 / 3
    assert build.returncode == 1, build.stderr
    assert errors(build.stderr) == [
        f"circuits/ohm.py:{line}: calculators: importing the package 'circuits' did not finish within {IMPORT_LIMIT} s",
        SUMMARY,
    ], build.stderr
    assert_clean(build.stdout + build.stderr)


@pytest.mark.parametrize("step", ["pages", "ship"])
def test_the_command_stops_a_package_whose_import_hangs(asleep: Together, step: str) -> None:
    """`mkdocs-calculators pages` and `ship` import the package (its reference pages, its wheel): one line, status
    1. The site to ship needs only be there: the package is imported before anything in it is read."""
    (command, line, root), took = asleep[f"import, {step}"]()
    assert took < TIMEOUT * 2 / 3
    assert command.returncode == 1, command.stderr
    assert command.stderr == (
        f"mkdocs-calculators: circuits/ohm.py:{line}: calculators: importing the package 'circuits' did not finish "
        f"within {IMPORT_LIMIT} s\n"
    )
    assert command.stdout == ""
    assert not (root / "docs/reference").exists() and not (root / "site/sw.js").exists()


@pytest.mark.parametrize("limit", ["0", "-1", "true", "five"])
def test_a_time_limit_that_is_not_one_is_refused(tmp_path: Path, limit: str) -> None:
    """By the extension under Zensical, and by the command, each in one line."""
    root = book_with(tmp_path, ("", ""))
    config = root / "mkdocs.yml"
    config.write_text(
        config.read_text(encoding="utf-8").replace(f"time_limit: {LIMIT}", f"time_limit: {limit}"), encoding="utf-8"
    )  # both entries: the command refuses two that differ (below)
    shown = {"0": "0", "-1": "-1", "true": "True", "five": "'five'"}[limit]
    problem = f"calculators: 'time_limit' must be a number of seconds > 0 (got {shown})"
    [pages] = build_with_zensical(root, ("pages",), timeout=TIMEOUT)
    assert (pages.returncode, pages.stderr) == (1, f"mkdocs-calculators: mkdocs.yml: {problem}\n")
    [build] = build_with_zensical(root, ("build",), timeout=TIMEOUT)
    assert build.returncode == 1, build.stderr
    assert errors(build.stderr) == [problem, SUMMARY], build.stderr


def test_the_command_refuses_a_plugin_and_an_extension_whose_limits_differ(tmp_path: Path) -> None:
    """Zensical's build would stop the book's code at the extension's limit, the snapshot and the browser at the
    plugin's (5 s, given none): the command says so rather than ship a book whose limits disagree."""
    root = book_with(tmp_path, ("", ""))
    config = root / "mkdocs.yml"
    text = config.read_text(encoding="utf-8")
    config.write_text(text.replace(f"      time_limit: {LIMIT}\n", "", 1), encoding="utf-8")  # the plugin's
    [pages] = build_with_zensical(root, ("pages",), timeout=TIMEOUT)
    assert (pages.returncode, pages.stderr) == (
        1,
        f"mkdocs-calculators: mkdocs.yml: the `calculators` plugin's time_limit is 5 and the extension's {LIMIT} "
        "(5 where none is given): give both the same\n",
    )


@pytest.mark.parametrize("host", HOSTS)
def test_a_data_table_whose_rows_never_return_is_stopped(asleep: Together, host: str) -> None:
    """A table's rows are the book's code too, called as the package is loaded (to check them): the child calls them
    within the import's limit, and every host says where they were stuck."""
    (result, line), took = asleep[f"rows, {host}"]()
    assert took < TIMEOUT * 2 / 3
    assert result.returncode == 1, result.stderr
    message = (
        f"circuits/wires.py:{line}: calculators: loading the data table of the package 'circuits' (its rows and "
        f"sources) did not finish within {IMPORT_LIMIT} s"
    )
    if host == "mkdocs-calculators pages":
        assert result.stderr == f"mkdocs-calculators: {message}\n"
    else:
        summary = [SUMMARY] if host == "zensical build" else []
        assert errors(result.stderr) == [message, *summary], result.stderr
    assert_clean(result.stdout + result.stderr)
