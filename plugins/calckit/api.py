"""The boundary between the package and its callers: the build's pre-render and the browser's worker.

`run` takes inputs as an author wrote them or a reader typed them and returns plain JSON-ready data, the same in
CPython and in Pyodide, so both sides show identical text.
"""

from __future__ import annotations

import json
import traceback
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from . import book as books
from .answers import function_by_key
from .book import Book
from .contracts import DrawnCases, FailureData, RunReply, VariantData
from .exercise import cases_for_check
from .exercise_functions import cases_for_function
from .quiz_checks import quiz_variant as _quiz_variant
from .running import OutputError, RaisedElsewhere, TimeLimitExceeded
from .spec import Value

__all__ = ["FUNCTIONS", "call_json", "describe_failure", "exercise_cases", "inputs_text", "quiz_variant", "run"]


def run(name: str, inputs: Mapping[str, object], book: Book | None = None) -> RunReply:
    """{ok: True, outputs, summary, chart} for good inputs; {ok: False, errors} listing every bad field; and
    {ok: False, errors: [], failure} when the calculator itself raised for inputs it had accepted (a defect in its
    code, said with the cause and its place rather than as a traceback).

    `book` is the book whose calculator `name` is; the worker, which serves one book, leaves it to its entry point's.
    """
    book = book or books.current()
    calculator = book.calculator(name)
    values, errors = calculator.check(inputs)
    if errors:
        return {"ok": False, "calculator": name, "errors": [error.as_dict() for error in errors]}
    try:
        result = calculator.evaluate(values)
    except Exception as error:  # the calculator's own defect: reported, so that the caller keeps going
        failure = describe_failure(book, name, values, error)
        return {"ok": False, "calculator": name, "errors": [], "failure": failure}
    return {
        "ok": True,
        "calculator": name,
        "inputs": values,
        "outputs": [
            {
                "key": out.key,
                "label": out.label,
                "value": result.values[out.key],
                "text": out.text(result.values[out.key]),
                "note": result.notes.get(out.key, ""),
            }
            for out in calculator.outputs
        ],
        "summary": result.summary,
        "chart": result.chart,
        "table": result.table.as_dict() if result.table else None,
    }


def describe_failure(book: Book, name: str, values: Mapping[str, Value], error: Exception) -> FailureData:
    """What a calculator that raised tells its readers and authors: the exception, and where in the book's package.

    `message` reads "calculator 'x' failed for these inputs (a=1, b=0): ZeroDivisionError: float division by zero
    (calculators/x.py:22)"; `error` is the exception alone, for a reader.
    """
    shown = inputs_text(values)
    # From another process the place comes with the error: its traceback does not cross processes.
    where = error.where if isinstance(error, TimeLimitExceeded | RaisedElsewhere) else _place(book, name, error)
    place = f" ({where})" if where else ""
    if isinstance(error, TimeLimitExceeded):
        cause = str(error)
        message = f"calculator '{name}' did not finish within {error.limit:g} s for these inputs ({shown}){place}"
    elif isinstance(error, OutputError):
        cause = str(error)
        message = f"calculator '{name}' {error} for these inputs ({shown}){place}"
    else:
        cause = error.cause if isinstance(error, RaisedElsewhere) else _cause(error)
        message = f"calculator '{name}' failed for these inputs ({shown}): {cause}{place}"
    return {"error": cause, "where": where, "message": message}


def _cause(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__


def _place(book: Book, name: str, error: BaseException) -> str:
    """`calculators/x.py:22`: the innermost line of the book's package (or calckit) that `error` went through."""
    package = book.directory
    frames = [
        frame
        for frame in traceback.extract_tb(error.__traceback__)
        if _within(frame.filename, (package, _OWN)) and Path(frame.filename) != _OWN / "stand_ins.py"
    ]  # a stand-in for a module the browser lacks raised: the place is the book's line that used it
    places = [(Path(frame.filename), frame.lineno) for frame in frames]
    if isinstance(error, OutputError) or (places and places[-1][0] in (_OWN / "spec.py", _OWN / "running.py")):
        # The spec refused what compute returned (an output missing, a NaN): the fault is in the compute function,
        # when that is the book's own.
        code = getattr(book.calculator(name).compute, "__code__", None)
        ours = code is not None and _within(code.co_filename, (package,))
        places = [(Path(code.co_filename), code.co_firstlineno)] if code is not None and ours else []
    return f"{_shown_path(places[-1][0], package)}:{places[-1][1]}" if places else ""


_OWN = Path(__file__).parent


def _within(filename: str, folders: tuple[Path, ...]) -> bool:
    return any(Path(filename).is_relative_to(folder) for folder in folders)


def _shown_path(path: Path, package: Path) -> str:
    """`calculators/x.py`: the package's folder and the file in it, as a contributor finds it."""
    for folder in (package, _OWN):
        if path.is_relative_to(folder):
            return f"{folder.name}/{path.relative_to(folder).as_posix()}"
    return path.name


def inputs_text(values: Mapping[str, Value]) -> str:
    """Inputs as a message quotes them: `chip=h100-sxm, intensity=13`."""
    return ", ".join(f"{key}={_shown(value)}" for key, value in values.items())


def _shown(value: Value) -> str:
    if isinstance(value, tuple):
        return "[" + ", ".join(value) + "]"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def quiz_variant(question: Mapping[str, object], seed: int) -> VariantData:
    """A "new numbers" variant of a numeric question (its `source()`), for the book the worker serves."""
    return _quiz_variant(question, seed, books.current().calculators)


def exercise_cases(seed: str, **draw: Any) -> DrawnCases:
    """An exercise's cases for one Check and their expected values (`Exercise.drawing_data` and a seed the page
    picks), for the book the worker serves: from a calculator's output, or from a function of the book's package
    (found by its `function_key`), which this side calls, never the reader's code."""
    book = books.current()
    if "function_key" in draw:
        key = draw.pop("function_key")
        return cases_for_function(function_by_key(key, book.package), **draw, seed=seed, package=book.package)
    return cases_for_check(**draw, seed=seed, calculators=book.calculators)


# What the browser worker may call, by name: each takes keyword arguments that are plain JSON data.
FUNCTIONS: dict[str, Callable[..., Any]] = {
    "run": run,
    "quiz_variant": quiz_variant,
    # An exercise's cases and their expected values, for a Check. The reader's code never runs in this worker: it
    # runs in an interpreter of its own (exercise_run.py, exercise_worker.js), which is never given these values.
    "exercise_cases": exercise_cases,
}


def call_json(function: str, arguments_json: str) -> str:
    """Call one of FUNCTIONS with JSON keyword arguments and return its JSON result (the worker's only entry)."""
    if function not in FUNCTIONS:
        raise KeyError(f"unknown function '{function}' (expected one of: {', '.join(sorted(FUNCTIONS))})")
    result = FUNCTIONS[function](**json.loads(arguments_json))
    return json.dumps(result, allow_nan=False, ensure_ascii=False)
