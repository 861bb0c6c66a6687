"""Exercises: the reader writes a Python function, checked against a calculator's output on many inputs.

An author writes an exercise as plain data (YAML in a page). `read_exercise` turns it into the frozen model below,
or raises `ExerciseError` listing every problem with where in the data it is (the build turns that into a file and
line). The checks cover the Python too: the starter and the solution must parse and define the function with the
parameters that `function` names, and the solution must pass every case.

The cases are the calculator's own: each parameter of the function is one of its inputs, `draw_cases` picks values
for them within the input's declared range (around its default, so the numbers look like the lesson's), the fixed
cases the author lists come first, and the expected value of each is the calculator's output for it. A case for which
the output is text ("never: ...") expects None. The build writes the cases into the page; the reader's code is then
run on them in the browser by `calculators.exercise_run`, the same code that checked the solution at build.
"""

from __future__ import annotations

import ast
import math
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from . import registry
from .errors import InputError
from .exercise_run import check_code
from .quiz import QuizProblem, Vary, Where, output_spec
from .quiz_checks import Reader, _got
from .spec import Calculator, Input, Value

__all__ = [
    "CHECK_FIELDS",
    "EXERCISE_FIELDS",
    "Case",
    "Exercise",
    "ExerciseError",
    "ExerciseProblem",
    "Tolerance",
    "draw_cases",
    "read_exercise",
]

EXERCISE_FIELDS = ("id", "title", "prompt", "function", "starter", "solution", "hints", "check")
CHECK_FIELDS = ("calculator", "output", "unit", "inputs", "cases", "vary", "fixed", "tolerance")
DEFAULT_CASES = 20
MAX_CASES = 200
DEFAULT_TOLERANCE = "1e-6 relative"
_SPREAD = 10.0  # drawn values lie within this factor of the input's default, inside its declared range
_DRAWS_PER_CASE = 20  # attempts at a set of values that the calculator accepts, per case wanted


@dataclass(frozen=True)
class ExerciseProblem(QuizProblem):
    """A problem and where it is; `code_line` is a line inside the code at `where` (1 for its first)."""

    code_line: int | None = None


class ExerciseError(ValueError):
    """Everything wrong with an exercise, each problem with where it is in the author's data."""

    def __init__(self, problems: Iterable[QuizProblem]) -> None:
        self.problems = tuple(problems)
        super().__init__("; ".join(problem.message for problem in self.problems))


@dataclass(frozen=True)
class Tolerance:
    """How far from the expected value an answer may be: `amount` absolute, or a fraction of it if `relative`."""

    amount: float
    relative: bool

    def as_dict(self) -> dict[str, Any]:
        # The runner takes a relative tolerance as a percentage, like a quiz's.
        return {"amount": self.amount * 100 if self.relative else self.amount, "relative": self.relative}

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
    cases: tuple[Case, ...]

    @property
    def signature(self) -> str:
        return f"{self.function}({', '.join(self.parameters)})"

    def checking_data(self) -> dict[str, Any]:
        """What `exercise_run.check_code` needs, as plain JSON data (the page carries it)."""
        return {
            "function": self.function,
            "parameters": list(self.parameters),
            "floats": [
                name for name in self.parameters if not any(isinstance(case.inputs[name], int) for case in self.cases)
            ],
            "cases": [{"inputs": dict(case.inputs), "expected": case.expected} for case in self.cases],
            "tolerance": self.tolerance.as_dict(),
        }


def read_exercise(data: object) -> Exercise:
    """The exercise in the author's data; ExerciseError listing every problem otherwise."""
    reader = _ExerciseReader()
    exercise = reader.exercise(data)
    if reader.problems or exercise is None:
        raise ExerciseError(reader.problems)
    return exercise


def _argument(spec: Input, value: Value) -> float | int:
    """An input's checked value as the reader's function receives it: a number."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise TypeError(f"input '{spec.key}' is not a number: {value!r}")
    return float(value) if isinstance(value, str) else value


def _numeric(spec: Input) -> bool:
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


def _keys(data: object) -> tuple[str, ...]:
    return tuple(str(key) for key in data) if isinstance(data, Mapping) else ()


def _signature(text: str) -> tuple[str, tuple[str, ...]] | None:
    """'mbu(a, b)' as ('mbu', ('a', 'b')); None if it is not a name and plain parameter names."""
    try:
        node = ast.parse(text.strip(), mode="eval").body
    except SyntaxError:
        return None
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name) or node.keywords:
        return None
    if not all(isinstance(argument, ast.Name) for argument in node.args):
        return None
    return node.func.id, tuple(argument.id for argument in node.args)  # type: ignore[attr-defined]


def _defined(tree: ast.Module, name: str) -> tuple[ast.FunctionDef, tuple[str, ...]] | None:
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == name:
            arguments = node.args
            names = tuple(argument.arg for argument in (*arguments.posonlyargs, *arguments.args))
            if arguments.vararg or arguments.kwonlyargs or arguments.kwarg:
                names += ("...",)
            return node, names
    return None


class _ExerciseReader(Reader):
    def __init__(self) -> None:
        super().__init__()
        self.varies: tuple[Vary, ...] = ()

    def add(self, where: Where, message: str) -> None:
        self.problems.append(ExerciseProblem(where, message))

    def add_at(self, where: Where, message: str, code_line: int | None = None) -> None:
        self.problems.append(ExerciseProblem(where, message, code_line))

    def exercise(self, data: object) -> Exercise | None:
        if data is None:
            self.add_at((), "exercise block is empty (expected 'id', 'prompt', 'function', 'starter', 'check', ...)")
            return None
        values = self.fields(data, (), "exercise", (*EXERCISE_FIELDS, *_keys(data)), "'id', 'prompt' and the rest")
        if values is None:
            return None
        ident = self.ident(values, (), "exercise", " (give it one: the reader's code is saved under it)")
        name = f"exercise '{ident}'" if ident else "exercise"
        for key in values:
            if key not in EXERCISE_FIELDS:
                self.add((key,), f"{name}: unknown field '{key}' (expected one of: {', '.join(EXERCISE_FIELDS)})")
        if ident is None and "id" not in values:
            return None
        title = self.text(values, "title", (), name)
        prompt = self.text(values, "prompt", (), name)
        hints = self.hints(values, name)
        signature = self.function(values, name)
        calculator, output, unit, scale, given, count, fixed_raw, tolerance = self.check(values, name)
        parameters = signature[1] if signature else ()
        if calculator is not None and signature is not None:
            self.parameters(signature[1], calculator, name)
        for way in self.varies:
            if way.input not in parameters:
                self.add_at(
                    ("check", "vary", way.input),
                    f"{name}: check: vary '{way.input}' is not a parameter of the function "
                    f"(expected one of: {', '.join(parameters)})",
                )
        for key in given:
            if key in parameters:
                self.add_at(
                    ("check", "inputs", key),
                    f"{name}: check: input '{key}' is a parameter of the function, so each case sets it "
                    "(remove it from 'inputs')",
                )
        starter = self.code(values, "starter", name, signature)
        solution = self.code(values, "solution", name, signature)
        if self.problems or ident is None or signature is None or calculator is None or output is None:
            return None
        if scale is None or tolerance is None:
            return None
        fixed = self.fixed(fixed_raw, calculator, output.key, parameters, given, scale, name)
        if self.problems:
            return None
        try:
            drawn = draw_cases(
                calculator, output.key, parameters, given, count, seed=ident, scale=scale, vary=self.varies
            )
        except ValueError as error:
            self.add_at(("check", "cases"), f"{name}: {error} (fix some inputs with 'check: inputs')")
            return None
        cases = (*fixed, *drawn)
        if not cases:
            self.add_at(("check",), f"{name}: no cases to check (set 'cases' above 0, or list 'fixed' ones)")
            return None
        exercise = Exercise(
            ident,
            title,
            prompt,
            signature[0],
            parameters,
            starter,
            solution,
            hints,
            calculator.name,
            output.key,
            unit,
            scale,
            given,
            tolerance,
            cases,
        )
        self.solution_passes(exercise, name)
        return None if self.problems else exercise

    def hints(self, values: Mapping[str, Any], name: str) -> tuple[str, ...]:
        raw = values.get("hints", [])
        if not isinstance(raw, list) or not all(isinstance(hint, str) and hint.strip() for hint in raw):
            self.add_at(("hints",), f"{name}: 'hints' must be a list of texts (got {_got(raw)})")
            return ()
        return tuple(hint.strip() for hint in raw)

    def function(self, values: Mapping[str, Any], name: str) -> tuple[str, tuple[str, ...]] | None:
        raw = values.get("function")
        if raw is None:
            where: Where = ("function",) if "function" in values else ()
            self.add_at(where, f"{name} has no 'function' (expected its name and parameters, such as 'mbu(a, b)')")
            return None
        signature = _signature(raw) if isinstance(raw, str) else None
        if signature is None:
            self.add_at(
                ("function",),
                f"{name}: 'function' must be a name and its parameters, such as "
                f"'mbu(params_b, tokens_per_s)' (got {_got(raw)})",
            )
            return None
        repeated = sorted({parameter for parameter in signature[1] if signature[1].count(parameter) > 1})
        if repeated:
            self.add_at(("function",), f"{name}: 'function' names the parameter '{repeated[0]}' twice")
            return None
        return signature

    def check(
        self, values: Mapping[str, Any], name: str
    ) -> tuple[Calculator | None, Any, str, float | None, dict[str, Value], int, list[Any], Tolerance | None]:
        nothing: tuple[Any, ...] = (None, None, "", None, {}, 0, [], None)
        known = ", ".join(sorted(registry.CALCULATORS))
        if "check" not in values:
            self.add_at(
                (),
                f"{name} has no 'check' (expected the calculator to check against and its output, such as "
                "'check: {calculator: roofline, output: attainable}')",
            )
            return nothing
        at: Where = ("check",)
        label = f"{name}: check"
        fields = self.fields(values["check"], at, label, CHECK_FIELDS, "'calculator', 'output' and the rest")
        if fields is None:
            return nothing
        raw = fields.get("calculator")
        if raw is None:
            self.add_at(at, f"{label} has no 'calculator' (expected one of: {known})")
            return nothing
        if not isinstance(raw, str) or raw not in registry.CALCULATORS:
            self.add_at((*at, "calculator"), f"{name}: unknown calculator {_got(raw)} (expected one of: {known})")
            return nothing
        calculator = registry.CALCULATORS[raw]
        numbers = ", ".join(output.key for output in calculator.outputs if output.format != "text")
        key = fields.get("output")
        output = output_spec(calculator, str(key)) if key is not None else None
        if key is None:
            self.add_at(at, f"{label} has no 'output' (expected one of: {numbers})")
        elif output is None:
            self.add_at(
                (*at, "output"),
                f"{name}: calculator '{calculator.name}' has no output {_got(key)} (expected one of: {numbers})",
            )
        elif output.format == "text":
            self.add_at(
                (*at, "output"), f"{name}: output '{output.key}' is text, not a number (expected one of: {numbers})"
            )
            output = None
        unit, scale = "", None
        if output is not None and output.format == "percent" and "unit" not in fields:
            unit, scale = "", 1.0  # a share, as a fraction: 0.7 for 70%
        elif output is not None:
            unit, scale = self.unit(fields, at, name, output)
        given = self.inputs(fields, at, name, calculator)
        self.varies = self.vary(fields, at, name, calculator)
        count = self.count(fields, name)
        fixed = fields.get("fixed", [])
        if not isinstance(fixed, list):
            self.add_at((*at, "fixed"), f"{name}: 'fixed' must be a list of cases (got {_got(fixed)})")
            fixed = []
        return calculator, output, unit, scale, given, count, fixed, self.tolerance_of(fields, name)

    def count(self, fields: Mapping[str, Any], name: str) -> int:
        raw = fields.get("cases", DEFAULT_CASES)
        if isinstance(raw, bool) or not isinstance(raw, int) or not 0 <= raw <= MAX_CASES:
            self.add_at(
                ("check", "cases"),
                f"{name}: 'cases' must be a whole number from 0 to {MAX_CASES}, how many to draw (got {_got(raw)})",
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
                f"'0.1%') (got {_got(raw)})",
            )
            return None
        return Tolerance(amount / 100 if text.endswith("%") else amount, relative)

    def parameters(self, parameters: tuple[str, ...], calculator: Calculator, name: str) -> None:
        specs = {spec.key: spec for spec in calculator.inputs}
        numeric = ", ".join(spec.key for spec in calculator.inputs if _numeric(spec))
        for parameter in parameters:
            spec = specs.get(parameter)
            if spec is None:
                self.add_at(
                    ("function",),
                    f"{name}: parameter '{parameter}' is not an input of calculator '{calculator.name}' "
                    f"(expected one of: {numeric})",
                )
            elif not _numeric(spec):
                self.add_at(
                    ("function",),
                    f"{name}: parameter '{parameter}' is a choice of names, not a number; the function takes "
                    f"numbers (expected one of: {numeric})",
                )

    def code(
        self, values: Mapping[str, Any], key: str, name: str, signature: tuple[str, tuple[str, ...]] | None
    ) -> str:
        raw = values.get(key)
        if not isinstance(raw, str) or not raw.strip():
            if raw is None and key not in values:
                self.add_at((), f"{name} has no '{key}' (expected Python code that defines the function)")
            else:
                self.add_at((key,), f"{name}: '{key}' must be Python code (got {_got(raw)})")
            return ""
        code = raw.rstrip() + "\n"
        try:
            tree = ast.parse(code)
        except SyntaxError as error:
            self.add_at((key,), f"{name}: the {key} is not valid Python: {error.msg}", error.lineno or 1)
            return code
        if signature is None:
            return code
        wanted = f"{signature[0]}({', '.join(signature[1])})"
        defined = _defined(tree, signature[0])
        if defined is None:
            self.add_at((key,), f"{name}: the {key} does not define {wanted} (write 'def {wanted}:')")
        elif defined[1] != signature[1]:
            self.add_at(
                (key,),
                f"{name}: the {key} defines {signature[0]}({', '.join(defined[1])}), but 'function' is {wanted}",
                defined[0].lineno,
            )
        return code

    def fixed(
        self,
        raw: list[Any],
        calculator: Calculator,
        output: str,
        parameters: tuple[str, ...],
        given: Mapping[str, Value],
        scale: float,
        name: str,
    ) -> list[Case]:
        specs = {spec.key: spec for spec in calculator.inputs}
        cases: list[Case] = []
        for index, entry in enumerate(raw):
            at: Where = ("check", "fixed", index)
            label = f"{name}: fixed case {index + 1}"
            if not isinstance(entry, Mapping):
                self.add_at(at, f"{label} must be a mapping of the parameters' values (got {_got(entry)})")
                continue
            values: dict[str, Value] = {}
            for key, value in ((str(key), value) for key, value in entry.items()):
                if key not in parameters:
                    self.add_at(
                        (*at, key), f"{label}: unknown parameter '{key}' (expected one of: {', '.join(parameters)})"
                    )
                    continue
                if specs[key].kind == "choice" and isinstance(value, int | float) and not isinstance(value, bool):
                    value = f"{value:g}"  # `bytes_per_param: 2` means the choice "2"
                try:
                    values[key] = specs[key].parse(value)
                except InputError as error:
                    self.add_at((*at, key), f"{label}: calculator '{calculator.name}': {error.message}")
            missing = [parameter for parameter in parameters if parameter not in entry]
            if missing:
                self.add_at(
                    at, f"{label} has no '{missing[0]}' (a case gives every parameter: {', '.join(parameters)})"
                )
            if len(values) < len(parameters):
                continue
            inputs = {**given, **values}
            checked, errors = calculator.check(inputs)
            if errors:
                self.add_at(at, f"{label}: calculator '{calculator.name}': {errors[0].message}")
                continue
            case = case_for(calculator, output, list(parameters), checked, scale)
            if case is not None:
                cases.append(Case(case.inputs, case.expected, fixed=True))
        return cases

    def solution_passes(self, exercise: Exercise, name: str) -> None:
        result = check_code(exercise.solution, exercise.checking_data())
        if result["ok"]:
            return
        if result["error"] is not None:
            error = result["error"]
            self.add_at(
                ("solution",), f"{name}: the solution fails: {error['type']}: {error['message']}", error["line"]
            )
            return
        failure = result["failure"]
        inputs = ", ".join(f"{key}={value!r}" for key, value in failure["inputs"].items())
        what = f"case {failure['index'] + 1} ({inputs}): expected {failure['expected']!r}"
        if failure["error"] is not None:
            error = failure["error"]
            self.add_at(
                ("solution",),
                f"{name}: the solution fails its own {what}, but raised {error['type']}: {error['message']}",
                error["line"],
            )
        else:
            self.add_at(
                ("solution",), f"{name}: the solution fails its own {what}, got {failure['got']} ({failure['reason']})"
            )
