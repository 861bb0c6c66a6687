"""An exercise checked against a function of the book's package rather than a calculator's output.

`check: {function: calculators.matmul.critical_batch}` names the function (`calckit.answers` finds it, in the book's
package only). The reader's function takes some of its parameters, by name; `check: inputs` holds the others, as
keyword arguments. A function has no declared ranges, so the author declares what each parameter may take under
`check: vary` (`{min, max, step}` or a list, as in a quiz; whole numbers stay whole), or lists `fixed` cases alone. The
expected value of each case is what the function returns for it: a finite number, or None where there is no such
number. Both sides draw the cases with this module: the build (through `calckit.running`, in the process with a time
limit) and the calculators' worker (`calckit.api.exercise_cases`) for each Check, never the reader's code.
"""

from __future__ import annotations

import importlib
import math
import random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import running
from .answers import AnswerError, BookFunction, book_function, call_function, expected_value, failure_text
from .contracts import DrawnCases
from .exercise import (
    DEFAULT_CASES,
    DEFAULT_TOLERANCE,
    MAX_CASES,
    Case,
    ExerciseProblem,
    Tolerance,
    case_data,
    floats,
    varies_from,
)
from .quiz import Vary, Where
from .reading import Reader, got
from .spec import Input

__all__ = ["CaseFailure", "CheckReader", "FunctionCheck", "cases_for_function", "function_cases"]

_FUNCTION_FIELDS = ("function", "unit", "inputs", "cases", "vary", "fixed", "tolerance")
Call = Callable[[Mapping[str, Any]], object]  # the book's function, given its keyword arguments


class CaseFailure(ValueError):
    """The book's function failed for a case: which (1 for the first), its arguments, and how it failed."""

    def __init__(self, number: int, inputs: Mapping[str, Any], problem: str) -> None:
        self.number, self.inputs, self.problem = number, dict(inputs), problem
        shown = ", ".join(f"{key}={value!r}" for key, value in inputs.items())
        self.case = f"case {number} ({shown})"
        super().__init__(f"{self.case}: {problem}")


@dataclass(frozen=True)
class FunctionCheck:
    """An exercise's check against a book's function, as the author wrote it (read, not yet run)."""

    function: BookFunction
    unit: str
    given: dict[str, Any]  # the keyword arguments held for every case
    varies: tuple[Vary, ...]
    whole: tuple[str, ...]  # the parameters drawn as whole numbers
    count: int
    fixed: tuple[dict[str, float | int], ...]
    tolerance: Tolerance


def function_cases(
    call: Call,
    parameters: Sequence[str],
    given: Mapping[str, Any],
    varies: Iterable[Vary],
    whole: Iterable[str],
    count: int,
    seed: str,
    fixed: Iterable[Mapping[str, float | int]] = (),
) -> list[Case]:
    """The fixed cases, then `count` drawn from `seed` (each parameter from its `vary`), each with what `call`
    returns for it as the expected value; CaseFailure for the first case that the function fails."""
    ways = {way.input: way for way in varies}
    integral = set(whole)
    rng = random.Random(seed)
    every: list[tuple[dict[str, Any], bool]] = [(dict(values), True) for values in fixed]
    for _ in range(count):
        every.append(({name: _drawn(ways[name], rng, name in integral) for name in parameters}, False))
    cases = []
    for number, (values, is_fixed) in enumerate(every, 1):
        try:
            value = call({**given, **values})
        except Exception as error:  # the book's own code: said with its cause and place
            raise CaseFailure(number, values, failure_text(error, _directory(call))) from None
        try:
            cases.append(Case(values, expected_value(value), fixed=is_fixed))
        except AnswerError as error:
            raise CaseFailure(number, values, str(error)) from None
    return cases


def _drawn(way: Vary, rng: random.Random, whole: bool) -> float | int:
    value = way.draw(rng)
    if isinstance(value, str | tuple):  # the stand-in inputs of a function's parameters parse numbers alone
        raise TypeError(f"vary '{way.input}' drew {value!r}, not a number")
    return int(value) if whole else value


def _directory(call: Call) -> Path | None:
    return getattr(call, "directory", None)


class _Here:
    """The book's function called in this interpreter (or through the build's runner, which has a time limit)."""

    def __init__(self, path: str, package: str) -> None:
        self.path, self.package = path, package
        module = importlib.import_module(package)
        self.directory = Path(str(module.__file__)).parent if getattr(module, "__file__", None) else None

    def __call__(self, arguments: Mapping[str, Any]) -> object:
        return running.call_function(self.path, arguments, self.call_here)

    def call_here(self, path: str, arguments: Mapping[str, Any]) -> object:
        return call_function(path, arguments, self.package)


def cases_for_function(
    reference: str,
    parameters: list[str],
    given: Mapping[str, Any],
    count: int,
    vary: list[Mapping[str, Any]],
    whole: list[str],
    fixed: list[Mapping[str, float | int]],
    seed: str,
    package: str,
) -> DrawnCases:
    """The cases of one Check of an exercise checked against `reference` ({cases: [{inputs, expected}], floats}).

    Called in the calculators' worker (the trusted side, `calckit.api.exercise_cases`) with `Exercise.drawing_data`
    and a seed the page picks for each Check; the function is looked up in the book's package `package` only."""
    book_function(reference, package)  # refused unless it is the book's
    here = _Here(reference, package)
    cases = function_cases(here, parameters, given, varies_from(vary), whole, count, seed, fixed)
    return {"cases": case_data(cases), "floats": floats(parameters, cases)}


def _stand_in(key: str, spec: object) -> Input:
    """An input for a parameter of a book's function, which declares none: whole numbers if every value the author
    gives for it is whole, real numbers otherwise."""
    values = spec if isinstance(spec, list) else list(spec.values()) if isinstance(spec, Mapping) else []
    flat = [item for value in values for item in (value if isinstance(value, list) else [value])]
    whole = bool(flat) and all(isinstance(item, int) and not isinstance(item, bool) for item in flat)
    return Input(key, key, default=0 if whole else 0.0, kind="integer" if whole else "number")


def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


class CheckReader(Reader):
    """What an exercise's reader checks in its `check`: the parts a calculator's check and a function's share (how
    many cases, the tolerance), and the whole of a function's."""

    def __init__(self, calculators: Mapping[str, Any], package: str | None = None) -> None:
        super().__init__(calculators)
        self.package = package  # the book's package: where a check's function must be

    def add_at(self, where: Where, message: str, code_line: int | None = None) -> None:
        self.problems.append(ExerciseProblem(where, message, code_line))

    def count(self, fields: Mapping[str, Any], name: str) -> int:
        raw = fields.get("cases", DEFAULT_CASES)
        if isinstance(raw, bool) or not isinstance(raw, int) or not 0 <= raw <= MAX_CASES:
            self.add_at(
                ("check", "cases"),
                f"{name}: 'cases' must be a whole number from 0 to {MAX_CASES}, how many to draw (got {got(raw)})",
            )
            return 0
        return raw

    def tolerance_of(self, fields: Mapping[str, Any], name: str) -> Tolerance | None:
        raw = fields.get("tolerance", DEFAULT_TOLERANCE)
        text = str(raw).strip() if isinstance(raw, str | int | float) and not isinstance(raw, bool) else ""
        relative = text.endswith(("%", "relative"))
        number = text.removesuffix("%").removesuffix("relative").removesuffix("absolute").strip()
        try:
            amount = float(number)
        except ValueError:
            amount = -1.0
        if not 0 < amount < math.inf:
            self.add_at(
                ("check", "tolerance"),
                f"{name}: 'tolerance' must be a number > 0, absolute ('0.5') or relative ('1e-6 relative' or "
                f"'0.1%') (got {got(raw)})",
            )
            return None
        return Tolerance(amount / 100 if text.endswith("%") else amount, relative)

    def function_check(self, fields: Mapping[str, Any], name: str, parameters: Sequence[str]) -> FunctionCheck | None:
        """The check against a book's function that `fields` (the check's, with 'function') names."""
        at: Where = ("check",)
        for key in ("calculator", "output"):
            if key in fields:
                self.add_at(
                    (*at, key),
                    f"{name}: check: give either 'calculator' and 'output', or 'function', not both (remove '{key}')",
                )
        if self.package is None:
            self.add_at((*at, "function"), f"{name}: check: 'function' needs the book's package, and none is in use")
            return None
        try:
            function = book_function(fields["function"], self.package)
        except AnswerError as error:
            self.add_at((*at, "function"), f"{name}: check: {error}")
            return None
        path = function.path
        their = ", ".join(function.parameters)
        if not function.any_keyword:
            for parameter in parameters:
                if parameter not in function.parameters:
                    self.add_at(
                        ("function",),
                        f"{name}: parameter '{parameter}' is not a parameter of {path} (expected one of: {their})",
                    )
        given = self.held(fields, name, function)
        for needed in function.required:
            if needed not in parameters and needed not in given:
                self.add_at(
                    (*at, "function"),
                    f"{name}: check: {path} needs '{needed}' (make it a parameter of 'function', or hold it in "
                    "'check: inputs')",
                )
        unit = fields.get("unit", "")
        if not isinstance(unit, str):
            self.add_at((*at, "unit"), f"{name}: 'unit' must be text (got {got(unit)})")
            unit = ""
        varies, whole = self.function_vary(fields, name)
        count = self.count(fields, name)
        if count:
            for parameter in parameters:
                if parameter not in {way.input for way in varies} and parameter in function.parameters:
                    self.add_at(
                        (*at, "vary") if "vary" in fields else at,
                        f"{name}: check: parameter '{parameter}' has no values to draw from (give them under "
                        f"'check: vary', such as '{parameter}: {{min: 1, max: 100, step: 1}}', or set 'cases: 0' "
                        "and list 'fixed' ones)",
                    )
        fixed = self.function_fixed(fields, name, parameters)
        tolerance = self.tolerance_of(fields, name)
        if tolerance is None:
            return None
        return FunctionCheck(function, unit.strip(), given, varies, whole, count, fixed, tolerance)

    def held(self, fields: Mapping[str, Any], name: str, function: BookFunction) -> dict[str, Any]:
        raw = fields.get("inputs", {})
        if not isinstance(raw, Mapping):
            self.add_at(
                ("check", "inputs"),
                f"{name}: 'inputs' must be a mapping of {function.path}'s other arguments (got {got(raw)})",
            )
            return {}
        given: dict[str, Any] = {}
        for key, value in ((str(key), value) for key, value in raw.items()):
            at: Where = ("check", "inputs", key)
            if not function.any_keyword and key not in function.parameters:
                their = ", ".join(function.parameters)
                self.add_at(at, f"{name}: check: {function.path} has no parameter '{key}' (expected one of: {their})")
            elif not (_number(value) or isinstance(value, str | bool)):
                self.add_at(
                    at, f"{name}: check: input '{key}' must be a number, a text or true/false (got {got(value)})"
                )
            else:
                given[key] = value
        return given

    def function_vary(self, fields: Mapping[str, Any], name: str) -> tuple[tuple[Vary, ...], tuple[str, ...]]:
        raw = fields.get("vary")
        if raw is None:
            return (), ()
        if not isinstance(raw, Mapping):
            self.add_at(
                ("check", "vary"),
                f"{name}: 'vary' must be a mapping from parameters to the values they may take (got {got(raw)})",
            )
            return (), ()
        varies, whole = [], []
        for key, spec in ((str(key), spec) for key, spec in raw.items()):
            stand_in = _stand_in(key, spec)
            way = self.vary_one(spec, ("check", "vary", key), f"{name}: vary '{key}'", stand_in)
            if way is not None:
                varies.append(way)
                if stand_in.kind == "integer":
                    whole.append(key)
        return tuple(varies), tuple(whole)

    def fixed_entries(
        self, raw: list[Any], name: str, parameters: Sequence[str]
    ) -> Iterator[tuple[Where, str, Iterator[tuple[str, Any]]]]:
        """Each of the author's `fixed` cases that is a mapping: where it is, its label, and its (parameter, value)
        pairs. What is wrong with the case's shape is reported here, in the order it is met: an entry that is not a
        mapping, a parameter the function does not take (as the pairs are read), one it leaves out (once the caller
        has read the case)."""
        for index, entry in enumerate(raw):
            at: Where = ("check", "fixed", index)
            label = f"{name}: fixed case {index + 1}"
            if not isinstance(entry, Mapping):
                self.add_at(at, f"{label} must be a mapping of the parameters' values (got {got(entry)})")
                continue
            yield at, label, self._known(entry, at, label, parameters)
            missing = [parameter for parameter in parameters if parameter not in entry]
            if missing:
                self.add_at(
                    at, f"{label} has no '{missing[0]}' (a case gives every parameter: {', '.join(parameters)})"
                )

    def _known(
        self, entry: Mapping[Any, Any], at: Where, label: str, parameters: Sequence[str]
    ) -> Iterator[tuple[str, Any]]:
        for key, value in ((str(key), value) for key, value in entry.items()):
            if key in parameters:
                yield key, value
            else:
                self.add_at(
                    (*at, key), f"{label}: unknown parameter '{key}' (expected one of: {', '.join(parameters)})"
                )

    def function_fixed(
        self, fields: Mapping[str, Any], name: str, parameters: Sequence[str]
    ) -> tuple[dict[str, float | int], ...]:
        raw = fields.get("fixed", [])
        if not isinstance(raw, list):
            self.add_at(("check", "fixed"), f"{name}: 'fixed' must be a list of cases (got {got(raw)})")
            return ()
        cases = []
        for at, label, pairs in self.fixed_entries(raw, name, parameters):
            values: dict[str, float | int] = {}
            for key, value in pairs:
                if _number(value):
                    values[key] = value
                else:
                    self.add_at((*at, key), f"{label}: '{key}' must be a number (got {got(value)})")
            cases.append(values)
        return tuple(cases)

    def function_check_cases(
        self, check: FunctionCheck, parameters: Sequence[str], seed: str, name: str
    ) -> tuple[Case, ...] | None:
        """The cases the build checks the solution on, with the function's values; None (reported) if it fails one."""
        assert self.package is not None  # function_check refused the check otherwise
        call = _Here(check.function.path, self.package)
        try:
            return tuple(
                function_cases(call, parameters, check.given, check.varies, check.whole, check.count, seed, check.fixed)
            )
        except CaseFailure as failure:
            is_fixed = failure.number <= len(check.fixed)
            at: Where = ("check", "fixed", failure.number - 1) if is_fixed else ("check", "vary")
            raised = failure.problem.startswith("raised")
            hint = " (narrow 'check: vary', or have the function return None there)" if raised and not is_fixed else ""
            self.add_at(at, f"{name}: check: {failure.case}: {check.function.path} {failure.problem}{hint}")
            return None
