"""How a calculator is declared: its inputs, its outputs and a pure compute function.

Every surface reads this one declaration: the build checks authors' blocks against it and renders the form, the
browser worker runs it, the reference pages list it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal

from . import running
from .contracts import TableData
from .declared import NOWHERE, Place, declared_here
from .errors import InputError, shown
from .numbers import NumberError, read_number
from .units import format_money, format_number, format_percent, format_si

__all__ = ["Calculator", "Choice", "Input", "Output", "Result", "Table", "Value", "number", "text", "texts"]

TYPED_SHOWN = 40  # characters of a refused value that its message repeats

Value = float | int | str | tuple[str, ...]
InputKind = Literal["number", "integer", "choice", "choices"]
OutputFormat = Literal["si", "number", "percent", "money", "text"]
CUSTOM = "custom"


@dataclass(frozen=True)
class Choice:
    """One option of a choice input; `group` gathers options under a heading (a vendor, say)."""

    value: str
    label: str
    group: str = ""


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
    choices: tuple[Choice, ...] = ()
    min_count: int = 1  # for kind "choices": how many must be picked
    # The key of a choice input (a chip picker) that fills this field unless it is set to "custom".
    filled_by: str | None = None
    # Shown only while another choice input has one of these values: (key, values).
    shown_when: tuple[str, tuple[str, ...]] | None = None
    help: str = ""
    # Previous, Play and Next buttons step the value by `step` (1 if unset) between min and max: for an input that
    # walks through time, such as a cycle. Play wraps to min at max or, with `player_until` (the key of an output
    # that counts the steps there are for the other inputs, such as a pass's cycles), once the value reaches it.
    player: bool = False
    player_until: str = ""

    def __post_init__(self) -> None:
        if self.kind in ("choice", "choices"):
            if not self.choices:
                raise ValueError(f"input '{self.key}': a choice needs choices")
        elif self.slider and (self.min is None or self.max is None):
            raise ValueError(f"input '{self.key}': a slider needs min and max")
        if self.player_until and not self.player:
            raise ValueError(f"input '{self.key}': player_until needs player=True")
        if self.player and (self.kind not in ("number", "integer") or self.min is None or self.max is None):
            raise ValueError(f"input '{self.key}': a player needs a number with min and max")
        if self.slider == "log" and not (self.min is not None and self.min > 0):
            raise ValueError(f"input '{self.key}': a log slider needs min > 0")
        try:
            self.parse(self.default)
        except InputError as error:  # a default that breaks its own rules is the declaration's mistake
            raise ValueError(f"input '{self.key}': its default breaks its own rule: {error.message}") from None

    @property
    def range_text(self) -> str:
        """The allowed range in words, for the form and the reference page: 'More than 0, up to 1 million'."""
        if self.kind == "choice":
            return "one of: " + ", ".join(self.choice_values)
        if self.kind == "choices":
            return f"at least {self.min_count} of: " + ", ".join(self.choice_values)
        what = "A whole number" if self.kind == "integer" else "A number"
        low = None if self.min is None else _bound_text(self.min)
        high = None if self.max is None else _bound_text(self.max)
        if low is not None and high is not None:
            return f"{what} more than {low}, up to {high}" if self.min_exclusive else f"{what} from {low} to {high}"
        if low is not None:
            return f"{what} {'more than' if self.min_exclusive else 'of at least'} {low}"
        return f"{what} up to {high}" if high is not None else what

    def _advice(self, typed: object, problem: str) -> str:
        """What a reader sees next to the field: their value as typed, what is wrong, what to do."""
        text = typed.strip() if isinstance(typed, str) else shown(typed)
        if len(text) > TYPED_SHOWN:  # a pasted page or a link with 5,000 digits: enough of it to recognise
            text = text[: TYPED_SHOWN - 1] + "\u2026"
        return f"{problem} (you typed {text})." if text else f"{problem}."

    @cached_property
    def choice_values(self) -> tuple[str, ...]:
        return tuple(choice.value for choice in self.choices)

    def parse(self, raw: object) -> Value:
        """The value as the calculator uses it, from what an author wrote or a reader typed; or InputError."""
        if self.kind == "choice":
            if isinstance(raw, str) and raw.strip() in self.choice_values:
                return raw.strip()
            raise InputError(self.key, self.range_text, raw, f"Choose a {self.label.lower()} from the list.")
        if self.kind == "choices":
            return self._parse_choices(raw)
        number = self._number(raw)
        if self.kind == "integer" and number != int(number):
            raise InputError(self.key, "a whole number", raw, self._advice(raw, "Use a whole number"))
        if self.min is not None and not (number > self.min if self.min_exclusive else number >= self.min):
            low = _bound_text(self.min)  # formatted only for the message: a valid value is parsed in microseconds
            if self.min_exclusive:
                raise InputError(self.key, f"> {low}", number, self._advice(raw, f"Use a number more than {low}"))
            raise InputError(self.key, f">= {low}", number, self._advice(raw, f"Use {low} or more"))
        if self.max is not None and not number <= self.max:
            high = _bound_text(self.max)
            raise InputError(self.key, f"<= {high}", number, self._advice(raw, f"Use {high} or less"))
        return int(number) if self.kind == "integer" else number

    def _parse_choices(self, raw: object) -> tuple[str, ...]:
        """Several choices: a list, or text separated by commas (as a URL carries them)."""
        items = raw.split(",") if isinstance(raw, str) else raw
        what = self.label.lower()
        if not isinstance(items, list | tuple) or not all(isinstance(item, str) for item in items):
            raise InputError(self.key, f"a list of choices ({self.range_text})", raw, f"Tick {what} in the list.")
        picked = tuple(dict.fromkeys(item.strip() for item in items if item.strip()))
        unknown = [item for item in picked if item not in self.choice_values]
        if unknown:
            raise InputError(
                self.key, "made of: " + ", ".join(self.choice_values), unknown[0], f"Tick {what} in the list."
            )
        if len(picked) < self.min_count:
            ticked = "none" if not picked else f"only {len(picked)}"
            raise InputError(
                self.key,
                f"at least {self.min_count} choices",
                list(picked),
                f"Tick at least {self.min_count} {what} to compare (you ticked {ticked}).",
            )
        return picked

    def _number(self, raw: object) -> float:
        if type(raw) is float and math.isfinite(raw):
            return raw  # the usual case, an author's or the form's number: nothing to explain
        rule = "a whole number" if self.kind == "integer" else "a number"
        example = f"such as {shown(self.default)}"
        if isinstance(raw, bool) or not isinstance(raw, int | float | str):
            raise InputError(self.key, rule, raw, f"Type {rule}, {example}.")
        if isinstance(raw, str):
            if not raw.strip():
                raise InputError(self.key, rule, raw, f"Type {rule}, {example}.")
            try:
                number = read_number(raw)
            except NumberError as error:
                if error.garbled:
                    raise InputError(self.key, rule, raw, self._advice(raw, f"Type {rule}, {example}")) from None
                said = f"{rule}: {error.advice[0].lower()}{error.advice[1:]}"
                raise InputError(self.key, said, raw, self._advice(raw, error.advice)) from None
        else:
            try:
                number = float(raw)
            except OverflowError:
                raise InputError(self.key, "a finite number", raw, f"Type a smaller number, {example}.") from None
        if not math.isfinite(number):
            raise InputError(self.key, "a finite number", raw, self._advice(raw, f"Type a finite number, {example}"))
        return number


@dataclass(frozen=True)
class Output:
    """One result a calculator shows, and how to write it."""

    key: str
    label: str
    unit: str = ""
    format: OutputFormat = "number"
    help: str = ""
    digits: int = 3

    def text(self, value: Value) -> str:
        if isinstance(value, tuple):
            return ", ".join(value)
        if self.format == "text" or isinstance(value, str):
            return str(value)
        if self.format == "si":
            return format_si(value, self.unit, self.digits)
        if self.format == "percent":
            return format_percent(value, self.digits)
        if self.format == "money":
            return format_money(value, self.unit)
        return format_number(value, self.unit, self.digits)


@dataclass(frozen=True)
class Table:
    """Rows of text under labelled columns, for results that compare several things (chips, say)."""

    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    caption: str = ""

    def as_dict(self) -> TableData:
        return {"caption": self.caption, "columns": list(self.columns), "rows": [list(row) for row in self.rows]}


@dataclass(frozen=True)
class Result:
    """What a compute function returns: values by output key, a one-line summary, an optional chart and table."""

    values: Mapping[str, Value]
    summary: str
    chart: dict[str, Any] | None = None
    table: Table | None = None
    # A warning shown next to an output, by key: a value that cannot be real ("more than the memory can deliver").
    notes: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Calculator:
    """A calculator: its inputs and outputs, and the pure function from one to the other."""

    name: str
    title: str
    description: str
    inputs: tuple[Input, ...]
    outputs: tuple[Output, ...]
    compute: Callable[[Mapping[str, Value]], Result] = field(repr=False)
    # Fills the fields that a picker (a chip, say) sets, and checks rules that span fields; may raise InputError.
    resolve: Callable[[dict[str, Value]], dict[str, Value]] | None = field(default=None, repr=False)
    # Where the book's code declared it (file, line): a second calculator of the same name is refused there.
    declared_at: Place = field(default=NOWHERE, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "declared_at", declared_here())
        for kind, keys in (("input", [i.key for i in self.inputs]), ("output", [o.key for o in self.outputs])):
            if len(set(keys)) != len(keys):
                raise ValueError(f"calculator '{self.name}': duplicate {kind} keys in {keys}")
        for spec in self.inputs:
            for other in (spec.filled_by, spec.shown_when[0] if spec.shown_when else None):
                if other is not None and other not in self.input_keys:
                    raise ValueError(f"calculator '{self.name}': input '{spec.key}' refers to unknown '{other}'")

    @property
    def input_keys(self) -> tuple[str, ...]:
        return tuple(i.key for i in self.inputs)

    def output(self, key: str) -> Output:
        """The output called `key`: compute functions write its value in a summary with its own `text`."""
        return next(output for output in self.outputs if output.key == key)

    @property
    def defaults(self) -> dict[str, Value]:
        return {i.key: i.default for i in self.inputs}

    def check(self, raw: Mapping[str, object], *, author: bool = False) -> tuple[dict[str, Value], list[InputError]]:
        """Every input parsed and resolved (defaults for those not given), and every problem, in declaration order.

        A picker that is not given, while a field it fills is, counts as "custom": an author who writes a peak and a
        bandwidth means those figures. With `author`, a field given next to a picker that fills it is an error (the
        value would be silently replaced). Unknown keys are the caller's concern (the build reports their lines).
        """
        raw = dict(raw)
        for spec in self.inputs:
            if spec.filled_by and spec.key in raw and spec.filled_by not in raw:
                raw[spec.filled_by] = CUSTOM
        values: dict[str, Value] = {}
        errors: list[InputError] = []
        for spec in self.inputs:
            try:
                values[spec.key] = spec.parse(raw.get(spec.key, spec.default))
            except InputError as error:
                errors.append(error)
        if author:
            errors += [
                InputError(
                    spec.key,
                    f"left out while '{spec.filled_by}' is set (or set {spec.filled_by}: custom)",
                    raw[spec.key],
                )
                for spec in self.inputs
                if spec.filled_by and spec.key in raw and values.get(spec.filled_by) not in (CUSTOM, None)
            ]
        if not errors and self.resolve is not None:
            try:
                values = self.resolve(values)
            except InputError as error:
                errors.append(error)
        return values, errors

    def run(self, raw: Mapping[str, object]) -> Result:
        """The result for these inputs, or InputError for the first bad one."""
        values, errors = self.check(raw)
        if errors:
            raise errors[0]
        return self.evaluate(values)

    def evaluate(self, values: Mapping[str, Value]) -> Result:
        """The result for values that `check` accepted, checked against the declared outputs (`running`): never a
        NaN, an infinity, or a value of another kind than declared (OutputError says which)."""
        return evaluate(self, values)


def _bound_text(value: float) -> str:
    """A range's end exactly, never in a form the field refuses (`numbers.read_number`): 0.000001, not 1 × 10⁻⁶; 65536,
    not 65,500 (three significant digits would move the bound) nor 65,536 (a lone group of three after a comma is
    refused as ambiguous: 65.536 in much of the world); 1 million or 1,048,576 from a million on."""
    if 0 < abs(value) < 1e-3:
        return f"{value:.12f}".rstrip("0")
    if abs(value) >= 1e6:
        if float(f"{value:.3g}") == value:
            return format_number(value)  # exact in words: 1 million, 2.5 billion
        return f"{value:,.0f}" if float(value).is_integer() else f"{value:,}"  # two or more groups: not ambiguous
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def number(values: Mapping[str, Value], key: str) -> float:
    """A checked numeric input, typed for compute functions."""
    value = values[key]
    if isinstance(value, str | tuple):
        raise TypeError(f"input '{key}' is not a number: {value!r}")
    return float(value)


def text(values: Mapping[str, Value], key: str) -> str:
    """A checked single-choice input."""
    value = values[key]
    if not isinstance(value, str):
        raise TypeError(f"input '{key}' is not a choice: {value!r}")
    return value


def texts(values: Mapping[str, Value], key: str) -> tuple[str, ...]:
    """A checked several-choices input."""
    value = values[key]
    if not isinstance(value, tuple):
        raise TypeError(f"input '{key}' is not a list of choices: {value!r}")
    return value


def evaluate(calculator: Calculator, values: Mapping[str, Value]) -> Result:
    """The calculator's checked result for `values`; a CodeFailure says which calculator and inputs it was for."""
    try:
        return check_result(calculator, running.compute(calculator, values))
    except running.CodeFailure as failure:
        failure.calculator, failure.values = calculator.name, dict(values)
        raise


def _number_problem(value: object, noted: bool) -> str:
    """'' for a finite real number (or a text with a note); otherwise what is wrong with it, as an author reads it."""
    if isinstance(value, bool):
        return f"is {value}, not a number"
    if isinstance(value, int):
        return ""
    if isinstance(value, float):
        return "" if math.isfinite(value) else f"is {value!r}, not a finite number"
    if value is None:
        return "is None"
    if isinstance(value, str):
        if noted:
            return ""
        text = value if len(value) <= 30 else value[:27] + "..."
        return f"is the text {text!r}, not a number (a text stands for a number only with a note saying why)"
    return f"is a {type(value).__name__}, not a number"


def _text_problem(value: object) -> str:
    if isinstance(value, str) or (isinstance(value, tuple) and all(isinstance(item, str) for item in value)):
        return ""
    return "is None, not text" if value is None else f"is a {type(value).__name__}, not text"


def check_result(calculator: Calculator, result: object) -> Result:
    """`result`, if it is what the calculator declares; OutputError for the first thing that is not."""
    if not isinstance(result, Result):
        raise running.OutputError(
            f"returned a {type(result).__name__}, not a calckit.spec.Result "
            "(return Result(values, summary) from compute)"
        )
    if not isinstance(result.values, Mapping):
        raise running.OutputError(
            f"returned values that are a {type(result.values).__name__}, not a mapping of output to value"
        )
    for output in calculator.outputs:
        if output.key not in result.values:
            raise running.OutputError("is missing", output.key)
        value = result.values[output.key]
        problem = (
            _text_problem(value)
            if output.format == "text"
            else _number_problem(value, bool(result.notes.get(output.key)))
        )
        if problem:
            raise running.OutputError(problem, output.key)
    for key, value in result.values.items():  # values no output shows: still never a NaN
        if isinstance(value, float) and not math.isfinite(value):
            raise running.OutputError(f"is {value!r}, not a finite number", key)
    if not isinstance(result.summary, str):
        raise running.OutputError(f"returned a summary that is a {type(result.summary).__name__}, not text")
    if result.chart is not None and not isinstance(result.chart, dict):
        raise running.OutputError(
            f"returned a chart that is a {type(result.chart).__name__}, not a Vega-Lite spec (a dict)"
        )
    return result
