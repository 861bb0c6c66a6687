"""Running a reader's Python for an exercise: in its own namespace, its output captured, its errors located.

The browser's worker calls `run_code` (the Run button) and `check_code` (Check) through `calckit.api`; the build
calls `check_code` on each exercise's solution, so the reader's code and the author's are judged by the same lines.
Everything returned is plain JSON data. Nothing here stops a runaway loop: the page does, by ending the worker.

The reader's code gets a fresh namespace and a copy of the builtins whose `__import__` refuses the modules that reach
outside Python (`js`, `pyodide` and kin: the worker's JavaScript, hence the network) and the book's package
itself (the reference the code is checked against). It is a guard against accidents, not a security boundary: the
boundary is the worker, which has no page to touch.
"""

from __future__ import annotations

import builtins
import contextlib
import math
import traceback
from collections.abc import Callable, Mapping, Sequence
from types import CodeType
from typing import Any

from .units import format_number

__all__ = ["BLOCKED_MODULES", "FILENAME", "OUTPUT_LIMIT", "check_code", "run_code"]

FILENAME = "<exercise>"  # how the reader's code is named in its tracebacks
OUTPUT_LIMIT = 20_000  # characters of printed output kept; the rest is cut, so a print in a loop cannot fill memory
# And calckit and the book's own package (see _blocked): the reference that the code is checked against.
BLOCKED_MODULES = frozenset({"js", "pyodide", "pyodide_js", "_pyodide", "micropip", "calckit"})


class _Output:
    """A text stream that keeps the first OUTPUT_LIMIT characters written to it."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.size = 0
        self.cut = False

    def write(self, text: str) -> int:
        room = OUTPUT_LIMIT - self.size
        if len(text) > room:
            self.cut = True
            text = text[: max(room, 0)]
        self.parts.append(text)
        self.size += len(text)
        return len(text)

    def flush(self) -> None:
        pass

    def text(self) -> str:
        kept = "".join(self.parts)
        return kept + f"\n[output cut after {OUTPUT_LIMIT:,} characters]" if self.cut else kept


def _guarded_import(
    name: str,
    globals: Mapping[str, object] | None = None,
    locals: Mapping[str, object] | None = None,
    fromlist: Sequence[str] = (),
    level: int = 0,
) -> Any:
    if level == 0 and _blocked(name.split(".")[0]):
        raise ImportError(f"exercises cannot import '{name}': the code runs on its own, away from the page")
    return builtins.__import__(name, globals, locals, fromlist, level)


def _blocked(top: str) -> bool:
    from . import book

    return top in BLOCKED_MODULES or (book.current().package == top if book.in_use() else False)


def _namespace() -> dict[str, Any]:
    own_builtins = dict(vars(builtins))
    own_builtins["__import__"] = _guarded_import
    own_builtins["input"] = _no_input
    return {"__name__": "__exercise__", "__builtins__": own_builtins}


def _no_input(prompt: object = "") -> str:
    raise EOFError("input() has nothing to read here: give the function its values as arguments")


def _error(error: BaseException) -> dict[str, Any]:
    """The reader-facing description of an exception: its type, message, and the line of the reader's code."""
    line: int | None = None
    if isinstance(error, SyntaxError) and error.filename == FILENAME:
        line = error.lineno
        message = error.msg
    else:
        message = str(error)
        frames = [frame for frame in traceback.extract_tb(error.__traceback__) if frame.filename == FILENAME]
        if frames:
            line = frames[-1].lineno
    if isinstance(error, KeyboardInterrupt):
        message = "the code was stopped"
    return {"type": type(error).__name__, "message": message, "line": line}


def _compile(code: str) -> CodeType | dict[str, Any]:
    try:
        return compile(code, FILENAME, "exec")
    except (SyntaxError, ValueError) as error:  # ValueError: a NUL character in the source
        return _error(error)


def _execute(code: str, output: _Output) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The namespace the code left, and its error (None if it ran to the end)."""
    namespace = _namespace()
    compiled = _compile(code)
    if isinstance(compiled, dict):
        return namespace, compiled
    with contextlib.redirect_stdout(output), contextlib.redirect_stderr(output):
        try:
            exec(compiled, namespace)
        except BaseException as error:  # the reader's code may raise anything, SystemExit included
            return namespace, _error(error)
    return namespace, None


def run_code(code: str) -> dict[str, Any]:
    """Run the code once: {ok, stdout, error}, the error being {type, message, line} or None."""
    output = _Output()
    _, error = _execute(code, output)
    return {"ok": error is None, "stdout": output.text(), "error": error}


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 200 else text[:197] + "..."


def _verdict(got: object, expected: float | None, tolerance: Mapping[str, Any]) -> str:
    """'' when `got` answers the case; otherwise why not."""
    if expected is None:
        return "" if got is None else "expected None: there is no such number for these inputs"
    if isinstance(got, bool) or not isinstance(got, int | float):
        return f"expected a number, got {type(got).__name__}"
    if not math.isfinite(got):
        return "expected a finite number"
    amount = float(tolerance["amount"])
    limit = amount / 100 * abs(expected) if tolerance["relative"] else amount
    if abs(got - expected) <= limit + 1e-12 * max(abs(got), abs(expected), 1e-300):
        return ""
    if not expected:
        return "expected 0"
    ratio = got / expected
    if ratio >= 2 or 0 < ratio <= 0.5:  # a unit or a factor gone astray, rather than a slip in the formula
        return f"{format_number(ratio, digits=3)} times the expected value"
    return f"{100 * abs(got - expected) / abs(expected):.3g}% away from the expected value"


def check_code(code: str, exercise: Mapping[str, Any]) -> dict[str, Any]:
    """Run the code, then call its function on each of the exercise's cases, in order, up to the first that fails.

    `exercise` is the checking data the build writes into the page (`Exercise.checking_data`): the function's name
    and parameters, which of them are real numbers (`floats`, the others being whole), the cases ({inputs, expected})
    and the tolerance. Returns {ok, passed, total, stdout, error,
    failure}: `error` when the code itself does not run or define the function; `failure` for the first failing case,
    {index, inputs, expected, got, reason, error}.
    """
    output = _Output()
    cases: list[Mapping[str, Any]] = list(exercise["cases"])
    name: str = exercise["function"]
    parameters: list[str] = list(exercise["parameters"])
    result: dict[str, Any] = {"ok": False, "passed": 0, "total": len(cases), "error": None, "failure": None}
    namespace, error = _execute(code, output)
    function = namespace.get(name)
    if error is None and not callable(function):
        error = {"type": "NameError", "message": f"the code does not define a function '{name}'", "line": None}
    if error is not None:
        return {**result, "stdout": output.text(), "error": error}
    call: Callable[..., object] = function  # type: ignore[assignment]
    # JSON through JavaScript turns 197.0 into 197: the parameters that are real numbers are made floats again.
    floats = set(exercise.get("floats", ()))
    for index, case in enumerate(cases):
        inputs = {key: float(value) if key in floats else value for key, value in case["inputs"].items()}
        arguments = [inputs[parameter] for parameter in parameters]
        failure: dict[str, Any] = {
            "index": index,
            "inputs": inputs,
            "expected": None if case["expected"] is None else float(case["expected"]),
            "got": None,
            "reason": "",
            "error": None,
        }
        with contextlib.redirect_stdout(output), contextlib.redirect_stderr(output):
            try:
                got = call(*arguments)
            except BaseException as raised:  # whatever the reader's function raises fails this case
                failure.update(reason="raised an error", error=_error(raised))
                return {**result, "stdout": output.text(), "failure": failure}
        reason = _verdict(got, case["expected"], exercise["tolerance"])
        if reason:
            failure.update(got=_shown(got), reason=reason)
            return {**result, "stdout": output.text(), "failure": failure}
        result["passed"] = index + 1
    return {**result, "ok": True, "stdout": output.text()}
