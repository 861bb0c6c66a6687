"""Where a book's compute functions run, and what their results must be.

In the browser, in tests and in `python -c`, a calculator's compute runs right here, in this interpreter. The build
runs it in a process of its own with a time limit (`mkdocs_calculators/compute_process.py`, installed through
`use_runner`), because a compute that never returns would otherwise hang the build or `mkdocs serve`, and Python
cannot interrupt one that is stuck in C (`10**10**8`, `time.sleep(10**6)`): only ending its process stops it.

Whatever ran it, a result is checked against the calculator's declaration (`check_result`): a `Result`, every
output given, a finite real number where a number is declared (not a bool, None, text or a list), text where text
is. Where a number has no figure for some inputs ("Never", "—"), a text may stand in for it, with a note beside it
that says why (`Result.notes`). A value that breaks it is an `OutputError` naming the output, rather than a
TypeError in the formatting code far from the author's line.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .spec import Calculator, Result, Value

__all__ = [
    "CodeFailure",
    "OutputError",
    "RaisedElsewhere",
    "TimeLimitExceeded",
    "check_code",
    "check_result",
    "compute",
    "evaluate",
    "use_runner",
]

Runner = Callable[["Calculator", "Mapping[str, Value]"], object]


class CodeFailure(Exception):
    """The book's code failed for a calculator's inputs: which calculator and inputs, once `evaluate` knows them."""

    calculator: str | None = None
    values: dict[str, Value] | None = None


class OutputError(CodeFailure, ValueError):
    """A compute function's result that breaks the calculator's declaration: `output 'amps' is None`."""

    def __init__(self, problem: str, key: str | None = None) -> None:
        self.key = key
        self.problem = problem
        super().__init__(f"output '{key}' {problem}" if key else problem)


class TimeLimitExceeded(CodeFailure):
    """The book's code did not finish within `limit` seconds; `where` is the line it was on (`calculators/x.py:9`)."""

    def __init__(self, limit: float, where: str = "") -> None:
        self.limit = limit
        self.where = where
        super().__init__(f"it did not finish within {limit:g} s")


class RaisedElsewhere(CodeFailure):
    """The book's code raised in another process, whose traceback cannot follow: what it raised and where."""

    def __init__(self, cause: str, where: str) -> None:
        self.cause = cause  # `ZeroDivisionError: float division by zero`
        self.where = where  # `calculators/x.py:22`, or ""
        super().__init__(cause)


CodeRunner = Callable[[str, "Mapping[str, Any]"], "dict[str, Any]"]
_runner: Runner | None = None
_code_runner: CodeRunner | None = None


def use_runner(runner: Runner | None, code_runner: CodeRunner | None = None) -> None:
    """Run every compute through `runner(calculator, values)`, and every exercise solution's check through
    `code_runner(code, data)`, from now on (None: in this interpreter again)."""
    global _runner, _code_runner
    _runner, _code_runner = runner, code_runner


def check_code(code: str, data: Mapping[str, Any]) -> dict[str, Any]:
    """`calckit.exercise_run.check_code`, wherever the book's code runs (an exercise's solution, at build)."""
    from .exercise_run import check_code as here

    return (_code_runner or here)(code, data)


def compute(calculator: Calculator, values: Mapping[str, Value]) -> object:
    """What the calculator's compute function returns for `values`, wherever computes run."""
    return calculator.compute(values) if _runner is None else _runner(calculator, values)


def evaluate(calculator: Calculator, values: Mapping[str, Value]) -> Result:
    """The calculator's checked result for `values`; a CodeFailure says which calculator and inputs it was for."""
    try:
        return check_result(calculator, compute(calculator, values))
    except CodeFailure as failure:
        failure.calculator, failure.values = calculator.name, dict(values)
        raise


def _number_problem(value: object, noted: bool) -> str:
    """'' for a finite real number (or a text with a note); otherwise what is wrong with it, as an author reads it."""
    if isinstance(value, bool):
        return f"is {value}, not a number"
    if isinstance(value, int):
        return ""
    if isinstance(value, float):
        return "" if math.isfinite(value) else f"is {value!r}, not a finite number"
    if value is None:
        return "is None"
    if isinstance(value, str):
        if noted:
            return ""
        text = value if len(value) <= 30 else value[:27] + "..."
        return f"is the text {text!r}, not a number (a text stands for a number only with a note saying why)"
    return f"is a {type(value).__name__}, not a number"


def _text_problem(value: object) -> str:
    if isinstance(value, str) or (isinstance(value, tuple) and all(isinstance(item, str) for item in value)):
        return ""
    return "is None, not text" if value is None else f"is a {type(value).__name__}, not text"


def check_result(calculator: Calculator, result: object) -> Result:
    """`result`, if it is what the calculator declares; OutputError for the first thing that is not."""
    from .spec import Result

    if not isinstance(result, Result):
        raise OutputError(
            f"returned a {type(result).__name__}, not a calckit.spec.Result "
            "(return Result(values, summary) from compute)"
        )
    if not isinstance(result.values, Mapping):
        raise OutputError(
            f"returned values that are a {type(result.values).__name__}, not a mapping of output to value"
        )
    for output in calculator.outputs:
        if output.key not in result.values:
            raise OutputError("is missing", output.key)
        value = result.values[output.key]
        problem = (
            _text_problem(value)
            if output.format == "text"
            else _number_problem(value, bool(result.notes.get(output.key)))
        )
        if problem:
            raise OutputError(problem, output.key)
    for key, value in result.values.items():  # values no output shows: still never a NaN
        if isinstance(value, float) and not math.isfinite(value):
            raise OutputError(f"is {value!r}, not a finite number", key)
    if not isinstance(result.summary, str):
        raise OutputError(f"returned a summary that is a {type(result.summary).__name__}, not text")
    if result.chart is not None and not isinstance(result.chart, dict):
        raise OutputError(f"returned a chart that is a {type(result.chart).__name__}, not a Vega-Lite spec (a dict)")
    return result
