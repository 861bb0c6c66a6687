"""What a reader's answer is checked against, as an author names it: a calculator's output, or a function of the
book's package.

`calculator: roofline` and `output: attainable` name a calculator's output (a quiz's numeric answer, an exercise's
check: `calckit.reading.Reader.calculator_output` reads them for both). `function: calculators.matmul.critical_batch`
names a function of the book's package (an exercise's check, `calckit.exercise_functions`), called with keyword
arguments: the exercise's parameters and the arguments the author holds. This module finds that function and turns
what it returns into an expected value, the same at build and in the calculators' worker, the trusted side, which
computes the expected values of each Check: the reader's code runs elsewhere and never sees them. A name outside the
book's package is refused, there too.

The page does not carry the function's name: it carries `function_key(path)`, a digest, which the calculators' worker
finds again among the package's functions (`function_by_key`). The page then tells a reader nothing of where the
answer is; the package's wheel, which the browser downloads for the calculators, still holds the function's source.
"""

from __future__ import annotations

import hashlib
import importlib
import inspect
import math
import pkgutil
import re
import traceback
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

from .running import RaisedElsewhere, TimeLimitExceeded

__all__ = [
    "AnswerError",
    "BookFunction",
    "book_function",
    "expected_value",
    "failure_text",
    "function_by_key",
    "function_key",
    "modules_of",
]

_DOTTED = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+$")


class AnswerError(ValueError):
    """An answer named wrongly, or a value that is not one: the message says which, in an author's words."""


@dataclass(frozen=True)
class BookFunction:
    """A function of the book's package, found by its dotted name, and the parameters it takes by keyword."""

    path: str  # 'calculators.matmul.critical_batch'
    call: Callable[..., object] = field(compare=False, repr=False)
    parameters: tuple[str, ...]  # every parameter a keyword can set
    required: tuple[str, ...]  # those without a default
    any_keyword: bool = False  # it takes **keywords: any name is a parameter


def modules_of(package: str) -> list[str]:
    """The modules of the book's package, by dotted name: what a function may be looked for in."""
    module = importlib.import_module(package)
    found = [package]
    for info in pkgutil.walk_packages(getattr(module, "__path__", []), prefix=f"{package}."):
        found.append(info.name)
    return sorted(found)


def function_key(path: str) -> str:
    """What a page carries in place of a book function's dotted name: a digest of it, the same at build and in the
    browser."""
    return "sha256-" + hashlib.sha256(f"calckit exercise function {path}".encode()).hexdigest()[:24]


def function_by_key(key: object, package: str) -> str:
    """The dotted name of the public function of `package` whose `function_key` is `key`; AnswerError if none is."""
    for module_name in modules_of(package):
        for name in _public_functions(importlib.import_module(module_name)):
            if function_key(f"{module_name}.{name}") == key:
                return f"{module_name}.{name}"
    raise AnswerError(f"no function of the book's package '{package}' has the key {key!r}")


def book_function(path: object, package: str) -> BookFunction:
    """The function of the book's package `package` that `path` names ('calculators.matmul.critical_batch');
    AnswerError saying what is wrong otherwise: not a dotted name, outside the package, no such module or function."""
    if not isinstance(path, str) or not _DOTTED.match(path.strip()):
        raise AnswerError(
            f"'function' must be a function of the book's package, written as '{package}.module.function' "
            f"(got {path!r})"
        )
    path = path.strip()
    module_name, _, name = path.rpartition(".")
    if module_name != package and not module_name.startswith(f"{package}."):
        raise AnswerError(
            f"function '{path}' is outside the book's package '{package}' (name one of its functions, "
            f"such as '{package}.module.function')"
        )
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name is not None and (module_name == error.name or module_name.startswith(f"{error.name}.")):
            known = ", ".join(modules_of(package))
            raise AnswerError(f"the book's package has no module '{module_name}' (expected one of: {known})") from None
        raise AnswerError(f"importing module '{module_name}' failed: {_cause(error)}") from None
    target = getattr(module, name, None)
    functions = sorted(_public_functions(module))
    expected = f" (expected one of: {', '.join(functions)})" if functions else ""
    if target is None:
        raise AnswerError(f"module '{module_name}' has no function '{name}'{expected}")
    if not inspect.isfunction(target):
        raise AnswerError(f"'{path}' is a {type(target).__name__}, not a function{expected}")
    signature = inspect.signature(target)
    keywords = [
        each
        for each in signature.parameters.values()
        if each.kind in (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    ]
    return BookFunction(
        path,
        target,
        tuple(each.name for each in keywords),
        tuple(each.name for each in keywords if each.default is inspect.Parameter.empty),
        any(each.kind is inspect.Parameter.VAR_KEYWORD for each in signature.parameters.values()),
    )


def _public_functions(module: ModuleType) -> list[str]:
    """The names of the functions that `module` defines (not those it imports), but for private ones."""
    return [
        key
        for key, value in vars(module).items()
        if inspect.isfunction(value) and value.__module__ == module.__name__ and not key.startswith("_")
    ]


def call_function(path: str, arguments: Mapping[str, object], package: str) -> object:
    """What the function that `path` names returns for these keyword arguments (calckit.running's `call` here)."""
    return book_function(path, package).call(**arguments)


def expected_value(value: object) -> float | None:
    """What a book's function returned, as an expected value: a finite number, or None (there is no such number
    for these arguments, as a calculator's text output says); AnswerError for anything else."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        shown = repr(value)
        shown = shown if len(shown) <= 60 else shown[:57] + "..."
        raise AnswerError(f"returned {shown} (a {type(value).__name__}), not a number")
    try:
        number = float(value)
    except OverflowError:
        number = math.inf
    if not math.isfinite(number):
        raise AnswerError(f"returned {value!r}, not a finite number")
    return number


def failure_text(error: BaseException, directory: Path | None) -> str:
    """A book function's failure as an author reads it: `raised ZeroDivisionError: division by zero
    (calculators/speculative.py:34)`, or `did not finish within 5 s (...)`."""
    if isinstance(error, TimeLimitExceeded):
        return f"did not finish within {error.limit:g} s" + (f" ({error.where})" if error.where else "")
    if isinstance(error, RaisedElsewhere):
        return f"raised {error.cause}" + (f" ({error.where})" if error.where else "")
    where = ""
    if directory is not None:
        for frame in reversed(traceback.extract_tb(error.__traceback__)):
            if Path(frame.filename).is_relative_to(directory):
                where = f" ({directory.name}/{Path(frame.filename).relative_to(directory).as_posix()}:{frame.lineno})"
                break
    return f"raised {_cause(error)}{where}"


def _cause(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
