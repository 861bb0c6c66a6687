"""Exercises: the reader writes a Python function, checked against a calculator's output on many inputs, or against
a function of the book's package (`calckit.exercise_functions`).

An author writes an exercise as plain data (YAML in a page). `read_exercise` turns it into the frozen model below,
or raises `ExerciseError` listing every problem with where in the data it is (the build turns that into a file and
line). The checks cover the Python too: the starter and the solution must parse and define the function with the
parameters that `function` names, and the solution must pass every case.

The cases are the calculator's own: each parameter of the function is one of its inputs, `draw_cases` picks values
for them within the input's declared range (around its default, so the numbers look like the lesson's), the fixed
cases the author lists come first, and the expected value of each is the calculator's output for it. A case for which
the output is text ("never: ...") expects None. The build writes the cases into the page; the reader's code is then
run on them in the browser by `calckit.exercise_run`, the same code that checked the solution at build.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from . import grading
from .answers import function_key
from .authored import AuthoredError, AuthoredProblem, Field, field_names
from .contracts import CalculatorDraw, CaseData, CheckingData, DrawnCases, FunctionDraw, VaryData
from .quiz import Vary
from .spec import Calculator, Input, Value

__all__ = [
    "CHECK_FIELDS",
    "EXERCISE",
    "EXERCISE_FIELDS",
    "Case",
    "Exercise",
    "ExerciseError",
    "ExerciseProblem",
    "Tolerance",
    "case_for",
    "cases_for_check",
    "draw_cases",
    "floats",
    "takes_number",
]

# An exercise's keys: what the reader checks an author's exercise against, and what the plugin's ```exercise takes.
EXERCISE = (
    Field("id", "the exercise's id: the reader's code is saved under it", required=True),
    Field("title", "its title", required=True),
    Field("prompt", "what to do, in Markdown", required=True),
    Field("function", "the function's name and parameters", required=True),
    Field("starter", "the code the reader starts from", required=True),
    Field("solution", "a solution, checked at build", required=True),
    Field("hints", "a list of hints, in Markdown"),
    Field(
        "check",
        "what checks the function: a calculator's output or a function of the book's package, and the cases",
        required=True,
    ),
)
EXERCISE_FIELDS = field_names(EXERCISE)
CHECK_FIELDS = ("calculator", "output", "function", "unit", "inputs", "cases", "vary", "fixed", "tolerance")
DEFAULT_CASES = 20
MAX_CASES = 200
DEFAULT_TOLERANCE = "1e-6 relative"
_SPREAD = 10.0  # drawn values lie within this factor of the input's default, inside its declared range
_DRAWS_PER_CASE = 20  # attempts at a set of values that the calculator accepts, per case wanted


# One error type for everything an author writes (calckit.authored): these names are the exercise's words for it.
ExerciseError = AuthoredError
ExerciseProblem = AuthoredProblem


@dataclass(frozen=True)
class Tolerance(grading.Tolerance):
    """How far from the expected value an answer may be (calckit.grading's rule), and how a reader is told it."""

    @property
    def text(self) -> str:
        """As readers see it: 'within 0.1%', 'within one part in 1,000,000', 'within 0.5'."""
        if not self.relative:
            return f"within {self.amount:g}"
        if self.amount >= 1e-4:
            return f"within {self.amount * 100:g}%"
        return f"within one part in {round(1 / self.amount):,}"


@dataclass(frozen=True)
class Case:
    """The function's arguments by parameter, and the value it must return (None: there is no such number)."""

    inputs: Mapping[str, float | int] = field(hash=False)
    expected: float | None
    fixed: bool = False  # one the author listed


@dataclass(frozen=True)
class Exercise:
    id: str
    title: str
    prompt: str
    function: str  # the function's name
    parameters: tuple[str, ...]  # each an input of the calculator
    starter: str
    solution: str
    hints: tuple[str, ...]
    calculator: str
    output: str
    unit: str
    scale: float  # the output in its own unit divided by this is the expected value in `unit`
    given: Mapping[str, Value] = field(hash=False)  # the calculator's other inputs, fixed for every case
    tolerance: Tolerance
    cases: tuple[Case, ...]  # the fixed ones, then those drawn with the exercise's id as the seed (the build's)
    count: int = 0  # how many cases Check draws, after the fixed ones
    vary: tuple[Vary, ...] = ()
    # A function of the book's package that checks it instead of a calculator ('calculators.matmul.critical_batch'):
    # then `calculator` and `output` are "", `given` holds its other keyword arguments, and each parameter is drawn
    # from its `vary`, those in `whole` as whole numbers (calckit.exercise_functions).
    reference: str = ""
    whole: tuple[str, ...] = ()

    @property
    def signature(self) -> str:
        return f"{self.function}({', '.join(self.parameters)})"

    def checking_data(self) -> CheckingData:
        """What `exercise_run.check_code` needs, as plain JSON data: the build's cases with their expected values."""
        return {
            "function": self.function,
            "parameters": list(self.parameters),
            "floats": floats(self.parameters, self.cases),
            "cases": case_data(self.cases),
            "tolerance": self.tolerance.as_dict(),
        }

    def drawing_data(self) -> CalculatorDraw | FunctionDraw:
        """How to draw the cases of a Check, as plain JSON data: the page carries it, and hands it to the calculators'
        worker (`calckit.api`'s `exercise_cases`) with a fresh seed for each Check. The page carries no expected
        value: the reader's code could not see one, and a reader could not copy one out of the page."""
        if self.reference:
            return {
                "function_key": function_key(self.reference),
                "parameters": list(self.parameters),
                "given": dict(self.given),
                "count": self.count,
                "vary": vary_data(self.vary),
                "whole": list(self.whole),
                "fixed": [dict(case.inputs) for case in self.cases if case.fixed],
            }
        return {
            "calculator": self.calculator,
            "output": self.output,
            "parameters": list(self.parameters),
            "given": {key: list(value) if isinstance(value, tuple) else value for key, value in self.given.items()},
            "scale": self.scale,
            "count": self.count,
            "vary": vary_data(self.vary),
            "fixed": [dict(case.inputs) for case in self.cases if case.fixed],
        }


def varies_from(data: Iterable[Mapping[str, Any]]) -> tuple[Vary, ...]:
    """`vary_data` read back: what the calculators' worker is handed for a Check."""
    return tuple(
        Vary(way["input"], choices=tuple(way["choices"]))
        if "choices" in way
        else Vary(way["input"], float(way["min"]), float(way["max"]), float(way["step"]))
        for way in data
    )


def case_data(cases: Iterable[Case]) -> list[CaseData]:
    """Cases as JSON data, with their expected values: for the build's check of a solution and the worker's reply."""
    return [{"inputs": dict(case.inputs), "expected": case.expected} for case in cases]


def vary_data(varies: Iterable[Vary]) -> list[VaryData]:
    """How each parameter varies, as JSON data (`Vary.source`, with the parameter's name)."""
    return [{"input": way.input, **way.source()} for way in varies]  # type: ignore[typeddict-item]


def floats(parameters: Iterable[str], cases: Iterable[Case]) -> list[str]:
    """The parameters that are real numbers in these cases (the others are whole: a batch, a count)."""
    every = list(cases)
    return [name for name in parameters if not any(isinstance(case.inputs[name], int) for case in every)]


def cases_for_check(
    calculator: str,
    output: str,
    parameters: list[str],
    given: Mapping[str, Value],
    scale: float,
    count: int,
    vary: list[Mapping[str, Any]],
    fixed: list[Mapping[str, float | int]],
    seed: str,
    calculators: Mapping[str, Calculator],
) -> DrawnCases:
    """The cases of one Check ({cases: [{inputs, expected}], floats}): the fixed ones, then `count` drawn from `seed`.

    Called in the calculators' worker (the trusted side, `calckit.api.exercise_cases`) with `Exercise.drawing_data`
    and a seed the page picks for each Check, so that no list of outputs written out in advance passes."""
    spec = calculators[calculator]
    held = {key: tuple(value) if isinstance(value, list) else value for key, value in given.items()}
    kinds = {each.key: each.kind for each in spec.inputs}
    cases = []
    for inputs in fixed:
        # The arguments as the function gets them: a choice of numbers (bytes per parameter) is the choice "2" again.
        values = {key: f"{value:g}" if kinds[key] == "choice" else value for key, value in inputs.items()}
        case = case_for(spec, output, parameters, {**held, **values}, scale)
        if case is None:  # it passed the build's checks: only a changed calculator refuses it
            raise ValueError(f"calculator '{calculator}' refuses the fixed case {dict(inputs)}")
        cases.append(Case(case.inputs, case.expected, fixed=True))
    drawn = draw_cases(spec, output, parameters, held, count, seed, scale=scale, vary=varies_from(vary))
    every = [*cases, *drawn]
    return {"cases": case_data(every), "floats": floats(parameters, every)}


def _argument(spec: Input, value: Value) -> float | int:
    """An input's checked value as the reader's function receives it: a number."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise TypeError(f"input '{spec.key}' is not a number: {value!r}")
    return float(value) if isinstance(value, str) else value


def takes_number(spec: Input) -> bool:
    """Whether the input can be a parameter of a reader's function: a number, or a choice of numbers."""
    if spec.kind in ("number", "integer"):
        return True
    if spec.kind == "choice":
        return all(_is_number(value) for value in spec.choice_values)
    return False


def _is_number(text: str) -> bool:
    try:
        return math.isfinite(float(text))
    except ValueError:
        return False


def _draw(spec: Input, rng: random.Random) -> Value:
    """A value of one input within its declared range, within a factor _SPREAD of its default, 3 significant digits."""
    if spec.kind == "choice":
        return spec.choice_values[rng.randrange(len(spec.choice_values))]
    default = float(spec.default)  # type: ignore[arg-type]
    low = spec.min if spec.min is not None else -math.inf
    high = spec.max if spec.max is not None else math.inf
    if default > 0:
        low, high = max(low, default / _SPREAD), min(high, default * _SPREAD)
        value = math.exp(rng.uniform(math.log(low), math.log(high))) if low > 0 else rng.uniform(low, high)
    else:
        low, high = max(low, default - _SPREAD), min(high, default + _SPREAD)
        value = rng.uniform(low, high)
    if spec.kind == "integer":
        return int(min(max(round(value), math.ceil(low)), math.floor(high)))
    rounded = float(f"{value:.3g}")
    return rounded if low <= rounded <= high else value


def draw_cases(
    calculator: Calculator,
    output: str,
    parameters: Iterable[str],
    given: Mapping[str, Value],
    count: int,
    seed: str,
    *,
    scale: float = 1.0,
    vary: Iterable[Vary] = (),
) -> list[Case]:
    """`count` cases with values drawn for `parameters` (the other inputs as `given`), each with the calculator's
    `output` for it divided by `scale`; the same every time for the same `seed`. A parameter in `vary` takes the
    values it gives (a range and a step, or a list), the others any value in their declared range. Values that the
    calculator refuses (a rule across fields, say) are drawn again; ValueError if too many are."""
    specs = {spec.key: spec for spec in calculator.inputs}
    ways = {way.input: way for way in vary}
    names = list(parameters)
    rng = random.Random(seed)
    cases: list[Case] = []
    for _ in range(count * _DRAWS_PER_CASE):
        if len(cases) == count:
            break
        drawn = {name: ways[name].draw(rng) if name in ways else _draw(specs[name], rng) for name in names}
        case = case_for(calculator, output, names, {**given, **drawn}, scale)
        if case is not None:
            cases.append(case)
    if len(cases) < count:
        raise ValueError(f"calculator '{calculator.name}' refused most of the values drawn for {', '.join(names)}")
    return cases


def case_for(
    calculator: Calculator, output: str, parameters: list[str], inputs: Mapping[str, Value], scale: float
) -> Case | None:
    """The case for these inputs, or None if the calculator refuses them."""
    values, errors = calculator.check(inputs)
    if errors:
        return None
    value = calculator.evaluate(values).values[output]
    specs = {spec.key: spec for spec in calculator.inputs}
    arguments = {name: _argument(specs[name], values[name]) for name in parameters}
    if isinstance(value, str | tuple):
        return Case(arguments, None)
    return Case(arguments, value / scale)
