"""Every layer runs, provably: the run ends with one line counting the tests of each layer.

A whole layer once went unrun, unseen (pytest's default `norecursedirs` skips folders named `build`). So a full run
(`pytest` with no paths, as `make test` runs it) fails when any layer ran no test, and under `CI=true` any run fails
when a test was skipped: a skip there is a test that guarded nothing.

`--busy` runs the tests with the machine's cores kept busy beside them (tests/busy.py), as CI machines are: the
load starts with the session and ends with it, and the run's header and summary give the load average.

Every test carries its layer's marker (`unit`, `conformance`, `build`, `browser`) and what it guards (`plugin` or
`content`: tests/unit/conftest.py says which for each unit module; the other layers are the plugin's), so that
`pytest -m content` runs what a change to the book needs and `pytest -m "plugin and not browser"` what a change to the
plugin needs first. `make test` runs them on two pytest-xdist workers, a file at a time (`--dist loadfile`), the
files that took longest last time first (see `longest_first`).
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.busy import Load, load_average
from tests.unit.conftest import concern

if TYPE_CHECKING:
    from calckit.book import Book

LAYERS = ("unit", "conformance", "build", "browser")
TESTS = Path(__file__).parent
LOAD = pytest.StashKey[Load]()
# How long each test took in a full run, as pytest-split records it (`make durations`); GitHub's browser shards are
# split by it too.
DURATIONS = TESTS.parent / ".test_durations"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("busy", "a busy machine")
    group.addoption(
        "--busy",
        action="store_true",
        help="keep the machine's cores busy while the tests run: CPU-burning processes started with the session "
        "and ended with it (tests/busy.py)",
    )
    group.addoption(
        "--busy-processes",
        type=int,
        default=os.cpu_count() or 2,
        metavar="N",
        help="with --busy: how many processes burn (default: one per core, %(default)s here)",
    )
    group.addoption(
        "--busy-minutes",
        type=float,
        default=90,
        metavar="M",
        help="with --busy: each process ends by itself after M minutes at the latest (default %(default)s)",
    )


def pytest_configure(config: pytest.Config) -> None:
    """calckit works for this book's package, as the browser's worker makes it: from collection on (parameters are
    computed through the calculators); a test may switch it for its own time (use_book). With --busy, the load starts
    here, before collection, so that the whole session runs beside it."""
    from calckit import book

    book.use("calculators")
    # Under xdist only the controller keeps the machine busy: its workers run this hook too.
    if config.getoption("busy") and not hasattr(config, "workerinput"):
        load = Load(config.getoption("busy_processes"), config.getoption("busy_minutes"))
        config.stash[LOAD] = load.start()


def pytest_unconfigure(config: pytest.Config) -> None:
    """The load ends with the session, however it ends (a failure, -x, Ctrl-C)."""
    load = config.stash.get(LOAD, None)
    if load is not None:
        load.stop()


def pytest_report_header(config: pytest.Config) -> str | None:
    load = config.stash.get(LOAD, None)
    if load is None:
        return None
    return (
        f"busy: {load.processes} CPU-burning processes beside the tests, for at most {load.minutes:g} min "
        f"(load average now {load_average()})"
    )


@pytest.fixture
def use_book(monkeypatch: pytest.MonkeyPatch) -> Callable[[str], Book]:
    """calckit working for another book's package for one test, as a browser worker serving that book does (to
    compute what its pages must show); this book's again after it. Builds never switch it (calckit.session)."""
    from calckit import book

    def use(package: str) -> Book:
        loaded = book.load(package)
        monkeypatch.setattr(book, "_current", loaded)
        return loaded

    return use


def _layer(nodeid: str) -> str:
    parts = nodeid.split("/")
    return parts[1] if len(parts) > 2 and parts[0] == "tests" else "other"


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects by these markers
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Each test gets its layer's marker and its concern's (plugin or content)."""
    for item in items:
        layer = _layer(item.nodeid)
        if layer not in LAYERS:
            continue
        item.add_marker(layer)
        item.add_marker(concern(item.path) if layer == "unit" else "plugin")
    items[:] = longest_first(items, _recorded_durations())


def _recorded_durations() -> dict[str, float]:
    try:
        durations: dict[str, float] = json.loads(DURATIONS.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return durations


def _file_of(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


def longest_first(items: list[pytest.Item], durations: dict[str, float]) -> list[pytest.Item]:
    """The tests a file at a time, the file whose tests took longest in total first, each file's tests in their own
    order. pytest-xdist hands files to its workers in this order (`--dist loadfile --no-loadscope-reorder`: its own
    reorder puts the files with most tests first, which left a browser file of one 24 s test to the end while the
    other worker idled); longest first, the last files are the shortest, and the workers end within moments of each
    other. A file with no record (new since `make durations`) counts as the average of its layer's, and every worker
    orders alike, as pytest-xdist requires, since they all read the same record."""
    totals: dict[str, float] = {}
    for nodeid, seconds in durations.items():
        totals[_file_of(nodeid)] = totals.get(_file_of(nodeid), 0.0) + seconds
    by_layer: dict[str, list[float]] = {}
    for file, seconds in totals.items():
        by_layer.setdefault(_layer(file), []).append(seconds)

    def cost(item: pytest.Item) -> float:
        file = _file_of(item.nodeid)
        if file in totals:
            return totals[file]
        known = by_layer.get(_layer(item.nodeid), [])
        return sum(known) / len(known) if known else 0.0

    files: dict[str, list[pytest.Item]] = {}
    for item in items:
        files.setdefault(_file_of(item.nodeid), []).append(item)
    ordered = sorted(files.values(), key=lambda tests: -cost(tests[0]))  # stable: ties keep pytest's order
    return [item for tests in ordered for item in tests]


def _is_full_run(config: pytest.Config) -> bool:
    """Whether pytest was asked for every test (no paths, or the tests folder itself) and no subset by -k or -m."""
    args = [Path(arg.split("::")[0]).resolve() for arg in config.invocation_params.args if not arg.startswith("-")]
    wide = all(arg in (TESTS, TESTS.parent) for arg in args)
    subset = config.getoption("keyword") or config.getoption("markexpr") or config.getoption("collectonly")
    return wide and not subset


def _counts(reporter: pytest.TerminalReporter) -> dict[str, Counter[str]]:
    counts: dict[str, Counter[str]] = {layer: Counter() for layer in LAYERS}
    for outcome in ("passed", "failed", "error", "skipped", "xfailed", "xpassed"):
        for report in reporter.stats.get(outcome, []):
            nodeid = getattr(report, "nodeid", "")
            # A test's setup, call and teardown each report; count the call, or the phase that decided the outcome.
            if not nodeid or (getattr(report, "when", "call") != "call" and outcome not in ("error", "skipped")):
                continue
            counts.setdefault(_layer(nodeid), Counter())[outcome] += 1
    return counts


def _problems(config: pytest.Config, ran: dict[str, int], counts: dict[str, Counter[str]]) -> list[str]:
    problems = []
    if _is_full_run(config):
        problems += [f"the {layer} layer ran no test" for layer in LAYERS if ran[layer] == 0]
    skipped = sum(count["skipped"] for count in counts.values())
    if skipped and os.environ.get("CI") == "true":
        problems.append(f"{skipped} test(s) skipped under CI=true, where every test must run")
    return problems


def _ran(counts: dict[str, Counter[str]]) -> dict[str, int]:
    return {layer: sum(count[o] for o in ("passed", "failed", "error", "xpassed")) for layer, count in counts.items()}


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Turn a run that left a layer out, or skipped under CI, into a failed one (the summary says why)."""
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is None or exitstatus not in (pytest.ExitCode.OK, pytest.ExitCode.NO_TESTS_COLLECTED):
        return
    counts = _counts(reporter)
    if _problems(session.config, _ran(counts), counts):
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, exitstatus: int, config: pytest.Config) -> None:
    if config.getoption("collectonly"):
        return
    counts = _counts(terminalreporter)
    ran = _ran(counts)
    parts = []
    for layer, count in counts.items():
        extra = ", ".join(f"{count[o]} {o}" for o in ("failed", "error", "skipped") if count[o])
        parts.append(f"{layer} {ran[layer]}" + (f" ({extra})" if extra else ""))
    terminalreporter.write_line("tests per layer: " + ", ".join(parts), bold=True)
    load = config.stash.get(LOAD, None)
    if load is not None:
        terminalreporter.write_line(
            f"busy: {load.processes} CPU-burning processes beside the tests ({load.running()} still burning at the "
            f"end); load average over 1, 5, 15 min: {load.load_at_start} at the start, {load_average()} at the end"
        )
    for problem in _problems(config, ran, counts):
        terminalreporter.write_line(f"FAILED RUN: {problem}", red=True, bold=True)
