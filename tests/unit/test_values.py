"""Prose that computes (pages/values.py): {value}`calculator.output inputs | options` becomes a <data> element whose
value is the output's raw number and whose text is the calculator's own; mistakes are `path:LINE: message`."""

from __future__ import annotations

import re
from html import unescape

import pytest

from calckit.api import run
from calckit.book import Book, load
from mkdocs_calculators.blocks import PageContext
from mkdocs_calculators.pages.page import RenderedPage, render_page

BOOK: Book = load("calculators")


def rendered(markdown: str, offset: int = 0) -> RenderedPage:
    return render_page(markdown, PageContext("docs/x.md", BOOK, url="x/"), offset=offset)


def data(html: str) -> list[tuple[float, str, str, str]]:
    """Each computed value: its raw number, calculator, output and text."""
    found = re.findall(
        r'<data class="calc-value" value="([^"]+)" data-from="([^"]+)" data-output="([^"]+)"[^>]*>([^<]*)</data>',
        html,
    )
    return [(float(value), calculator, output, unescape(text)) for value, calculator, output, text in found]


def output(name: str, key: str, **inputs: object) -> tuple[float, str]:
    reply = run(name, inputs, BOOK)
    assert reply["ok"], reply
    found = next(out for out in reply["outputs"] if out["key"] == key)
    assert isinstance(found["value"], float | int)
    return float(found["value"]), found["text"]


def test_a_value_is_the_calculators_output_for_its_inputs_and_defaults() -> None:
    page = rendered("An H100 reaches {value}`roofline.attainable intensity=60 chip=h100-sxm` at 60 FLOP per byte.\n")
    assert page.problems == []
    value, text = output("roofline", "attainable", intensity=60, chip="h100-sxm")
    assert data(page.markdown()) == [(value, "roofline", "attainable", text)]
    # Worked by hand: min(989 TFLOP/s, 3.35 TB/s x 60 FLOP/byte) = 201 TFLOP/s.
    assert value == pytest.approx(201e12) and text == "201 TFLOP/s"
    assert page.markdown().startswith("An H100 reaches <data ") and page.markdown().endswith("at 60 FLOP per byte.\n")


def test_digits_and_format_change_how_it_reads_not_what_it_is() -> None:
    page = rendered("{value}`roofline.ridge chip=h100-sxm | digits=4` and {value}`roofline.ridge chip=h100-sxm`\n")
    ridge, _ = output("roofline", "ridge", chip="h100-sxm")
    assert [(value, text) for value, _, _, text in data(page.markdown())] == [
        (ridge, "295.3 FLOP/byte"),  # 989.4 / 3.35
        (ridge, "295 FLOP/byte"),
    ]


def test_unit_none_writes_the_number_alone_for_prose_that_says_its_unit() -> None:
    """An SI prefix goes with its unit (8.4 µs is 8.4), as do a percent sign and a dollar sign; the raw number stays."""
    page = rendered(
        "{value}`collective.time size_mb=0.0001 | unit=none` µs, {value}`roofline.ridge chip=h100-sxm | unit=none "
        "digits=4` FLOP per byte, {value}`roofline.fraction chip=h100-sxm intensity=100 | unit=none` percent, "
        "{value}`energy.cost chip=h100-sxm | unit=none` dollars, {value}`energy.energy chip=h100-sxm | unit=none` "
        "kWh\n"
    )
    assert page.problems == []
    time, time_text = output("collective", "time", size_mb=0.0001)
    ridge, _ = output("roofline", "ridge", chip="h100-sxm")
    fraction, fraction_text = output("roofline", "fraction", chip="h100-sxm", intensity=100)
    assert time_text.endswith(" µs") and fraction_text == "33.9%"  # 3.35 TB/s x 100 / 989 TFLOP/s
    assert [(value, text) for value, _, _, text in data(page.markdown())] == [
        (time, time_text.removesuffix(" µs")),
        (ridge, "295.3"),
        (fraction, "33.9"),
        (919.8, "919.80"),  # 700 W x 8,760 h = 6,132 kWh, at $0.15
        (6132.0, "6,132"),
    ]
    broken = rendered("{value}`roofline.ridge | unit=ms`\n")
    assert [problem.message for problem in broken.problems] == [
        "value `roofline.ridge | unit=ms`: 'unit' can only be none, which writes the number without its unit (got 'ms')"
    ]


def test_values_in_a_table_a_list_and_an_admonition_stay_on_their_lines() -> None:
    markdown = (
        "| chip | ridge |\n|---|---|\n| H100 | {value}`roofline.ridge chip=h100-sxm` |\n\n"
        "- at 1 FLOP/byte: {value}`roofline.attainable intensity=1 chip=h100-sxm`\n\n"
        '!!! note "Ridge"\n    It is {value}`roofline.ridge chip=h100-sxm`.\n'
    )
    page = rendered(markdown)
    assert page.problems == []
    lines = page.markdown().split("\n")
    assert len(lines) == len(markdown.split("\n"))
    assert [len(data(line)) for line in lines].count(1) == 3
    assert lines[2].startswith("| H100 | <data ") and lines[7].startswith("    It is <data ")


def test_roles_inside_code_are_left_as_written() -> None:
    markdown = "Write `` {value}`roofline.ridge` `` in a page.\n\n```markdown\n{value}`roofline.ridge`\n```\n"
    page = rendered(markdown)
    assert page.problems == [] and page.markdown() == markdown


@pytest.mark.parametrize(
    ("role", "message"),
    [
        ("rooflin.ridge", "unknown calculator 'rooflin' (did you mean 'roofline'?)"),
        ("roofline.ridg", "calculator 'roofline' has no numeric output 'ridg' (did you mean 'ridge'?)"),
        ("roofline", "write the calculator, a dot and one of its outputs first, such as `roofline.attainable`"),
        ("roofline.ridge intensty=3", "calculator 'roofline' has no input 'intensty' (did you mean 'intensity'?)"),
        ("roofline.ridge intensity=-3", "calculator 'roofline': 'intensity' must be >= 0.01 (got -3)"),
        (
            "roofline.ridge intensity = 3",
            "'intensity' is not an input and its value: write `key=value`, with no spaces around '='",
        ),
        ("roofline.ridge | digits=40", "'digits' must be a whole number from 1 to 15 (got 40)"),
        ("roofline.ridge | format=fancy", "'format' must be one of number, si, percent, money (got 'fancy')"),
        (
            "roofline.ridge | digts=2",
            "after '|', unknown option 'digts' (did you mean 'digits'?) (expected: digits, format, unit)",
        ),
    ],
)
def test_a_mistake_is_said_at_its_line_and_shown_in_its_place(role: str, message: str) -> None:
    page = rendered(f"# Title\n\nFine: {{value}}`roofline.ridge`.\nBroken: {{value}}`{role}`.\n", offset=3)
    assert [str(problem) for problem in page.problems] == [f"docs/x.md:7: value `{role}`: {message}"]
    html = page.markdown()
    assert len(data(html)) == 1 and f"docs/x.md:7: value `{role}`:" in unescape(html)
    assert '<span class="calc-value-broken">' in html


def test_a_quoted_number_is_text_for_a_choice_whose_values_are_numbers() -> None:
    """`kv_bytes` is a choice whose values are "2", "1", "0.5": a role writes one quoted, as YAML keeps it text."""
    page = rendered('{value}`kv-cache.per_token kv_bytes="1"` against {value}`kv-cache.per_token kv_bytes="2"`\n')
    assert page.problems == []
    (one, *_), (two, *_) = data(page.markdown())
    assert two == 2 * one  # a byte a number where there were two
