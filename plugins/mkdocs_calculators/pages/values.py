"""Prose that computes: a number in a sentence that the book's package works out at build, as its calculators do.

An author writes a role, as MyST writes them, where the number goes:

    An H100 reaches {value}`roofline.attainable intensity=60` at 60 FLOP per byte.
    The ridge is at {value}`roofline.ridge chip=h100-sxm | digits=4`.

`roofline` is a calculator of the book, `attainable` one of its outputs, then any of its inputs (`key=value`: a
number or a list as YAML reads them, `60`, `[a, b]`; any other word as written, `h100-sxm`, `yes`); the others keep
their defaults, as in a calculator block. After a `|`, how to show it: `digits=N` (significant digits) and
`format=number|si|percent|money`. It is computed at build in the same compute process, with the same time limit, as a
calculator block, and becomes

    <data class="calc-value" value="4.914e13" data-from="roofline" data-output="attainable">49.1 TFLOP/s</data>

whose `value` is the raw number in the output's own unit (machine-readable, kept by copy and print, shown without
script) and whose text is the output as the calculator shows it. (`data-from`, not `data-calculator`: that one marks
a calculator block, which the page's script mounts.)

A value may follow a calculator block of its page, named by its anchor: {value}`#calc-decode.attainable` starts from
the inputs that block's author wrote (a role's own inputs on top), and as a reader changes the calculator,
calculator.js writes its answers into every value that follows it (an extra run for one with inputs of its own), so
that the sentences around a calculator keep saying what it shows; a shared link restores them with it.

Two more roles share this scan (roles.py): {input}`#calc-decode.intensity`, an input of a calculator block that a
reader adjusts in the sentence (adjustables.py), and {typed}`1,979 W`, a figure typed on purpose (typed_check.py),
written as it is.

Roles inside code (fenced, or a code span) are left alone, so a guide can show the syntax. A mistake (an unknown
calculator, output or input, a value the calculator refuses, a compute that fails or runs past the limit) is
`path:LINE: message`, with "did you mean"; the page shows the message in the number's place.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING, Any

import yaml

from calckit.running import CodeFailure

from ..problems import Problem
from ..sandbox.compute_process import failure_message
from .adjustables import render_input
from .roles import Refused as _Refused
from .roles import block_named, has_role, inline_text, roles
from .roles import did_you_mean as _did_you_mean

if TYPE_CHECKING:
    from calckit.book import Book
    from calckit.spec import Calculator, Output

    from ..blocks import PageContext
    from ..blocks.base import Followed
    from .fences import Fence

__all__ = ["RenderedValue", "render_values"]

_FORMATS = ("number", "si", "percent", "money")
_SHOWING = ("digits", "format", "unit")


@dataclass(frozen=True)
class RenderedValue:
    line: int  # index of the line in the page's Markdown
    start: int  # where the role starts and ends in that line
    end: int
    html: str


def render_values(
    markdown: str, page: PageContext, fences: list[Fence], offset: int, followed: Mapping[str, Followed] | None = None
) -> tuple[list[RenderedValue], list[Problem]]:
    """Every role in `markdown` outside its fenced blocks (`fences`: all of them), rendered, and every problem;
    `followed` holds the page's calculator blocks by anchor, which a role may follow (`#calc-decode.attainable`)."""
    followed = followed or {}
    inside = {index for fence in fences for index in range(fence.start, fence.end + 1)}
    values: list[RenderedValue] = []
    problems: list[Problem] = []
    for index, text in enumerate(markdown.split("\n")):
        if index in inside or not has_role(text):
            continue
        for start, end, role, spec in roles(text):
            line = index + offset + 1
            try:
                if role == "value":
                    html = _render(spec, page, followed)
                elif role == "input":
                    html = render_input(spec, page.book, followed)
                else:  # typed on purpose (typed_check.py): the text as written
                    html = inline_text(spec)
            except _Refused as refused:
                problem = Problem(page.path, line, f"{role} `{spec}`: {refused}")
                problems.append(problem)
                html = f'<span class="calc-value-broken">{inline_text(str(problem))}</span>'
            values.append(RenderedValue(index, start, end, html))
    return values, problems


def _render(spec: str, page: PageContext, followed: Mapping[str, Followed]) -> str:
    book = page.book
    if book is None:
        raise _Refused("the book's package did not load")
    what, bar, showing = spec.partition("|")
    words = what.split()
    if not words or "." not in words[0]:
        raise _Refused("write the calculator, a dot and one of its outputs first, such as `roofline.attainable`")
    name, _, key = words[0].partition(".")
    source: Followed | None = None
    if name.startswith("#"):  # a calculator block of the page, which the value follows
        source = block_named(name, followed)
        if bar:
            raise _Refused(
                "a value that follows a calculator reads as the calculator shows it: remove what follows '|'"
            )
        name = source.calculator
    calculator = book.calculators.get(name)
    if calculator is None:
        raise _Refused(f"unknown calculator '{name}'{_did_you_mean(name, book.calculators)}")
    output = next((out for out in calculator.outputs if out.key == key), None)
    numeric = [out.key for out in calculator.outputs if out.format != "text"]
    if output is None or output.format == "text":
        known = f" (expected one of: {', '.join(numeric)})"
        kind = "has no numeric output" if output is None else "gives text, not a number, as output"
        raise _Refused(f"calculator '{name}' {kind} '{key}'{_did_you_mean(key, numeric, known)}")
    inputs = _pairs(words[1:], "input")
    unknown = [given for given in inputs if given not in calculator.input_keys]
    if unknown:
        hint = _did_you_mean(
            unknown[0], calculator.input_keys, f" (expected one of: {', '.join(calculator.input_keys)})"
        )
        raise _Refused(f"calculator '{name}' has no input '{unknown[0]}'{hint}")
    shown = _showing(output, _pairs(showing.split(), "option"))
    values, errors = calculator.check({**(source.given if source else {}), **inputs}, author=True)
    if errors:
        raise _Refused(f"calculator '{name}': {errors[0]}")
    value = _evaluate(calculator, values, key, book)
    own = json.dumps({given: values[given] for given in inputs}, separators=(",", ":"), sort_keys=True)
    follows = ""
    if source is not None:  # calculator.js puts the calculator's answers here as a reader changes its inputs
        title = page.strings.html("value.follows", anchor=source.anchor)
        follows = f' data-follows="{escape(source.anchor)}" title="{title}"'
    return (
        f'<data class="calc-value" value="{value!r}" data-from="{escape(name)}" data-output="{escape(key)}" '
        f'data-given="{escape(own)}"{follows}>{inline_text(shown(value))}</data>'
    )


def _evaluate(calculator: Calculator, values: dict[str, Any], key: str, book: Book) -> float:
    from calckit.spec import evaluate

    try:
        value = evaluate(calculator, values).values[key]
    except CodeFailure as failure:
        raise _Refused(failure_message(failure, "value", book)) from None
    if isinstance(value, str | tuple):  # a text standing in where there is no figure ("Never")
        raise _Refused(f"calculator '{calculator.name}' gives no number for output '{key}' here ('{value}')")
    return float(value)


def _pairs(words: list[str], what: str) -> dict[str, Any]:
    pairs: dict[str, Any] = {}
    for word in words:
        key, equals, raw = word.partition("=")
        if not equals or not key:
            raise _Refused(f"'{word}' is not an {what} and its value: write `key=value`, with no spaces around '='")
        try:
            read = yaml.safe_load(raw) if raw else ""
        except yaml.YAMLError:
            raise _Refused(f"the value of '{key}' is not one YAML value (got {raw!r})") from None
        # As YAML reads it (a number, a list, a quoted "1" as text), but a word YAML would make true, false or nothing
        # stays as written (`overlap_tp=yes` is the choice 'yes').
        pairs[key] = raw if isinstance(read, bool) or read is None else read
    return pairs


def _showing(output: Output, options: dict[str, Any]) -> Callable[[float], str]:
    """How the role writes the output: with its `digits` and `format` where it gives them, and without the unit with
    `unit=none` (for prose that says the unit in words: "8.4 inside the node", "24 tokens per second")."""
    for key in options:
        if key not in _SHOWING:
            raise _Refused(
                f"after '|', unknown option '{key}'{_did_you_mean(key, _SHOWING)} (expected: {', '.join(_SHOWING)})"
            )
    digits, form = options.get("digits", output.digits), options.get("format", output.format)
    if isinstance(digits, bool) or not isinstance(digits, int) or not 1 <= digits <= 15:
        raise _Refused(f"'digits' must be a whole number from 1 to 15 (got {digits!r})")
    if form not in _FORMATS:
        raise _Refused(f"'format' must be one of {', '.join(_FORMATS)} (got {form!r})")
    if options.get("unit", "none") != "none":
        raise _Refused(f"'unit' can only be none, which writes the number without its unit (got {options['unit']!r})")
    shown = dataclasses.replace(output, digits=digits, format=form)
    if "unit" not in options:
        return shown.text
    # What goes: the unit with its SI prefix (8.4 µs is 8.4), the percent sign, or the dollar sign.
    if form == "percent":
        unit = re.compile(r"\s*%$")
    elif form == "money":
        unit = re.compile(r"\$")
    else:
        prefix = "[kMGTPEZYmµnpfazy]?" if form == "si" else ""
        unit = re.compile(rf"\s*{prefix}{re.escape(shown.unit)}$" if shown.unit else "$^")

    def without_unit(value: float) -> str:
        return unit.sub("", shown.text(value), count=1)

    return without_unit
