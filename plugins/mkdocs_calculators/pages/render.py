"""The HTML of a calculator: an accessible form and the result computed at build time, right before any script runs.

Everything an author or a spec wrote is escaped. The browser's `calculator.js` reads this markup back: the names
used here (`data-input`, `data-output`, `calc-error`, ...) are the contract between the two.
"""

from __future__ import annotations

import json
import math
from html import escape
from typing import TYPE_CHECKING

from ..i18n.numbers import field_text
from .stand_in import NARROW, WIDE, stand_in_rem, table_stand_in

if TYPE_CHECKING:
    from collections.abc import Callable

    from calckit.contracts import RunReply, TableData
    from calckit.spec import Calculator, Choice, Input, Value

    from ..i18n import Strings

__all__ = ["input_value_text", "range_text", "render_calculator", "render_problems", "render_table"]


def input_value_text(value: Value) -> str:
    """A value as it stands in a form field: 989.0 -> '989', 0.1 -> '0.1' (shortest text that reads back exactly)."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return str(value)


def range_text(spec: Input, s: Strings) -> str:
    """The allowed range in the book's language (calckit's `Input.range_text` says it in English): 'A number from 0
    to 1000', for the form's hint and the reference page. The bounds are written as calckit writes them."""
    from calckit.spec import _bound_text

    if spec.kind in ("choice", "choices"):
        choices = ", ".join(spec.choice_values)
        if spec.kind == "choice":
            return s("range.one_of", choices=choices)
        return s("range.at_least_of", count=spec.min_count, choices=choices)
    what = s("range.what.integer" if spec.kind == "integer" else "range.what.number")
    # The bounds as the language writes numbers (`0,01` in French), which the field reads back.
    low = None if spec.min is None else s.number(_bound_text(spec.min))
    high = None if spec.max is None else s.number(_bound_text(spec.max))
    if low is not None and high is not None:
        return s("range.above_up_to" if spec.min_exclusive else "range.between", what=what, low=low, high=high)
    if low is not None:
        return s("range.above" if spec.min_exclusive else "range.at_least", what=what, low=low)
    return s("range.up_to", what=what, high=high) if high is not None else what


def _attrs(**attributes: object) -> str:
    parts = []
    for name, value in attributes.items():
        if value is None or value is False:
            continue
        name = name.rstrip("_").replace("_", "-")
        parts.append(name if value is True else f'{name}="{escape(str(value))}"')
    return " ".join(parts)


def _field(uid: str, spec: Input, value: Value, values: dict[str, Value], s: Strings) -> str:
    field_id = f"{uid}-{spec.key}"
    # A list shows its own choices; a number's hint says what it may be.
    hint = (
        spec.help
        if spec.kind in ("choice", "choices")
        else range_text(spec, s) + (f". {spec.help}" if spec.help else ".")
    )
    described = f"{field_id}-hint {field_id}-error"
    hidden = spec.shown_when is not None and values.get(spec.shown_when[0]) not in spec.shown_when[1]
    container = _attrs(
        class_="calc-field" + (" calc-choices" if spec.kind == "choices" else ""),
        data_input=spec.key,
        data_kind=spec.kind,
        data_filled_by=spec.filled_by,
        data_shown_when=spec.shown_when[0] if spec.shown_when else None,
        data_shown_values=" ".join(spec.shown_when[1]) if spec.shown_when else None,
        hidden=hidden,
    )
    messages = (
        f'<p class="calc-hint" id="{field_id}-hint">{escape(hint)}</p>'
        f'<p class="calc-error" id="{field_id}-error" aria-live="polite" hidden></p>'
    )
    if spec.kind == "choices":
        assert isinstance(value, tuple)
        return (
            f'<fieldset {container} aria-describedby="{described}"><legend>{escape(spec.label)}</legend>'
            f"{_filter(spec, f'{field_id}-list', s)}"
            f'<div class="calc-choice-list" id="{field_id}-list">{_checkboxes(spec, value)}</div>'
            f"{messages}</fieldset>"
        )
    unit = f' <span class="calc-unit">({escape(spec.unit)})</span>' if spec.unit else ""
    if spec.kind == "choice":
        select = (
            f"<select {_attrs(id=field_id, name=spec.key, aria_describedby=described)}>{_options(spec, value)}</select>"
        )
        control = (_filter(spec, field_id, s) if len(spec.choices) > FILTER_FROM else "") + select
    else:
        control = (
            "<input "
            + _attrs(
                id=field_id,
                name=spec.key,
                type="text",
                inputmode="decimal",
                autocomplete="off",
                spellcheck="false",
                value=field_text(input_value_text(value), s.language),  # as the language writes it (0,819)
                aria_describedby=described,
            )
            + ">"
        )
    slider = _slider(field_id, spec, value, s) if spec.slider else ""
    player = _player(field_id, spec, s) if spec.player else ""
    return (
        f'<div {container}><label for="{field_id}">{escape(spec.label)}{unit}</label>{control}{slider}{player}'
        f"{messages}</div>"
    )


def _player(field_id: str, spec: Input, s: Strings) -> str:
    """Previous, Play and Next for an input that walks through time (player.js makes them work; hidden until then)."""
    label = spec.label.lower()
    return (
        f'<div class="calc-player" data-calc-player="{field_id}" data-step="{spec.step or 1:g}" '
        f'data-min="{spec.min:g}" data-max="{spec.max:g}" data-until="{escape(spec.player_until)}" role="group" '
        f'aria-label="{s.html("player.group", label=label)}" hidden>'
        f'<button type="button" class="md-button calc-player-previous" aria-controls="{field_id}">'
        f"{s.html('player.previous')}</button>"
        f'<button type="button" class="md-button calc-player-play" aria-controls="{field_id}" aria-pressed="false">'
        f"{s.html('player.play')}</button>"
        f'<button type="button" class="md-button calc-player-next" aria-controls="{field_id}">'
        f"{s.html('player.next')}</button></div>"
    )


FILTER_FROM = 10  # choices: longer lists get a box that narrows them as the reader types


def _filter(spec: Input, controls: str, s: Strings) -> str:
    return (
        f'<input type="search" class="calc-filter" placeholder="{s.html("calculator.filter.placeholder")}" '
        f'autocomplete="off" aria-label="{s.html("calculator.filter.label", label=spec.label.lower())}" '
        f'aria-controls="{controls}">'
    )


def _grouped(spec: Input) -> dict[str, list[Choice]]:
    groups: dict[str, list[Choice]] = {}
    for choice in spec.choices:
        groups.setdefault(choice.group, []).append(choice)
    return groups


def _options(spec: Input, value: Value) -> str:
    html = []
    for group, choices in _grouped(spec).items():
        options = "".join(
            f"<option {_attrs(value=c.value, selected=c.value == value)}>{escape(c.label)}</option>" for c in choices
        )
        html.append(f'<optgroup label="{escape(group)}">{options}</optgroup>' if group else options)
    return "".join(html)


def _checkboxes(spec: Input, value: tuple[str, ...]) -> str:
    html = []
    for group, choices in _grouped(spec).items():
        boxes = "".join(
            f'<label class="calc-choice"><input {_attrs(type="checkbox", name=spec.key, value=c.value)}'
            f"{' checked' if c.value in value else ''}> {escape(c.label)}</label>"
            for c in choices
        )
        heading = f'<p class="calc-choice-group-label">{escape(group)}</p>' if group else ""
        html.append(f'<div class="calc-choice-group">{heading}{boxes}</div>')
    return "".join(html)


def render_table(table: TableData, number: Callable[[str], str] = str) -> str:
    """A result table; the first column names each row, and `number` writes the figures in the book's language.
    Scrolls inside its own box on narrow screens."""
    table = {
        "caption": number(table["caption"]),
        "columns": [number(column) for column in table["columns"]],
        "rows": [[number(cell) for cell in row] for row in table["rows"]],
    }
    head = "".join(f'<th scope="col">{escape(column)}</th>' for column in table["columns"])
    rows = "".join(
        f'<tr><th scope="row">{escape(row[0])}</th>{"".join(f"<td>{escape(cell)}</td>" for cell in row[1:])}</tr>'
        for row in table["rows"]
    )
    caption = escape(table["caption"])
    return (
        f'<div class="calc-table-wrap" role="region" tabindex="0" aria-label="{caption}" '
        f'style="{table_stand_in(table, WIDE, NARROW)}">'
        f'<table class="calc-table"><caption>{caption}</caption><thead><tr>{head}</tr></thead>'
        f"<tbody>{rows}</tbody></table></div>"
    )


def _slider(field_id: str, spec: Input, value: Value, s: Strings) -> str:
    assert spec.min is not None and spec.max is not None and isinstance(value, int | float)
    if spec.slider == "log":
        low, high, position, step = math.log10(spec.min), math.log10(spec.max), math.log10(value), 0.01
    else:
        low, high, position, step = spec.min, spec.max, float(value), spec.step or (spec.max - spec.min) / 100
    unit = f" {spec.unit}" if spec.unit else ""
    return (
        "<input "
        + _attrs(
            type="range",
            class_="calc-slider",
            min=f"{low:g}",
            max=f"{high:g}",
            step=f"{step:g}",
            value=f"{position:.4g}",
            data_scale=spec.slider,
            data_for=spec.key,
            aria_label=s("calculator.slider.log", label=spec.label) if spec.slider == "log" else spec.label,
            aria_valuetext=f"{field_text(input_value_text(value), s.language)}{unit}",
        )
        + ">"
    )


def render_calculator(uid: str, calculator: Calculator, inputs: dict[str, Value], result: RunReply, s: Strings) -> str:
    """The form for `inputs` with `result` (from `calckit.api.run`) already in place, in the words of `s`."""
    fields = "".join(_field(uid, spec, inputs[spec.key], inputs, s) for spec in calculator.inputs)
    outputs = "".join(
        f'<div class="calc-output" data-output="{escape(out["key"])}">'
        f'<dt>{escape(out["label"])}</dt><dd><output for="{uid}-form">{escape(s.number(out["text"]))}</output>'
        # A value that is no result (above 100%, or no figure for these inputs) says so beside it, in plain type.
        f'<span class="calc-note"{"" if out.get("note") else " hidden"}>{escape(s.number(out.get("note", "")))}</span>'
        "</dd></div>"
        for out in result.get("outputs", [])
    )
    chart = ""
    if spec := result.get("chart"):
        # In an attribute, not a <script type="application/json">: Material's instant navigation re-runs the scripts
        # of a new page without their type, so JSON there would be executed.
        spec_json = json.dumps(spec, separators=(",", ":"), allow_nan=False)
        described = escape(
            s.number(spec["description"])
        )  # what a screen reader says of it: its figures as the summary's
        chart = (
            f'<figure class="calc-chart"><div class="calc-chart-view" role="img" '
            f'aria-label="{described}" data-spec="{escape(spec_json)}">'
            f'<p class="calc-chart-fallback">{described}</p></div></figure>'
        )
    table = result.get("table")
    # Off screen, a height close to its own stands in for it (calculators.css), at a wide screen's width and a phone's.
    stand_in = (
        f"--calc-stand-in: {stand_in_rem(calculator, inputs, result, WIDE)}rem; "
        f"--calc-stand-in-narrow: {stand_in_rem(calculator, inputs, result, NARROW)}rem"
    )
    return (
        # data-search-exclude keeps the form's labels and hints out of the search index. Material's parser matches
        # elements by tag, so the excluded root is the only <section> in it: a <div> would end at the first </div>.
        f'<section class="calc" id="{uid}" data-calculator="{escape(calculator.name)}" data-search-exclude '
        f'role="group" aria-labelledby="{uid}-title" style="{stand_in}">'
        # The fields are a <form> once the calculator mounts (calculator.js, formOf): Chromium's autofill reads every
        # form of a page as it loads, which on the page with every calculator blocked a phone's main thread for
        # 150-250 ms more, `autocomplete="off"` or not.
        f'<div class="calc-form" id="{uid}-form">'
        f'<p class="calc-title" id="{uid}-title">{s.html("calculator.title", title=calculator.title)}</p>'
        f'<p class="calc-description">{escape(calculator.description)}</p>'
        f'<div class="calc-fields">{fields}</div>'
        f'<button type="reset" class="calc-reset md-button">{s.html("calculator.reset")}</button>'
        "</div>"
        f'<div class="calc-results"><dl class="calc-outputs">{outputs}</dl>'
        '<p class="calc-summary" aria-live="polite" aria-atomic="true">'
        f"{escape(s.number(result.get('summary', '')))}</p>"
        f'<div class="calc-table-slot">{render_table(table, s.number) if table else ""}</div>'
        f'<p class="calc-stale-note" hidden>{s.html("calculator.stale.invalid")}</p></div>'
        f"{chart}"
        f'<p class="calc-status" role="status" data-file-text="{s.html("calculator.file")}"></p>'
        "</section>"
    )


def render_problems(messages: list[str], what: str = "calculator block") -> str:
    """What a broken block shows in a non-strict build (the strict build stops before this is seen)."""
    items = "".join(f"<li><code>{escape(message)}</code></li>" for message in messages)
    return (
        '<div class="calc-broken admonition failure" role="alert">'
        f'<p class="admonition-title">This {escape(what)} has problems</p><ul>{items}</ul></div>'
    )
