"""How a calculator is declared: its inputs, its outputs and a pure compute function.

Every surface reads this one declaration: the build checks authors' blocks against it and renders the form, the
browser worker runs it, the reference pages list it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from .errors import InputError
from .units import format_number, format_percent, format_si

__all__ = ["Calculator", "Input", "Output", "Result", "Value"]

Value = float | int | str
InputKind = Literal["number", "integer", "choice"]
OutputFormat = Literal["si", "number", "percent", "text"]


@dataclass(frozen=True)
class Input:
    """One field of a calculator's form, and the rules its value must keep."""

    key: str
    label: str
    default: Value
    kind: InputKind = "number"
    unit: str = ""
    min: float | None = None
    max: float | None = None
    min_exclusive: bool = False
    step: float | None = None
    slider: Literal["linear", "log"] | None = None
    choices: tuple[tuple[str, str], ...] = ()
    help: str = ""

    def __post_init__(self) -> None:
        if self.kind == "choice":
            if not self.choices:
                raise ValueError(f"input '{self.key}': a choice needs choices")
        elif self.slider and (self.min is None or self.max is None):
            raise ValueError(f"input '{self.key}': a slider needs min and max")
        if self.slider == "log" and not (self.min is not None and self.min > 0):
            raise ValueError(f"input '{self.key}': a log slider needs min > 0")
        self.parse(self.default)  # a default that breaks its own rules is a programming error

    @property
    def range_text(self) -> str:
        """The allowed range in words, for the form and the reference page: '> 0 and <= 1,000,000'."""
        if self.kind == "choice":
            return "one of: " + ", ".join(value for value, _ in self.choices)
        parts = []
        if self.min is not None:
            parts.append(f"{'>' if self.min_exclusive else '>='} {format_number(self.min)}")
        if self.max is not None:
            parts.append(f"<= {format_number(self.max)}")
        return " and ".join(parts)

    def parse(self, raw: object) -> Value:
        """The value as the calculator uses it, from what an author wrote or a reader typed; or InputError."""
        if self.kind == "choice":
            allowed = [value for value, _ in self.choices]
            if isinstance(raw, str) and raw.strip() in allowed:
                return raw.strip()
            raise InputError(self.key, "one of: " + ", ".join(allowed), raw)
        number = self._number(raw)
        if self.kind == "integer" and number != int(number):
            raise InputError(self.key, "a whole number", raw)
        if self.min is not None:
            if self.min_exclusive and not number > self.min:
                raise InputError(self.key, f"> {format_number(self.min)}", number)
            if not self.min_exclusive and not number >= self.min:
                raise InputError(self.key, f">= {format_number(self.min)}", number)
        if self.max is not None and not number <= self.max:
            raise InputError(self.key, f"<= {format_number(self.max)}", number)
        return int(number) if self.kind == "integer" else number

    def _number(self, raw: object) -> float:
        rule = "a whole number" if self.kind == "integer" else "a number"
        if isinstance(raw, bool) or not isinstance(raw, int | float | str):
            raise InputError(self.key, rule, raw)
        if isinstance(raw, str):
            try:
                number = float(raw.strip().replace(",", "").replace("_", ""))
            except ValueError:
                raise InputError(self.key, rule, raw) from None
        else:
            try:
                number = float(raw)
            except OverflowError:
                raise InputError(self.key, "a finite number", raw) from None
        if not math.isfinite(number):
            raise InputError(self.key, "a finite number", raw)
        return number


@dataclass(frozen=True)
class Output:
    """One result a calculator shows, and how to write it."""

    key: str
    label: str
    unit: str = ""
    format: OutputFormat = "number"
    help: str = ""

    def text(self, value: Value) -> str:
        if self.format == "text" or isinstance(value, str):
            return str(value)
        if self.format == "si":
            return format_si(value, self.unit)
        if self.format == "percent":
            return format_percent(value)
        return format_number(value, self.unit)


@dataclass(frozen=True)
class Result:
    """What a compute function returns: values by output key, an optional chart, a one-line summary."""

    values: Mapping[str, Value]
    summary: str
    chart: dict[str, Any] | None = None


@dataclass(frozen=True)
class Calculator:
    """A calculator: its inputs and outputs, and the pure function from one to the other."""

    name: str
    title: str
    description: str
    inputs: tuple[Input, ...]
    outputs: tuple[Output, ...]
    compute: Callable[[Mapping[str, Value]], Result] = field(repr=False)

    def __post_init__(self) -> None:
        for kind, keys in (("input", [i.key for i in self.inputs]), ("output", [o.key for o in self.outputs])):
            if len(set(keys)) != len(keys):
                raise ValueError(f"calculator '{self.name}': duplicate {kind} keys in {keys}")

    @property
    def input_keys(self) -> tuple[str, ...]:
        return tuple(i.key for i in self.inputs)

    @property
    def defaults(self) -> dict[str, Value]:
        return {i.key: i.default for i in self.inputs}

    def check(self, raw: Mapping[str, object]) -> tuple[dict[str, Value], list[InputError]]:
        """Every input parsed (defaults for those not given), and every problem found, in declaration order.

        Unknown keys are the caller's concern (the build reports them with the block's line).
        """
        values: dict[str, Value] = {}
        errors: list[InputError] = []
        for spec in self.inputs:
            try:
                values[spec.key] = spec.parse(raw.get(spec.key, spec.default))
            except InputError as error:
                errors.append(error)
        return values, errors

    def run(self, raw: Mapping[str, object]) -> Result:
        """The result for these inputs; InputError for the first bad one; never a NaN or an infinity."""
        values, errors = self.check(raw)
        if errors:
            raise errors[0]
        result = self.compute(values)
        missing = [o.key for o in self.outputs if o.key not in result.values]
        if missing:
            raise ValueError(f"calculator '{self.name}' did not compute {missing}")
        for key, value in result.values.items():
            if isinstance(value, float) and not math.isfinite(value):
                raise ValueError(f"calculator '{self.name}' computed a non-finite '{key}' for {values}")
        return result
