"""Reading what an author writes in a quiz or an exercise: the checks that both kinds share.

`Reader` collects every problem with where in the author's data it is, rather than stopping at the first; the build
adds the file and line. It reads the common shapes (a mapping of known fields, a text, an id, a list), a calculator's
inputs, an answer's unit, the values an input may take (`vary`), and what an answer is: a calculator's output
(`calculator_output`). The quiz's reader (`quiz_checks`) and the exercise's (`exercise_checks`) build on it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from typing import Any

from .authored import AuthoredProblem, Where, unknown_key
from .errors import InputError, shown
from .quiz import Vary, output_spec
from .spec import Calculator, Input, Output, Value

__all__ = ["VARY_FIELDS", "Reader", "got"]

VARY_FIELDS = ("min", "max", "step", "choices")

# An id: letters of any alphabet ('résistance', 'напряжение'), digits, '-' and '_'. It keys the reader's saved
# progress and goes into the page's data, never into a URL or a selector unquoted; written composed (NFC), so that
# two ways of typing 'é' are one id.
_ID = re.compile(r"^[\w-]+$")
ID_TEXT = "letters (of any alphabet), digits, '-' or '_'"
_PREFIXES = {"P": 1e15, "T": 1e12, "G": 1e9, "M": 1e6, "k": 1e3, "": 1.0, "m": 1e-3, "µ": 1e-6, "n": 1e-9}
_OR_REMOVE = " (write one, or remove the line)"


def _unit_scale(unit: str, output: Output) -> float | None:
    """What the answer in `unit` is scaled by from the output's own value; None if the unit does not fit."""
    if output.format == "percent":
        return {"%": 0.01, "": 1.0}.get(unit)
    if not output.unit:
        return 1.0 if unit == "" else None
    if not unit.endswith(output.unit):
        return None
    return _PREFIXES.get(unit[: len(unit) - len(output.unit)])


def _unit_hint(output: Output) -> str:
    if output.format == "percent":
        return "write '%', or '' for a fraction"
    if not output.unit:
        return "write '' (it has no unit)"
    return f"write {output.unit}, with an SI prefix if you like (such as T{output.unit})"


def got(value: object) -> str:
    """How a value of the wrong shape is described in a message."""
    if value is None:
        return "nothing"
    if isinstance(value, list):
        return f"a list of {len(value)}" if value else "an empty list"
    if isinstance(value, Mapping):
        return "a mapping"
    return shown(value)


class Reader:
    """Reads an author's data into a model, collecting every problem rather than stopping at the first."""

    def __init__(self, calculators: Mapping[str, Calculator]) -> None:
        self.calculators = calculators  # the book's, by name: what numeric answers (and exercises) are checked against
        self.problems: list[AuthoredProblem] = []

    def add(self, where: Where, message: str) -> None:
        self.problems.append(AuthoredProblem(where, message))

    def fields(
        self, data: object, where: Where, name: str, allowed: tuple[str, ...], shape: str
    ) -> dict[str, Any] | None:
        """`data` as a mapping keyed by text, with unknown keys reported; None (reported) if it is not a mapping."""
        if not isinstance(data, Mapping):
            self.add(where, f"{name} must be a mapping with {shape} (got {got(data)})")
            return None
        values = {str(key): value for key, value in data.items()}
        for key in values:
            if key not in allowed:
                self.add((*where, key), f"{name}: {unknown_key(key, allowed)}")
        return values

    def text(self, values: Mapping[str, Any], key: str, where: Where, name: str, required: bool = True) -> str:
        raw = values.get(key)
        if raw is None:
            if key in values:
                self.add((*where, key), f"{name}: '{key}' is empty" + ("" if required else _OR_REMOVE))
            elif required:
                self.add(where, f"{name} has no '{key}'")
            return ""
        if isinstance(raw, bool) or not isinstance(raw, str | int | float):
            self.add((*where, key), f"{name}: '{key}' must be text (got {got(raw)})")
            return ""
        text = str(raw).strip()
        if not text:
            self.add((*where, key), f"{name}: '{key}' is empty" + ("" if required else _OR_REMOVE))
        return text

    def ident(self, values: Mapping[str, Any], where: Where, name: str, hint: str = "") -> str | None:
        raw = values.get("id")
        if raw is None:
            if "id" in values:
                self.add((*where, "id"), f"{name}: 'id' is empty")
            elif hint:
                self.add(where, f"{name} has no 'id'{hint}")
            return None
        text = unicodedata.normalize("NFC", str(raw))
        if isinstance(raw, bool) or not isinstance(raw, str | int) or not _ID.match(text):
            self.add((*where, "id"), f"{name}: 'id' must be {ID_TEXT} (got {got(raw)})")
            return None
        return text

    def items(self, values: Mapping[str, Any], key: str, where: Where, name: str, what: str, least: int) -> list[Any]:
        """The list under `key`, with at least `least` entries; [] (reported) otherwise."""
        raw = values.get(key)
        if key not in values:
            self.add(where, f"{name} has no '{key}' (expected {what})")
            return []
        if not isinstance(raw, list) or len(raw) < least:
            self.add((*where, key), f"{name}: '{key}' must be {what} (got {got(raw)})")
            return []
        return raw

    def calculator_output(
        self, fields: Mapping[str, Any], at: Where, label: str, name: str
    ) -> tuple[Calculator | None, Output | None]:
        """The calculator that `fields` names and which of its numeric outputs: how an answer names what it is."""
        known = ", ".join(sorted(self.calculators))
        raw = fields.get("calculator")
        if raw is None:
            self.add(at, f"{label} has no 'calculator' (expected one of: {known})")
            return None, None
        if not isinstance(raw, str) or raw not in self.calculators:
            self.add((*at, "calculator"), f"{name}: unknown calculator {got(raw)} (expected one of: {known})")
            return None, None
        calculator = self.calculators[raw]
        numbers = ", ".join(output.key for output in calculator.outputs if output.format != "text")
        key = fields.get("output")
        output = output_spec(calculator, str(key)) if key is not None else None
        if key is None:
            self.add(at, f"{label} has no 'output' (expected one of: {numbers})")
        elif output is None:
            self.add(
                (*at, "output"),
                f"{name}: calculator '{calculator.name}' has no output {got(key)} (expected one of: {numbers})",
            )
        elif output.format == "text":
            self.add(
                (*at, "output"), f"{name}: output '{output.key}' is text, not a number (expected one of: {numbers})"
            )
            output = None
        return calculator, output

    def inputs(
        self, values: dict[str, Any], where: Where, name: str, calculator: Calculator | None
    ) -> dict[str, Value]:
        raw = values.get("inputs")
        if raw is None:
            return {}
        if not isinstance(raw, Mapping):
            self.add(
                (*where, "inputs"), f"{name}: 'inputs' must be a mapping of the calculator's inputs (got {got(raw)})"
            )
            return {}
        if calculator is None:
            return {}
        label = f"{name}: calculator '{calculator.name}'"
        given: dict[str, Value] = {}
        for key, value in ((str(key), value) for key, value in raw.items()):
            spec = next((spec for spec in calculator.inputs if spec.key == key), None)
            if spec is None:
                self.add(
                    (*where, "inputs", key),
                    f"{label}: unknown input '{key}' (expected one of: {', '.join(calculator.input_keys)})",
                )
            elif value is None:
                self.add((*where, "inputs", key), f"{label}: input '{key}' has no value (give one, or remove the line)")
            else:
                try:
                    given[key] = spec.parse(value)
                except InputError as error:
                    self.add((*where, "inputs", key), f"{label}: {error.message}")
        return given

    def unit(self, values: dict[str, Any], where: Where, name: str, output: Output | None) -> tuple[str, float | None]:
        if output is None:
            return "", None
        raw = values.get("unit")
        if raw is None:
            unit = "%" if output.format == "percent" else output.unit
        elif not isinstance(raw, str):
            self.add((*where, "unit"), f"{name}: 'unit' must be text (got {got(raw)})")
            return "", None
        else:
            unit = raw.strip()
        scale = _unit_scale(unit, output)
        if scale is None:
            own = "a percentage" if output.format == "percent" else output.unit or "no unit"
            self.add(
                (*where, "unit"),
                f"{name}: unit '{unit}' does not fit output '{output.key}' ({own}): {_unit_hint(output)}",
            )
        return unit, scale

    def vary(self, values: dict[str, Any], where: Where, name: str, calculator: Calculator | None) -> tuple[Vary, ...]:
        raw = values.get("vary")
        if raw is None:
            return ()
        if not isinstance(raw, Mapping):
            self.add(
                (*where, "vary"),
                f"{name}: 'vary' must be a mapping from inputs to the values they may take (got {got(raw)})",
            )
            return ()
        if calculator is None:
            return ()
        varies = []
        for key, spec in ((str(key), spec) for key, spec in raw.items()):
            at = (*where, "vary", key)
            input_spec = next((item for item in calculator.inputs if item.key == key), None)
            if input_spec is None:
                self.add(
                    at, f"{name}: vary: unknown input '{key}' (expected one of: {', '.join(calculator.input_keys)})"
                )
                continue
            vary = self.vary_one(spec, at, f"{name}: vary '{key}'", input_spec)
            if vary is not None:
                varies.append(vary)
        return tuple(varies)

    def vary_one(self, spec: object, at: Where, label: str, input_spec: Input) -> Vary | None:
        shape = "either 'min', 'max' and 'step', or 'choices'"
        if isinstance(spec, list):
            return self.vary_choices(spec, at, label, input_spec)
        fields = self.fields(spec, at, label, VARY_FIELDS, shape)
        if fields is None:
            return None
        ranged = [key for key in ("min", "max", "step") if key in fields]
        if "choices" in fields and not ranged:
            choices = fields["choices"]
            if not isinstance(choices, list):
                self.add((*at, "choices"), f"{label}: 'choices' must be a list (got {got(choices)})")
                return None
            return self.vary_choices(choices, (*at, "choices"), label, input_spec)
        if "choices" in fields or len(ranged) < 3:
            self.add(at, f"{label} needs {shape}")
            return None
        bounds: list[float] = []
        for key in ("min", "max"):
            try:
                value = input_spec.parse(fields[key])
            except InputError as error:
                self.add((*at, key), f"{label}: '{key}' must be {error.rule} (got {shown(error.value)})")
                continue
            if isinstance(value, str | tuple):
                self.add((*at, key), f"{label}: '{key}' must be a number: give a choice input 'choices' instead")
                continue
            bounds.append(float(value))
        step = fields["step"]
        if isinstance(step, bool) or not isinstance(step, int | float) or not 0 < step < float("inf"):
            self.add((*at, "step"), f"{label}: 'step' must be a number > 0 (got {got(step)})")
            return None
        if len(bounds) < 2:
            return None
        low, high = bounds
        if low > high:
            self.add((*at, "min"), f"{label}: 'min' must be <= 'max' (got {shown(low)} > {shown(high)})")
            return None
        if low + step <= high:
            try:
                input_spec.parse(float(f"{low + step:.12g}"))
            except InputError as error:
                self.add(
                    (*at, "step"), f"{label}: 'step' gives values that must be {error.rule} (got {shown(error.value)})"
                )
                return None
        return Vary(input_spec.key, low, high, float(step))

    def vary_choices(self, choices: list[Any], at: Where, label: str, input_spec: Input) -> Vary | None:
        if not choices:
            self.add(at, f"{label}: 'choices' is empty")
            return None
        parsed: list[Value] = []
        for index, choice in enumerate(choices):
            try:
                parsed.append(input_spec.parse(choice))
            except InputError as error:
                self.add((*at, index), f"{label}: choice {index + 1} must be {error.rule} (got {shown(error.value)})")
        if len(parsed) < len(choices):
            return None
        return Vary(input_spec.key, choices=tuple(parsed))
