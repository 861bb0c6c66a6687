"""An input of a calculator block, adjustable in the prose (as Bret Victor's Tangle does it): the number in the sentence
is the calculator's own field, which a reader drags or steps with the keys, and the calculator recomputes.

    It starts from Llama 3 70B on {input}`#calc-2.chips` H100s ...
    At {input}`#calc-1.intensity | step=10` the H100 reaches {value}`#calc-1.attainable` ...

`#calc-ID` is a calculator block of the page, `chips` one of its number inputs; after a `|`, `step=N` says how far a
key press moves it (a whole multiple of the input's declared step; by default that step, or 1 for a whole number);
a range that excludes its minimum starts a step above it. It is written as plain text, the value the block's author
gave (or the input's default) with its unit:

    <data class="calc-adjust" value="1024" data-adjusts="calc-2" data-input="chips" data-label="Chips" data-unit=""
        data-min="1" data-max="1e+06" data-step="1">1,024</data>

so that it reads the same without script, in print and in search. In the browser calculator_prose.js makes it a
spinbutton (arrows, Page Up and Down, Home and End, dragging) that sets the calculator's field as a reader's typing
would, and shows what the field holds whenever it changes (a shared link, the form). A mistake (an unknown anchor or
input, a choice, a bad step) is `path:LINE: message` with "did you mean", as values.py's.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from html import escape
from typing import TYPE_CHECKING

import yaml

from .render import input_value_text
from .roles import Refused, block_named, did_you_mean, inline_text

if TYPE_CHECKING:
    from calckit.book import Book
    from calckit.spec import Input

    from ..blocks.base import Followed

__all__ = ["adjust_text", "render_input"]

EXAMPLE = "`#calc-2.chips`"


def adjust_text(value: float, unit: str) -> str:
    """A number as the sentence shows it: its digits as the form's field has them, thousands grouped, then its unit
    (1024 -> '1,024', 0.819 TB/s -> '0.819 TB/s'). calculator_prose.js's adjustText is its twin."""
    plain = input_value_text(value)
    sign, digits = ("-", plain[1:]) if plain.startswith("-") else ("", plain)
    if "e" not in digits:
        whole, point, fraction = digits.partition(".")
        digits = f"{int(whole):,}{point}{fraction}"
    return f"{sign}{digits} {unit}".strip()


def render_input(spec: str, book: Book | None, followed: Mapping[str, Followed]) -> str:
    if book is None:
        raise Refused("the book's package did not load")
    what, bar, showing = spec.partition("|")
    words = what.split()
    if not words or not words[0].startswith("#") or "." not in words[0]:
        raise Refused(
            f"an adjustable input names a calculator block of this page and one of its inputs, such as {EXAMPLE}"
        )
    anchor, _, key = words[0].partition(".")
    source = block_named(anchor, followed)
    calculator = book.calculators[source.calculator]
    numbers = [field.key for field in calculator.inputs if field.kind in ("number", "integer")]
    field = next((field for field in calculator.inputs if field.key == key), None)
    if field is None:
        hint = did_you_mean(key, calculator.input_keys, f" (its numbers: {', '.join(numbers)})")
        raise Refused(f"calculator {anchor} ('{calculator.name}') has no input '{key}'{hint}")
    if field.kind not in ("number", "integer"):
        raise Refused(
            f"input '{key}' of {anchor} is a {field.kind} from a list, not a number: only a number can be adjusted "
            f"(its numbers: {', '.join(numbers)})"
        )
    if len(words) > 1:
        raise Refused(f"an adjustable input takes no inputs of its own: it shows and sets {anchor}'s '{key}' alone")
    if field.shown_when is not None and source.inputs.get(field.shown_when[0]) not in field.shown_when[1]:
        other = field.shown_when[0]
        raise Refused(
            f"input '{key}' of {anchor} is hidden while '{other}' is '{source.inputs.get(other)}': adjusting it "
            "would change nothing"
        )
    step = _step(field, showing) if bar else _declared_step(field)
    value = source.inputs.get(key, field.default)
    # A range that excludes its minimum (a resistance above 0) starts a step above it.
    low = None if field.min is None else field.min + step if field.min_exclusive else field.min
    assert isinstance(value, int | float)
    attributes = {
        "value": input_value_text(value),
        "data-adjusts": source.anchor,
        "data-input": key,
        "data-label": field.label,
        "data-unit": field.unit,
        "data-min": "" if low is None else f"{low:g}",
        "data-max": "" if field.max is None else f"{field.max:g}",
        "data-step": f"{step:g}",
    }
    shown = " ".join(f'{name}="{escape(text)}"' for name, text in attributes.items())
    return f'<data class="calc-adjust" {shown}>{inline_text(adjust_text(value, field.unit))}</data>'


def _declared_step(field: Input) -> float:
    if field.step is not None:
        return field.step
    if field.kind == "integer":
        return 1
    raise Refused(f"input '{field.key}' declares no step: say how far a key press moves it, such as `| step=10`")


def _step(field: Input, showing: str) -> float:
    """The step an author gives after the bar (`| step=10`): positive, and a whole multiple of the declared one."""
    options: dict[str, str] = {}
    for word in showing.split():
        name, equals, raw = word.partition("=")
        if not equals or name != "step":
            close = did_you_mean(name, ("step",))
            raise Refused(f"after '|', unknown option '{word}'{close} (expected: step=N)")
        options[name] = raw
    if "step" not in options:
        return _declared_step(field)
    raw = options["step"]
    try:
        step = yaml.safe_load(raw)
    except yaml.YAMLError:
        step = None
    if isinstance(step, bool) or not isinstance(step, int | float) or not math.isfinite(step) or step <= 0:
        raise Refused(f"'step' must be a number more than 0 (got {raw!r})")
    unit = field.step if field.step is not None else (1 if field.kind == "integer" else None)
    if unit is not None and abs(step / unit - round(step / unit)) > 1e-9:
        raise Refused(f"'step' must be a whole multiple of the input's own step, {unit:g} (got {raw})")
    return float(step)
