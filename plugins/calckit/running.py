"""Where a book's compute functions run, and what their results must be.

In the browser, in tests and in `python -c`, a calculator's compute runs right here, in this interpreter. The build
runs it in a process of its own with a time limit (`mkdocs_calculators/sandbox/compute_process.py`, an `Executor`
that the build makes active while it works on its book: `calckit.session.Session`), because a compute that never
returns would otherwise hang the build or `mkdocs serve`, and Python cannot interrupt one that is stuck in C
(`10**10**8`, `time.sleep(10**6)`): only ending its process stops it.

Whatever ran it, a result is checked against the calculator's declaration (`calckit.spec.check_result`): a
`Result`, every output given, a finite real number where a number is declared (not a bool, None, text or a list),
text where text is. Where a number has no figure for some inputs ("Never", "—"), a text may stand in for it, with a
note beside it that says why (`Result.notes`). A value that breaks it is an `OutputError` naming the output, rather
than a TypeError in the formatting code far from the author's line. This module imports no other of calckit's (its
types aside), so that spec, which runs computes through it, and the exercise checks can both depend on it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from .contracts import CheckResult  # types alone: this module imports none of calckit's at run time

__all__ = [
    "CodeFailure",
    "Computes",
    "Executor",
    "OutputError",
    "RaisedElsewhere",
    "TimeLimitExceeded",
    "active_executor",
    "call_function",
    "check_code",
    "compute",
    "running_in",
]


class Computes(Protocol):
    """A calculator, as far as running it goes (calckit.spec.Calculator; named so, this module imports none)."""

    @property
    def name(self) -> str: ...

    def compute(self, values: Mapping[str, Any], /) -> object: ...


Runner = Callable[[Any, "Mapping[str, Any]"], object]  # given the calculator that `compute` was given


class CodeFailure(Exception):
    """The book's code failed for a calculator's inputs: which calculator and inputs, once `evaluate` knows them."""

    calculator: str | None = None
    values: dict[str, Any] | None = None


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


CodeRunner = Callable[[str, "Mapping[str, Any]", "str | None"], "CheckResult"]
FunctionRunner = Callable[[str, "Mapping[str, Any]"], object]  # a function of the book by its dotted name, keywords
# A runner of one package: a function of that package runs there, any other through `here`.
RoutedFunctionRunner = Callable[[str, "Mapping[str, Any]", FunctionRunner], object]


@dataclass(frozen=True)
class Executor:
    """Where one book's code runs, other than this interpreter (the build's compute process, with a time limit):
    every compute of its calculators through `compute(calculator, values)`, every exercise solution's check through
    `check_code(code, data, package)`, and every call of its functions that check an exercise through
    `call_function(path, arguments, here)`. A host makes it the active one for the work of one book, in one thread,
    with `running_in` (calckit.session.Session.active): nothing outlives that work, and no other book's code, nor a
    test's, is sent there."""

    compute: Runner
    check_code: CodeRunner
    call_function: RoutedFunctionRunner


_active: ContextVar[Executor | None] = ContextVar("calckit_executor", default=None)


@contextmanager
def running_in(executor: Executor | None) -> Iterator[None]:
    """Run the book's code through `executor` (None: in this interpreter) inside the `with` block, in this thread."""
    token = _active.set(executor)
    try:
        yield
    finally:
        _active.reset(token)


def active_executor() -> Executor | None:
    """The executor the code here runs through now; None when the book's code runs in this interpreter."""
    return _active.get()


def check_code(code: str, data: Mapping[str, Any], package: str | None, here: CodeRunner) -> CheckResult:
    """An exercise's solution checked on its cases, the book's `package` kept from it, wherever the book's code runs:
    `here` (calckit.exercise_run.check_code) unless an executor is active."""
    executor = _active.get()
    return (here if executor is None else executor.check_code)(code, data, package)


def call_function(path: str, arguments: Mapping[str, Any], here: FunctionRunner) -> object:
    """What the book's function `path` returns for these keyword arguments, wherever the book's code runs: `here`
    (calckit.answers.call_function for the book in use) unless an executor is active, which runs its own package's
    functions and hands any other back to `here`."""
    executor = _active.get()
    return here(path, arguments) if executor is None else executor.call_function(path, arguments, here)


def compute(calculator: Computes, values: Mapping[str, Any]) -> object:
    """What the calculator's compute function returns for `values`, wherever computes run."""
    executor = _active.get()
    return calculator.compute(values) if executor is None else executor.compute(calculator, values)
