"""mkdocs_calculators.pages.stand_in: the height a calculator stands in at off screen, estimated at build from its
parts.

The browser test (tests/browser/test_stand_in_heights.py) holds every calculator of the site to its real height in
Chromium; these hold the estimate's parts to the stylesheet's geometry and to heights measured there.
"""

from __future__ import annotations

import dataclasses

import pytest

from calckit.api import run
from calculators import CALCULATORS
from mkdocs_calculators.i18n import ENGLISH
from mkdocs_calculators.pages.reference import calculators_page
from mkdocs_calculators.pages.render import render_calculator
from mkdocs_calculators.pages.stand_in import (
    CHART_BOX,
    NARROW,
    PAGE_NARROW,
    PAGE_WIDE,
    WIDE,
    _chart,
    _columns,
    _lines,
    height_px,
    markdown_table_stand_in,
    stand_in_rem,
)

BY_NAME = dict(CALCULATORS)

# Heights in Chromium (px, 20 px root) of calculators at their defaults on the reference page, live and drawn:
# (wide: 1280 px screen, narrow: 390 px).
MEASURED = {
    "roofline": (1219, 1889),
    "energy": (807, 1331),
}


def test_the_fields_grid_has_two_columns_wide_and_one_on_a_phone() -> None:
    """repeat(auto-fit, minmax(13rem, 1fr)) with a 1.2em gap, as Chromium lays it out in 648 and 318 px."""
    assert _columns(WIDE.width, 260, 19.2) == 2
    assert _columns(NARROW.width, 260, 19.2) == 1
    assert _columns(887, 260, 19.2) == 3  # a 959 px screen, where the table of contents is gone


def test_text_wraps_by_words() -> None:
    assert _lines("", 16, 300) == 0
    assert _lines("Peak compute", 16, 300) == 1
    assert _lines("word " * 20, 16, 300) == 3  # 37 characters a line at 8 px: 7 five-letter words and their spaces
    assert _lines("a" * 30 + " " + "b" * 30, 16, 300) == 2  # the second word does not fit beside the first


@pytest.mark.parametrize("name", sorted(MEASURED))
def test_the_estimate_is_a_little_above_the_height_measured_in_chromium(name: str) -> None:
    calculator = BY_NAME[name]
    inputs = calculator.defaults
    result = run(name, inputs)
    for layout, measured in zip((WIDE, NARROW), MEASURED[name], strict=True):
        stand_in = stand_in_rem(calculator, inputs, result, layout) * 20
        assert measured <= stand_in <= 1.2 * measured, (layout.name, stand_in, measured)


def test_a_short_chart_keeps_its_boxs_least_height() -> None:
    """A chart drawn shorter than its box's min-height still takes the box: chapter 27's systolic array (3 x 3, its
    chart 176 px) was estimated 36 px short of its box, and stood in below its real 1,847 px on a phone (Chromium 156,
    measured this session)."""
    assert _chart({"height": 176, "description": "x"}, NARROW.width, mounted=True) == 0.5 * 16 + CHART_BOX
    assert _chart({"height": 400, "description": "x"}, NARROW.width, mounted=True) == 0.5 * 16 + 460
    calculator = BY_NAME["systolic"]
    inputs = {**calculator.defaults, "size": 3, "rows": 3, "cycle": 3}  # the chapter's block
    stand_in = stand_in_rem(calculator, inputs, run("systolic", inputs), NARROW) * 20
    assert 1847 <= stand_in <= 1.2 * 1847


def test_each_part_adds_its_height() -> None:
    """A phone's one column is taller than two; a chart, a longer description and another field each add height."""
    calculator = BY_NAME["roofline"]
    inputs = calculator.defaults
    result = run("roofline", inputs)
    wide = height_px(calculator, inputs, result, WIDE, mounted=True)
    assert height_px(calculator, inputs, result, NARROW, mounted=True) > 1.3 * wide
    assert result.get("chart")
    assert wide - height_px(calculator, inputs, {**result, "chart": None}, WIDE, mounted=True) > 280
    longer = dataclasses.replace(calculator, description=calculator.description + " More words to read." * 10)
    assert height_px(longer, inputs, result, WIDE, mounted=True) > wide + 2 * 25
    extra = tuple(dataclasses.replace(calculator.inputs[2], key=f"extra_{n}") for n in range(2))
    more = dataclasses.replace(calculator, inputs=(*calculator.inputs, *extra))
    assert height_px(more, inputs, result, WIDE, mounted=True) > wide + 60


def test_the_markup_carries_both_stand_ins() -> None:
    calculator = BY_NAME["energy"]
    inputs = calculator.defaults
    result = run("energy", inputs)
    html = render_calculator("calc-1", calculator, inputs, result, ENGLISH)
    wide, narrow = stand_in_rem(calculator, inputs, result, WIDE), stand_in_rem(calculator, inputs, result, NARROW)
    assert f'style="--calc-stand-in: {wide}rem; --calc-stand-in-narrow: {narrow}rem"' in html
    assert 40 <= wide < narrow <= 180


def test_every_calculator_stands_in_below_the_old_200rem() -> None:
    for calculator in CALCULATORS.values():
        inputs = calculator.defaults
        result = run(calculator.name, inputs)
        assert (
            30 <= stand_in_rem(calculator, inputs, result, WIDE) <= stand_in_rem(calculator, inputs, result, NARROW)
        ), calculator.name


def test_a_markdown_table_of_one_short_row_stands_in_at_its_rows_and_margin() -> None:
    """Two columns at the head cell's least 5rem: a head row of 12 px padding above and below and one 20.48 px line,
    a row as tall and ruled by 1 px, 48 px around: 137.96 px, 6% over, 7.31 rem, 8 whole rem at either width."""
    assert markdown_table_stand_in(["input", "label"], [["x", "y"]], PAGE_WIDE, PAGE_NARROW, code={0}) == (
        "--table-stand-in: 8rem; --table-stand-in-narrow: 8rem"
    )


def test_a_markdown_tables_long_cell_wraps_in_the_room_its_column_is_given() -> None:
    """Forty words of 25.6 px (3.2 px between) would take 1,152 px unwrapped, 1,184 with padding; the code column keeps
    its least 100 px. The 488 px left of the 688 px page go to the text column (0.45 of its want): 588 px, 556 inside,
    19 words a line, 3 lines; 86.44 px for the row, 178.92 px with the head and margin, 9.48 rem with 6%: 10. On a
    phone's 358 px, 158 px to share: 258 px, 226 inside, 7 words a line, 6 lines: 240.36 px, 12.74 rem, 13."""
    rows = [["k", " ".join(["word"] * 40)]]
    assert markdown_table_stand_in(["input", "meaning"], rows, PAGE_WIDE, PAGE_NARROW, code={0}) == (
        "--table-stand-in: 10rem; --table-stand-in-narrow: 13rem"
    )


def test_the_reference_pages_tables_carry_their_stand_ins() -> None:
    """Each calculator's inputs and outputs table on the generated page sits in a box with its own two heights."""
    from calckit.book import load

    book = load("calculators")
    page = calculators_page(book, ENGLISH)
    boxes = page.count('<div class="calc-reference-table" style="--table-stand-in: ')
    assert boxes == 2 * len(book.calculators), boxes
