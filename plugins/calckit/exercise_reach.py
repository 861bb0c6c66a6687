"""Which lines and branches of an exercise's solution its cases run: measured at build with coverage.py, so that an
exercise whose cases never reach a branch of its own solution (no case whose answer is None, say) stops the build,
rather than passing a reader's code that lacks that branch.

Coverage.py traces code by its file name, so the solution is compiled under the name of a file in the temporary
folder (`solution_file`) that is written only once the cases have run, for coverage.py to read its source, and removed
after: a run that the build ends at its time limit leaves nothing behind. A conditional expression on one line
(`x if c else y`) is one line to coverage.py, with no branches: write such a choice as an `if` statement in a
solution for it to be checked. A line marked `# pragma: no cover` is not asked for. Only the build imports this
module (coverage.py is not in the browser).
"""

from __future__ import annotations

import itertools
import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from .contracts import UnreachedData

__all__ = ["PREFIX", "is_solution_file", "measured", "solution_file"]

PREFIX = "calckit-exercise-"  # how the solution's file is named in the temporary folder
Ran = TypeVar("Ran")
_numbers = itertools.count()


def solution_file() -> str:
    """A name, not yet a file, for one run of a solution: unique in this process and among processes."""
    return os.path.join(tempfile.gettempdir(), f"{PREFIX}{os.getpid()}-{next(_numbers)}.py")


def is_solution_file(name: str) -> bool:
    """Whether a traceback's file name is a solution's, as `solution_file` names them."""
    return Path(name).name.startswith(PREFIX)


def measured(code: str, run: Callable[[str], Ran]) -> tuple[Ran, list[UnreachedData]]:
    """What `run(file name)` returns, `run` compiling `code` under that file name and calling it, and what of `code`
    it did not run: each line no call ran (the first of each run of such lines) and each branch no call took whose
    destination did run, in the order of the code."""
    import coverage  # the build's alone

    path = solution_file()
    measure = coverage.Coverage(data_file=None, branch=True, include=[path], config_file=False)
    measure.start()
    try:
        ran = run(path)
    finally:
        measure.stop()
    report = f"{path}.json"
    try:
        Path(path).write_text(code, encoding="utf-8")
        _, statements, _, missing, _ = measure.analysis2(path)
        measure.json_report(outfile=report)
        files: dict[str, dict[str, Any]] = json.loads(Path(report).read_text(encoding="utf-8"))["files"]
        missing_branches: list[list[int]] = [arc for file in files.values() for arc in file["missing_branches"]]
    finally:
        Path(path).unlink(missing_ok=True)
        Path(report).unlink(missing_ok=True)
    return ran, _unreached(statements, set(missing), missing_branches)


def _unreached(statements: list[int], missing: set[int], branches: list[list[int]]) -> list[UnreachedData]:
    lines = [
        line
        for before, line in zip([0, *statements], statements, strict=False)
        if line in missing and before not in missing
    ]
    found: list[UnreachedData] = [{"line": line, "to": None} for line in lines]
    found += [{"line": start, "to": max(end, 0)} for start, end in branches if {start, end}.isdisjoint(missing)]
    return sorted(found, key=lambda part: (part["line"], part["to"] is not None, part["to"] or 0))
