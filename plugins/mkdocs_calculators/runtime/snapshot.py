"""Memory snapshots of Pyodide, for the workers to restore instead of booting: the calculators' (the book's package
imported) and the readers' exercises' (calckit's exercise runner alone).

Restoring a snapshot of the interpreter's memory costs a reader about a quarter of a boot and an import. `snapshot.mjs`
makes one under Node with the pinned Pyodide and this build's wheels; the site ships it gzipped (about 6 MB for 31 MB)
and `worker.js` restores it (`loadPyodide({_loadSnapshot})`), falling back to a plain boot whenever that fails.

`_makeSnapshot` and `_loadSnapshot` are private Pyodide API, so a snapshot is used only with the runtime it was made
with: its name carries a key over Pyodide's version and build, the wheels, the package and these scripts.

Snapshots are cached between builds under `node_modules/.cache/` (git-ignored, shared by every site built against the
same runtime, emptied by `npm ci` with it), a few per package (the exercises' on a shelf of their own). Each is
restored once under Node before it is cached or shipped (`snapshot_check.mjs`, as worker.js restores it): one that
cannot be ("offset is out of bounds", as a chart of 50,000 points made it) would send every reader's worker to a plain
boot, seconds slower, with nothing said. So a plain boot ships only by the author's choice (`snapshot: false`): a
snapshot that Node cannot make or restore, or no Node at all, stops the strict build with the reason.

The readers' exercise code runs in a Pyodide of its own (exercise_worker.js) that must never reach the book's package.
Its snapshot (`provide_exercise_snapshot`) holds calckit's wheel alone, `calckit.exercise_run` imported, made with
Python's `js` an empty object (Pyodide points `js` at the `jsglobals` given when restoring, which the worker makes
empty again); keyed on the runtime and calckit's wheel only, so an edit to the book reuses it.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..problems import LIMIT, python_failure
from ..sandbox.compute_process import DEFAULT_LIMIT
from .digests import KEPT_DIGESTS, copied
from .imports import HOW_TO_SHIP
from .layout import NODE_CACHE, SNAPSHOT_INPUTS

if TYPE_CHECKING:
    from calckit.book import Book

__all__ = [
    "EXERCISE_SNAPSHOT_GLOB",
    "SNAPSHOT_GLOB",
    "Snapshot",
    "exercise_snapshot_key",
    "provide_exercise_snapshot",
    "provide_snapshot",
    "snapshot_key",
]

log = logging.getLogger("mkdocs.plugins.calculators")

SCRIPT = Path(__file__).with_name("snapshot.mjs")
CHECK_SCRIPT = Path(__file__).with_name("snapshot_check.mjs")  # restores a snapshot made, as worker.js does
SNAPSHOT_GLOB = "snapshot-*.bin"
EXERCISE_SNAPSHOT_GLOB = "exercise-snapshot-*.bin"  # the readers' exercise worker's
EXERCISE = "--exercise"  # snapshot.mjs's and snapshot_check.mjs's flag for it
EXERCISE_SHELF = "exercises"  # its cache's folder (a book's snapshots are on one named for its package)
KEEP = 4  # snapshots kept on each shelf of the cache, most recently used first
TIMEOUT = 600  # seconds for it all; a cold boot under Node on a busy 2-core machine takes about ten
# What snapshot.mjs writes as it starts each calculator (each has the time limit, and a little more), and at the end.
_RUNNING = "calculators: running "
_RAN = "calculators: ran every calculator"
_NODE_GRACE = 2.0


@dataclass(frozen=True)
class Snapshot:
    name: str  # the file's name in the site, next to worker.js
    made_for: str  # "<Pyodide version> <wheel> <wheel>": worker.js checks it against what it runs
    raw: int | None = None  # sizes, when it was made by this build
    gzipped: int | None = None


def pyodide_version(pyodide_dir: Path) -> str:
    return str(json.loads((pyodide_dir / "package.json").read_text(encoding="utf-8"))["version"])


def _build_id(pyodide_dir: Path) -> str:
    match = re.search(r'BUILD_ID:"([0-9a-f]+)"', (pyodide_dir / "pyodide.mjs").read_text(encoding="utf-8"))
    return match.group(1) if match else ""


def _key(pyodide_dir: Path, contents: list[str]) -> str:
    """What a snapshot depends on, hashed: the runtime, what it holds and the scripts that make and check it."""
    parts = [
        "format 1",
        pyodide_version(pyodide_dir),
        _build_id(pyodide_dir),
        *(f"{name}:{(pyodide_dir / name).stat().st_size}" for name in SNAPSHOT_INPUTS),
        *contents,
        *(hashlib.sha256(script.read_bytes()).hexdigest() for script in (SCRIPT, CHECK_SCRIPT)),  # made, and checked
    ]
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:16]


def snapshot_key(pyodide_dir: Path, wheel_names: list[str], package: str) -> str:
    """The calculators' snapshot's key: the runtime, the wheels and the package used."""
    return _key(pyodide_dir, [*wheel_names, package])


def exercise_snapshot_key(pyodide_dir: Path, calckit_wheel: str) -> str:
    """The exercise worker's snapshot's key: the runtime and calckit's wheel, nothing of the book."""
    return _key(pyodide_dir, [EXERCISE, calckit_wheel])


def _cache_dir(node_modules: Path, shelf: str) -> Path | None:
    """The cache's folder for one kind of snapshot (`shelf`: a book's package, or the exercises'), made if need be;
    None where it cannot be written."""
    cache = node_modules / NODE_CACHE / shelf
    try:
        cache.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return cache if os.access(cache, os.W_OK) else None


def _prune(cache: Path, keep: Path, glob: str) -> None:
    """Keep the few most recently used snapshots of a kind: one per recent version of the package is plenty."""
    older = sorted((path for path in cache.glob(glob) if path != keep), key=lambda path: path.stat().st_mtime)
    for path in older[: max(0, len(older) - (KEEP - 1))]:
        path.unlink(missing_ok=True)


def _build_failing() -> bool:
    """Whether MkDocs' strict mode has counted warnings or errors, and so will abort this build after post_build."""
    from mkdocs.utils import CountHandler

    return any(isinstance(handler, CountHandler) and handler.counts for handler in logging.getLogger("mkdocs").handlers)


def _run_node(command: list[str], limit: float) -> subprocess.CompletedProcess[str] | str:
    """Run snapshot.mjs: its result, or the name of the calculator that ran past `limit` seconds (Node then ended)."""
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines: list[str] = []
    running: list[tuple[str, float]] = []  # the calculator being run, and since when

    def read() -> None:
        for line in iter(process.stderr.readline, ""):  # type: ignore[union-attr]
            lines.append(line)
            if line.startswith(_RUNNING):
                running.append((line.removeprefix(_RUNNING).strip(), time.monotonic()))
            elif line.startswith(_RAN):
                running.append(("", time.monotonic()))

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    deadline = time.monotonic() + TIMEOUT
    while process.poll() is None:
        name, since = running[-1] if running else ("", 0.0)
        if time.monotonic() > deadline or (name and time.monotonic() - since > limit + _NODE_GRACE):
            process.kill()
            process.wait()
            return name or "the boot"
        time.sleep(0.1)
    reader.join(timeout=5)
    stdout = process.stdout.read() if process.stdout else ""
    return subprocess.CompletedProcess(command, process.returncode, stdout, "".join(lines))


_PLAIN_BOOT = " (each page's first calculation then waits seconds longer)"
_CHECK_TIMEOUT = 120  # seconds to restore a snapshot under Node, on a busy machine (about 3 s when idle)


def _restore_problem(node: str, pyodide_dir: Path, snapshot: Path, flags: list[str], arguments: list[str]) -> str:
    """Why the snapshot at `snapshot` cannot be restored with the pinned Pyodide, as the worker restores it, or ""."""
    command = [node, str(CHECK_SCRIPT), *flags, str(pyodide_dir), str(snapshot), *arguments]
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=_CHECK_TIMEOUT, check=False)
    except subprocess.TimeoutExpired:
        return f"Node did not restore it within {_CHECK_TIMEOUT} s"
    except OSError as error:
        return str(error)
    if result.returncode == 0 and result.stdout.strip() == "restored":
        return ""
    return (result.stderr.strip().splitlines() or [f"node exited with {result.returncode}"])[-1][:LIMIT]


def _make(
    node: str, pyodide_dir: Path, wheels: list[Path], book: Book, target: Path, limit: float
) -> tuple[int, int] | None:
    started = time.monotonic()
    command = [node, str(SCRIPT), str(pyodide_dir), str(target), book.package, *(str(wheel) for wheel in wheels)]
    try:
        result = _run_node(command, limit)
    except OSError as error:
        log.warning(f"calculators: could not make the memory snapshot ({error}); calculators will boot Python plainly")
        return None
    if isinstance(result, str):
        if result == "the boot":
            log.warning(f"calculators: Node took over {TIMEOUT} s to boot Python for the memory snapshot; none made")
            return None
        calculator = book.calculators.get(result)
        code = getattr(calculator.compute, "__code__", None) if calculator else None
        directory = book.directory
        where = (
            f"{directory.name}/{Path(code.co_filename).relative_to(directory).as_posix()}:{code.co_firstlineno}: "
            if code is not None and Path(code.co_filename).is_relative_to(directory)
            else ""
        )
        log.error(
            f"{where}calculator '{result}' did not finish within {limit:g} s on its defaults in Pyodide (run by "
            "Node to make the memory snapshot; the build's Python computed them in time: look for code that "
            "behaves differently in the browser)"
        )
        return None
    if result.returncode != 0 or not target.is_file():
        if "Traceback (most recent call last)" in result.stderr:
            # The package itself fails in Pyodide: a plain boot would fail the same way, so this is an error.
            where, frames = python_failure(result.stderr)
            hint = (
                HOW_TO_SHIP
                if "ModuleNotFoundError" in where
                else "a data file the package reads must be in the wheel: see docs/contributing.md"
            )
            log.error(
                f"{where} (raised in Pyodide while importing the package and running each calculator on its "
                f"defaults, to make the memory snapshot; {hint})\n{frames}"
            )
            return None
        detail = (result.stderr.strip().splitlines() or ["no output"])[-1][:LIMIT]
        log.warning(
            f"calculators: could not make the memory snapshot (node exited with {result.returncode}: {detail}); "
            "calculators will boot Python plainly"
        )
        return None
    return _made(result.stdout, started, "the calculators")


def provide_snapshot(
    node_modules: Path,
    wheels: list[Path],
    book: Book,
    out_dir: Path,
    *,
    create: bool = True,
    limit: float = DEFAULT_LIMIT,
) -> Snapshot | None:
    """Put the snapshot for this runtime, `wheels` and `book`'s package into `out_dir`, from the cache or made now;
    None without one.

    `create=False` (under `mkdocs serve`, where every edit to a calculator makes a new wheel) only reuses a cached one.
    """
    pyodide_dir = node_modules / "pyodide"
    names = [wheel.name for wheel in wheels]
    snapshot = Snapshot(
        name=f"snapshot-{snapshot_key(pyodide_dir, names, book.package)}.bin",
        made_for=" ".join([pyodide_version(pyodide_dir), *names]),
    )
    return _provide(
        node_modules,
        out_dir,
        snapshot,
        glob=SNAPSHOT_GLOB,
        shelf=book.package,
        create=create,
        make=lambda node, made: _make(node, pyodide_dir, wheels, book, made, limit),
        check=([], [book.package, *(str(wheel) for wheel in wheels)]),
        what="the memory snapshot",
        hint=(
            "; a snapshot grows with what the package holds after running each calculator on its defaults, a "
            "chart's data points among it (a chart over its budget is warned of at its block)"
        ),
    )


def provide_exercise_snapshot(
    node_modules: Path, calckit_wheel: Path, book: Book, out_dir: Path, *, create: bool = True
) -> Snapshot | None:
    """Put the exercise worker's snapshot (calckit's exercise runner alone, see the module's docstring) into `out_dir`,
    from the cache or made now; None without one. `book`'s package is named only for the check that it is not in it.
    """
    pyodide_dir = node_modules / "pyodide"
    snapshot = Snapshot(
        name=f"exercise-snapshot-{exercise_snapshot_key(pyodide_dir, calckit_wheel.name)}.bin",
        made_for=f"{pyodide_version(pyodide_dir)} {calckit_wheel.name}",
    )
    return _provide(
        node_modules,
        out_dir,
        snapshot,
        glob=EXERCISE_SNAPSHOT_GLOB,
        shelf=EXERCISE_SHELF,
        create=create,
        make=lambda node, made: _make_exercise(node, pyodide_dir, calckit_wheel, made),
        check=([EXERCISE], [book.package, str(calckit_wheel)]),
        what="the exercises' memory snapshot",
    )


def _make_exercise(node: str, pyodide_dir: Path, calckit_wheel: Path, target: Path) -> tuple[int, int] | None:
    started = time.monotonic()
    command = [node, str(SCRIPT), EXERCISE, str(pyodide_dir), str(target), str(calckit_wheel)]
    try:
        result = _run_node(command, TIMEOUT)  # it runs no calculator: only the boot has a limit, TIMEOUT
    except OSError as error:
        result = str(error)
    if isinstance(result, str):
        detail = f"Node took over {TIMEOUT} s" if result == "the boot" else result
    elif result.returncode != 0 or not target.is_file():
        detail = (result.stderr.strip().splitlines() or [f"node exited with {result.returncode}"])[-1][:LIMIT]
    else:
        detail = ""
    if detail or isinstance(result, str):
        log.warning(
            f"calculators: could not make the exercises' memory snapshot ({detail}); readers' exercise code will "
            "wait for a plain boot of Python"
        )
        return None
    return _made(result.stdout, started, "calckit's exercise runner")


def _made(stdout: str, started: float, holding: str) -> tuple[int, int]:
    """The sizes snapshot.mjs printed for the snapshot it made, raw and gzipped, said in the build's log."""
    sizes = json.loads(stdout)
    log.info(
        f"calculators: made a memory snapshot of Python with {holding} imported in "
        f"{time.monotonic() - started:.1f} s ({sizes['raw'] / 1e6:.0f} MB, {sizes['gzipped'] / 1e6:.1f} MB gzipped)"
    )
    return int(sizes["raw"]), int(sizes["gzipped"])


def _provide(
    node_modules: Path,
    out_dir: Path,
    snapshot: Snapshot,
    *,
    glob: str,
    shelf: str,
    create: bool,
    make: Callable[[str, Path], tuple[int, int] | None],
    check: tuple[list[str], list[str]],
    what: str,
    hint: str = "",
) -> Snapshot | None:
    """`snapshot` into `out_dir` (and no other of `glob`), from the cache's `shelf` or made (`make`) and checked now
    (`check`: snapshot_check.mjs's flags, and its arguments after the snapshot's path)."""
    pyodide_dir = node_modules / "pyodide"
    name = snapshot.name
    target = out_dir / name
    for stale in out_dir.glob(glob):
        if stale != target:
            stale.unlink()

    cache = _cache_dir(node_modules, shelf)
    cached = cache / name if cache else None
    if cached and cached.is_file():
        os.utime(cached)
        if not (target.is_file() and target.stat().st_size == cached.stat().st_size):
            shutil.copyfile(cached, target)
        copied(cached, target, node_modules / KEPT_DIGESTS, touched=True)
        return snapshot
    if not create:
        log.info(f"calculators: no cached copy of {what} for these wheels: Python will boot plainly")
        return None
    if _build_failing():
        return None  # strict mode is about to abort the build: not worth seconds of Node
    node = shutil.which("node")
    if node is None:
        log.error(
            "calculators: Node.js not found, so no memory snapshot can be made (the plugin's option 'snapshot' is on): "
            f"install Node.js 22 or 24, or set 'snapshot: false' to ship a plain boot of Python{_PLAIN_BOOT}"
        )
        return None

    with tempfile.TemporaryDirectory(prefix="calculators-snapshot-") as scratch:
        made = Path(scratch) / name
        sizes = make(node, made)
        if sizes is None:
            return None
        reason = _restore_problem(node, pyodide_dir, made, *check)
        if reason:
            log.error(
                f"calculators: {what} this build made ({sizes[0] / 1e6:.0f} MB) cannot be restored: "
                f"{reason} (restored under Node with the pinned Pyodide, as the reader's browser restores it). Every "
                f"reader would start Python without it{hint}. Set 'snapshot: false' to ship a plain boot of "
                f"Python{_PLAIN_BOOT}"
            )
            return None
        if cache and cached:
            partial = cache / f".{name}.{os.getpid()}.partial"  # builds running at once each write their own
            shutil.copyfile(made, partial)
            partial.replace(cached)
            _prune(cache, cached, glob)
        shutil.copyfile(made, target)
    if cache is None:
        log.info(
            f"calculators: {node_modules / NODE_CACHE / shelf} is not writable, so the snapshot will be made again "
            "next build"
        )
    return Snapshot(name=name, made_for=snapshot.made_for, raw=sizes[0], gzipped=sizes[1])
