"""Inputs adjustable in the prose (pages/adjustables.py): {input}`#calc-ID.key` is written as the calculator block's
own value of that input, with its unit, in a <data> element that carries its range and step for the browser's
spinbutton; a mistake is `path:LINE: message` with "did you mean"."""

from __future__ import annotations

import re
from html import unescape

import pytest

from calckit.book import Book, load
from mkdocs_calculators.blocks import PageContext
from mkdocs_calculators.pages.adjustables import adjust_text
from mkdocs_calculators.pages.page import RenderedPage, render_page

BOOK: Book = load("calculators")

BLOCKS = "```calculator\nuse: roofline\nid: explorer\nintensity: 240\n```\n\n```calculator\nuse: parallelism\n```\n"


def rendered(prose: str, offset: int = 0) -> RenderedPage:
    return render_page(BLOCKS + "\n" + prose, PageContext("docs/x.md", BOOK, url="x/"), offset=offset)


def adjustables(html: str) -> list[dict[str, str]]:
    """Each adjustable input: its attributes and, as 'text', what it reads."""
    found = []
    for attributes, text in re.findall(r'<data class="calc-adjust" ([^>]*)>([^<]*)</data>', html):
        pairs = {name: unescape(value) for name, value in re.findall(r'([\w-]+)="([^"]*)"', attributes)}
        found.append({**pairs, "text": unescape(text)})
    return found


def test_an_adjustable_input_reads_as_the_blocks_value_with_its_unit_and_carries_its_rules() -> None:
    page = rendered("At {input}`#calc-explorer.intensity | step=10` on {input}`#calc-2.chips` chips.\n")
    assert page.problems == []
    intensity, chips = adjustables(page.markdown())
    # The block's author wrote 240; the input's unit is FLOP/byte, its range 0.01 to 1e6 (calculators/roofline.py).
    assert intensity == {
        "value": "240",
        "data-adjusts": "calc-explorer",
        "data-input": "intensity",
        "data-label": "Arithmetic intensity",
        "data-unit": "FLOP/byte",
        "data-min": "0.01",
        "data-max": "1e+06",
        "data-step": "10",
        "text": "240 FLOP/byte",
    }
    # The block wrote no chips: the default, 1,024, a whole number whose step is 1 (calculators/parallelism.py).
    assert (chips["value"], chips["text"], chips["data-step"], chips["data-min"]) == ("1024", "1,024", "1", "1")
    assert page.markdown().endswith(
        '<data class="calc-adjust" value="1024" data-adjusts="calc-2" '
        'data-input="chips" data-label="Chips" data-unit="" data-min="1" data-max="1e+06" data-step="1">'
        "1,024</data> chips.\n"
    )


def test_the_declared_step_is_the_default() -> None:
    page = rendered("{input}`#calc-explorer.intensity` and {input}`#calc-2.pp`\n")
    assert page.problems == []
    assert [(found["data-step"], found["text"]) for found in adjustables(page.markdown())] == [
        ("0.01", "240 FLOP/byte"),
        ("1", "1"),
    ]


@pytest.mark.parametrize(
    ("value", "unit", "text"),
    [
        (1024, "", "1,024"),
        (0.819, "TB/s", "0.819 TB/s"),
        (1234567.5, "W", "1,234,567.5 W"),
        (-2000.0, "", "-2,000"),
        (80.0, "GB", "80 GB"),
    ],
)
def test_a_number_reads_with_its_thousands_grouped_and_its_unit(value: float, unit: str, text: str) -> None:
    assert adjust_text(value, unit) == text


@pytest.mark.parametrize(
    ("role", "message"),
    [
        (
            "#calc-explorr.intensity",
            "no calculator on this page is #calc-explorr (did you mean 'calc-explorer'?) "
            "(its calculators: #calc-explorer, #calc-2)",
        ),
        (
            "#calc-explorer.intensty",
            "calculator #calc-explorer ('roofline') has no input 'intensty' (did you mean 'intensity'?)",
        ),
        (
            "#calc-2.data_axis",
            "input 'data_axis' of #calc-2 is a choice from a list, not a number: only a number can be adjusted (its "
            "numbers: ",
        ),
        ("#calc-explorer.chip", "input 'chip' of #calc-explorer is a choice from a list, not a number: "),
        (
            "roofline.intensity",
            "an adjustable input names a calculator block of this page and one of its inputs, such as `#calc-2.chips`",
        ),
        (
            "#calc-explorer.intensity intensity=3",
            "an adjustable input takes no inputs of its own: it shows and sets #calc-explorer's 'intensity' alone",
        ),
        (
            "#calc-explorer.m",
            "input 'm' of #calc-explorer is hidden while 'workload' is 'intensity': adjusting it would change nothing",
        ),
        ("#calc-explorer.intensity | step=0", "'step' must be a number more than 0 (got '0')"),
        (
            "#calc-explorer.intensity | step=0.005",
            "'step' must be a whole multiple of the input's own step, 0.01 (got 0.005)",
        ),
        ("#calc-2.chips | step=2.5", "'step' must be a whole multiple of the input's own step, 1 (got 2.5)"),
        (
            "#calc-explorer.intensity | stpe=10",
            "after '|', unknown option 'stpe=10' (did you mean 'step'?) (expected: step=N)",
        ),
        (
            "#calc-2.params_b",
            "input 'params_b' declares no step: say how far a key press moves it, such as `| step=10`",
        ),
    ],
)
def test_a_mistake_is_said_at_its_line_with_what_to_do(role: str, message: str) -> None:
    page = rendered(f"Fine: {{input}}`#calc-2.chips`.\nBroken: {{input}}`{role}`.\n", offset=2)
    problems = [str(problem) for problem in page.problems]
    # Nine lines of blocks, a blank one, "Fine", then "Broken": the twelfth line, two more above it in the file.
    assert len(problems) == 1 and problems[0].startswith(f"docs/x.md:14: input `{role}`: {message}"), problems
    html = page.markdown()
    assert len(adjustables(html)) == 1 and '<span class="calc-value-broken">' in html


def test_a_role_in_code_stays_as_written() -> None:
    prose = "Write `` {input}`#calc-2.chips` `` in a sentence.\n"
    page = rendered(prose)
    assert page.problems == [] and page.markdown().endswith(prose)
