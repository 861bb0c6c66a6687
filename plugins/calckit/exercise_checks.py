"""The checks on an author's exercise: every problem found, each with where in the data it is, and a line inside
the starter or the solution where Python found one. `read_exercise` is the way in."""

from __future__ import annotations

import ast
from collections.abc import Mapping
from typing import Any, TypedDict

from . import running
from .authored import unknown_key
from .contracts import UnreachedData
from .errors import InputError
from .exercise import (
    CHECK_FIELDS,
    EXERCISE_FIELDS,
    Case,
    Exercise,
    ExerciseError,
    Tolerance,
    case_for,
    draw_cases,
    takes_number,
)
from .exercise_functions import CheckReader
from .exercise_run import check_code as check_code_here
from .quiz import Vary, Where
from .reading import got
from .spec import Calculator, Value

__all__ = ["ExerciseReader", "read_exercise"]


def read_exercise(data: object, calculators: Mapping[str, Calculator], package: str | None = None) -> Exercise:
    """The exercise in the author's data, checked against the book's `calculators` or a function of its `package`
    (the import name of the book's package; without it, a check that names a function is refused); ExerciseError
    listing every problem otherwise."""
    reader = ExerciseReader(calculators, package)
    exercise = reader.exercise(data)
    if reader.problems or exercise is None:
        raise ExerciseError(reader.problems)
    return exercise


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


class ExerciseReader(CheckReader):
    """Reads an author's exercise data into the model, collecting every problem rather than stopping at the first."""

    def __init__(self, calculators: Mapping[str, Calculator], package: str | None = None) -> None:
        super().__init__(calculators, package)
        self.varies: tuple[Vary, ...] = ()

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
                self.add((key,), f"{name}: {unknown_key(key, EXERCISE_FIELDS)}")
        if ident is None and "id" not in values:
            return None
        title = self.text(values, "title", (), name)
        prompt = self.text(values, "prompt", (), name)
        hints = self.hints(values, name)
        signature = self.function(values, name)
        check = values.get("check")
        if isinstance(check, Mapping) and "function" in check:
            return self.by_function(values, ident, name, (title, prompt, hints), signature)
        calculator, output, unit, scale, given, count, fixed_raw, tolerance = self.check(values, name)
        parameters = signature[1] if signature else ()
        if calculator is not None and signature is not None:
            self.parameters(signature[1], calculator, name)
        self.parameters_set(parameters, given, name)
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
        authored = _authored(ident, (title, prompt, hints), signature, starter, solution)
        return self.passing(
            Exercise(
                **authored,
                calculator=calculator.name,
                output=output.key,
                unit=unit,
                scale=scale,
                given=given,
                tolerance=tolerance,
                cases=cases,
                count=count,
                vary=self.varies,
            ),
            name,
        )

    def parameters_set(self, parameters: tuple[str, ...], given: Mapping[str, Any], name: str) -> None:
        """Each case sets the parameters: `vary` changes only them, and `inputs` holds only the others."""
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

    def by_function(
        self,
        values: Mapping[str, Any],
        ident: str | None,
        name: str,
        texts: tuple[str, str, tuple[str, ...]],
        signature: tuple[str, tuple[str, ...]] | None,
    ) -> Exercise | None:
        """The exercise whose check names a function of the book's package (calckit.exercise_functions)."""
        label = f"{name}: check"
        fields = self.fields(values["check"], ("check",), label, CHECK_FIELDS, "'function' and the rest")
        parameters = signature[1] if signature else ()
        check = self.function_check(fields or {}, name, parameters)
        self.varies = check.varies if check else ()
        self.parameters_set(parameters, check.given if check else {}, name)
        starter = self.code(values, "starter", name, signature)
        solution = self.code(values, "solution", name, signature)
        if self.problems or ident is None or signature is None or check is None:
            return None
        cases = self.function_check_cases(check, parameters, ident, name)
        if cases is None:
            return None
        if not cases:
            self.add_at(("check",), f"{name}: no cases to check (set 'cases' above 0, or list 'fixed' ones)")
            return None
        return self.passing(
            Exercise(
                **_authored(ident, texts, signature, starter, solution),
                calculator="",
                output="",
                unit=check.unit,
                scale=1.0,
                given=check.given,
                tolerance=check.tolerance,
                cases=cases,
                count=check.count,
                vary=check.varies,
                reference=check.function.path,
                whole=check.whole,
            ),
            name,
        )

    def hints(self, values: Mapping[str, Any], name: str) -> tuple[str, ...]:
        raw = values.get("hints", [])
        if not isinstance(raw, list) or not all(isinstance(hint, str) and hint.strip() for hint in raw):
            self.add_at(("hints",), f"{name}: 'hints' must be a list of texts (got {got(raw)})")
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
                f"'mbu(params_b, tokens_per_s)' (got {got(raw)})",
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
        calculator, output = self.calculator_output(fields, at, label, name)
        if calculator is None:
            return nothing
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
            self.add_at((*at, "fixed"), f"{name}: 'fixed' must be a list of cases (got {got(fixed)})")
            fixed = []
        return calculator, output, unit, scale, given, count, fixed, self.tolerance_of(fields, name)

    def parameters(self, parameters: tuple[str, ...], calculator: Calculator, name: str) -> None:
        specs = {spec.key: spec for spec in calculator.inputs}
        numeric = ", ".join(spec.key for spec in calculator.inputs if takes_number(spec))
        for parameter in parameters:
            spec = specs.get(parameter)
            if spec is None:
                self.add_at(
                    ("function",),
                    f"{name}: parameter '{parameter}' is not an input of calculator '{calculator.name}' "
                    f"(expected one of: {numeric})",
                )
            elif not takes_number(spec):
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
                self.add_at((key,), f"{name}: '{key}' must be Python code (got {got(raw)})")
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
        for at, label, pairs in self.fixed_entries(raw, name, parameters):
            values: dict[str, Value] = {}
            for key, value in pairs:
                if specs[key].kind == "choice" and isinstance(value, int | float) and not isinstance(value, bool):
                    value = f"{value:g}"  # `bytes_per_param: 2` means the choice "2"
                try:
                    values[key] = specs[key].parse(value)
                except InputError as error:
                    self.add_at((*at, key), f"{label}: calculator '{calculator.name}': {error.message}")
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

    def passing(self, exercise: Exercise, name: str) -> Exercise | None:
        """The exercise, once its solution passes its own cases; None when it does not (reported) or when something
        else was."""
        self.solution_passes(exercise, name)
        return None if self.problems else exercise

    def solution_passes(self, exercise: Exercise, name: str) -> None:
        result = running.check_code(exercise.solution, exercise.checking_data(), self.package, check_code_here)
        if result["ok"]:
            self.every_part_reached(result["unreached"], name)
            return
        if result["error"] is not None:
            error = result["error"]
            self.add_at(
                ("solution",), f"{name}: the solution fails: {error['type']}: {error['message']}", error["line"]
            )
            return
        failure = result["failure"]
        assert failure is not None  # not ok, with no error: a case failed
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

    def every_part_reached(self, unreached: list[UnreachedData], name: str) -> None:
        """A solution line or branch that no case runs is one a reader's code may leave out and still pass."""
        fix = "add a fixed case that does (under 'check: fixed'), or take the line out of the solution"
        for part in unreached:
            if part["to"] is None:
                what = "no case reaches this line"
            elif part["to"]:
                what = f"no case goes on from this line to line {part['to']} of the solution"
            else:
                what = "no case leaves the function from this line"
            self.add_at(("solution",), f"{name}: {what}; {fix}", part["line"])


class _Authored(TypedDict):
    """What every exercise has, whatever checks it: its texts and its code."""

    id: str
    title: str
    prompt: str
    function: str
    parameters: tuple[str, ...]
    starter: str
    solution: str
    hints: tuple[str, ...]


def _authored(
    ident: str,
    texts: tuple[str, str, tuple[str, ...]],
    signature: tuple[str, tuple[str, ...]],
    starter: str,
    solution: str,
) -> _Authored:
    title, prompt, hints = texts
    return {
        "id": ident,
        "title": title,
        "prompt": prompt,
        "function": signature[0],
        "parameters": signature[1],
        "starter": starter,
        "solution": solution,
        "hints": hints,
    }
