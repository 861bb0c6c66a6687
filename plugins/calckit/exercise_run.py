"""Running a reader's Python for an exercise: in its own namespace, its output captured, its errors located.

In the browser, `exercise_worker.js` calls `run_code` (the Run button) and `run_cases` (Check) in an interpreter of
its own, started for that one run and ended after it: never the one that computes the calculators, and never given
the expected values. The page grades what comes back with `grading.js`. The build calls `check_code` on each
exercise's solution, which runs `run_cases` and grades with `calckit.grading`, the same rule. Everything returned is
plain JSON data. Nothing here stops a runaway loop: the page does, by ending the worker.

The reader's code gets a fresh namespace and a copy of the builtins whose `__import__` refuses the modules that reach
outside Python (`js`, `pyodide` and kin) and calckit and the book's package. It is a guard against accidents, not a
security boundary: the boundary is the exercise worker, whose JavaScript globals are taken away before any reader
code runs (no page, storage, caches or network in reach), and which holds nothing worth forging.
"""

from __future__ import annotations

import builtins
import contextlib
import json
import traceback
from collections.abc import Callable, Mapping, Sequence
from types import CodeType
from typing import Any

from .contracts import CaseFailureData, CheckResult, CodeError, RaisedData, Returned, RunCasesResult, RunCodeResult
from .exercise_reach import measured
from .grading import Tolerance, returned, verdict

__all__ = [
    "BLOCKED_MODULES",
    "FILENAME",
    "MESSAGE_LIMIT",
    "OUTPUT_LIMIT",
    "call_json",
    "check_code",
    "run_cases",
    "run_code",
]

FILENAME = "<exercise>"  # how the reader's code is named in its tracebacks
OUTPUT_LIMIT = 20_000  # characters of printed output kept; the rest is cut, so a print in a loop cannot fill memory
MESSAGE_LIMIT = 1_000  # characters of an error's message (and 100 of its type's name) that reach the page
# And the book's own package, where there is one (at build: `package`): the reference the code is checked against.
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


def _guard(package: str | None) -> Callable[..., Any]:
    """An `__import__` that refuses BLOCKED_MODULES and the book's `package` (None: no book to keep away)."""
    blocked = BLOCKED_MODULES | ({package} if package else set())

    def guarded_import(
        name: str,
        globals: Mapping[str, object] | None = None,
        locals: Mapping[str, object] | None = None,
        fromlist: Sequence[str] = (),
        level: int = 0,
    ) -> Any:
        if level == 0 and name.split(".")[0] in blocked:
            raise ImportError(f"exercises cannot import '{name}': the code runs on its own, away from the page")
        return builtins.__import__(name, globals, locals, fromlist, level)

    return guarded_import


def _namespace(package: str | None) -> dict[str, Any]:
    own_builtins = dict(vars(builtins))
    own_builtins["__import__"] = _guard(package)
    own_builtins["input"] = _no_input
    return {"__name__": "__exercise__", "__builtins__": own_builtins}


def _no_input(prompt: object = "") -> str:
    raise EOFError("input() has nothing to read here: give the function its values as arguments")


def _error(error: BaseException, filename: str = FILENAME) -> CodeError:
    """The reader-facing description of an exception: its type, message, and the line of the reader's code (compiled
    as `filename`)."""
    line: int | None = None
    if isinstance(error, SyntaxError) and error.filename == filename:
        line = error.lineno
        message = error.msg
    else:
        message = str(error)
        frames = [frame for frame in traceback.extract_tb(error.__traceback__) if frame.filename == filename]
        if frames:
            line = frames[-1].lineno
    if isinstance(error, KeyboardInterrupt):
        message = "the code was stopped"
    # The reader's own exception can carry any text (raise ValueError('x' * 10**8)): the page shows only a readable
    # part, so that one Run cannot send the page a message too long to lay out.
    return {"type": _cut(type(error).__name__, 100), "message": _cut(message, MESSAGE_LIMIT), "line": line}


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _compile(code: str, filename: str) -> CodeType | CodeError:
    try:
        return compile(code, filename, "exec")
    except (SyntaxError, ValueError) as error:  # ValueError: a NUL character in the source
        return _error(error, filename)


def _execute(
    code: str, output: _Output, package: str | None, filename: str = FILENAME
) -> tuple[dict[str, Any], CodeError | None]:
    """The namespace the code left, and its error (None if it ran to the end)."""
    namespace = _namespace(package)
    compiled = _compile(code, filename)
    if isinstance(compiled, dict):
        return namespace, compiled
    with contextlib.redirect_stdout(output), contextlib.redirect_stderr(output):
        try:
            exec(compiled, namespace)
        except BaseException as error:  # the reader's code may raise anything, SystemExit included
            return namespace, _error(error, filename)
    return namespace, None


def run_code(code: str) -> RunCodeResult:
    """Run the code once: {ok, stdout, error}, the error being {type, message, line} or None."""
    output = _Output()
    _, error = _execute(code, output, None)
    return {"ok": error is None, "stdout": output.text(), "error": error}


def run_cases(
    code: str,
    function: str,
    parameters: Sequence[str],
    floats: Sequence[str],
    cases: Sequence[Mapping[str, Any]],
    package: str | None = None,
) -> RunCasesResult:
    """Run the code, then call its function on each case's inputs, in order, up to the first that raises.

    This is all that a reader's code is given: the inputs, never the expected values (they stay on the trusted side,
    which grades what comes back with `calckit.grading`). `floats` names the parameters that are real numbers (JSON
    through JavaScript turns 197.0 into 197). Returns {ok, stdout, error, results}: `error` when the code itself does
    not run or define the function; `results` one per case run, each `grading.returned`'s form of the value, or
    {"kind": "raised", "error": ...}.
    """
    return _run_cases(code, function, parameters, floats, cases, package, FILENAME)


def _run_cases(
    code: str,
    function: str,
    parameters: Sequence[str],
    floats: Sequence[str],
    cases: Sequence[Mapping[str, Any]],
    package: str | None,
    filename: str,
) -> RunCasesResult:
    """`run_cases`, the code compiled as `filename`."""
    output = _Output()
    namespace, error = _execute(code, output, package, filename)
    target = namespace.get(function)
    if error is None and not callable(target):
        error = {"type": "NameError", "message": f"the code does not define a function '{function}'", "line": None}
    if error is not None:
        return {"ok": False, "stdout": output.text(), "error": error, "results": []}
    call: Callable[..., object] = target  # type: ignore[assignment]
    real = set(floats)
    results: list[Returned | RaisedData] = []
    for case in cases:
        arguments = [float(case[name]) if name in real else case[name] for name in parameters]
        with contextlib.redirect_stdout(output), contextlib.redirect_stderr(output):
            try:
                results.append(returned(call(*arguments)))
            except BaseException as raised:  # whatever the reader's function raises fails this case
                results.append({"kind": "raised", "error": _error(raised, filename)})
                break
    return {"ok": True, "stdout": output.text(), "error": None, "results": results}


def check_code(code: str, exercise: Mapping[str, Any], package: str | None = None) -> CheckResult:
    """Run the code on the exercise's cases ({inputs, expected}) and grade it: what the build does to the solution.

    `exercise` is {function, parameters, floats, cases, tolerance} (see `Exercise.checking_data`); `package`, the
    book's import name, is kept from the code as the reader's page keeps it (not installed there). Returns {ok,
    passed, total, stdout, error, failure, unreached}: `failure` for the first failing case, {index, inputs,
    expected, got, reason, error}; `unreached`, once every case passes, the lines and branches of the code that no
    case ran (`exercise_reach`). The browser grades the same way in `exercise.js`, with `grading.js`.
    """
    cases: list[Mapping[str, Any]] = list(exercise["cases"])
    floats = list(exercise.get("floats", ()))
    given = [case["inputs"] for case in cases]
    ran, unreached = measured(
        code,
        lambda filename: _run_cases(
            code, exercise["function"], exercise["parameters"], floats, given, package, filename
        ),
    )
    result: CheckResult = {
        "ok": False,
        "passed": 0,
        "total": len(cases),
        "stdout": ran["stdout"],
        "error": ran["error"],
        "failure": None,
        "unreached": [],
    }
    if ran["error"] is not None:
        return result
    tolerance = Tolerance(**exercise["tolerance"])
    for index, (case, got) in enumerate(zip(cases, ran["results"], strict=False)):
        expected = None if case["expected"] is None else float(case["expected"])
        inputs = {key: float(value) if key in floats else value for key, value in case["inputs"].items()}
        failure: CaseFailureData = {
            "index": index,
            "inputs": inputs,
            "expected": expected,
            "got": None,
            "reason": "",
            "error": None,
        }
        if got["kind"] == "raised":
            failure["reason"], failure["error"] = "raised an error", got["error"]
        elif reason := verdict(got, expected, tolerance):
            failure["got"], failure["reason"] = got["shown"], reason
        else:
            result["passed"] = index + 1
            continue
        return {**result, "failure": failure}
    return {**result, "ok": True, "unreached": unreached}


def call_json(function: str, arguments_json: str) -> str:
    """The exercise worker's only entry: `run_code` ("run") or `run_cases` ("cases") with JSON keyword arguments."""
    functions: dict[str, Callable[..., RunCodeResult | RunCasesResult]] = {"run": run_code, "cases": run_cases}
    return json.dumps(functions[function](**json.loads(arguments_json)), allow_nan=False, ensure_ascii=False)
