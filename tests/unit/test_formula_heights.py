"""mkdocs_calculators.extras.formulas.display_height: the height a display formula stands in at off screen (math.css),
estimated at build from KaTeX's struts.

Each case is a formula's struts as KaTeX 0.19 writes them, with its height laid out by Chromium (em of the formula's
font, at 390 px). The browser test (tests/browser/test_math_and_figures.py) holds the book's own display formulas
to their heights in Chromium.
"""

from __future__ import annotations

import pytest

from mkdocs_calculators.extras.formulas import display_height


def struts(*parts: tuple[float, float]) -> str:
    """KaTeX's HTML reduced to its struts: (above the baseline, below it) in em, one per run of the formula."""
    return "".join(
        f'<span class="katex-strut" style="height:{above + below:.4f}em;'
        + (f'vertical-align:-{below:.4f}em;">' if below else '">')
        + "</span>"
        for above, below in parts
    )


# (struts, Chromium's height in em)
MEASURED = {
    "x": (struts((0.4306, 0.0)), 1.2562),
    r"\cdot": (struts((0.4445, 0.0)), 1.1994),
    r"\frac{a}{b}": (struts((1.1076, 0.686)), 1.7933),
    r"\sum_{i=1}^{n} i^2": (struts((1.6514, 1.2777), (0.8141, 0.0)), 2.9288),
    r"\sqrt{x^2+y^2}": (struts((1.0067, 0.2333)), 1.2971),
    r"\overbrace{a+b}^{n}": (struts((1.8439, 0.0833)), 2.1342),
    r"\underbrace{a+b}_{n}": (struts((0.6945, 1.2327)), 2.1413),
    # the roofline lesson's intensity, I(B) = \frac{2BDF}{2BD + 2DF + 2BF} = \frac{BDF}{BD + DF + BF}
    "I(B) = ...": (struts((0.75, 0.25), (1.3604, 0.7693), (1.3604, 0.7693)), 2.1289),
}


@pytest.mark.parametrize("tex", sorted(MEASURED))
def test_a_display_formula_stands_in_at_its_height_or_a_little_above(tex: str) -> None:
    html, measured = MEASURED[tex]
    assert measured - 0.01 <= display_height(html) <= measured + 0.065


def test_the_tallest_part_above_and_the_deepest_below_make_the_height() -> None:
    # A fraction's numerator rises 1.36em; a subscript elsewhere in the formula reaches 0.9em down.
    assert display_height(struts((1.3604, 0.7693), (0.5, 0.9))) == pytest.approx(1.3604 + 0.9, abs=0.001)
    # No strut (KaTeX always writes one; a changed KaTeX might not): the line's own height.
    assert display_height("<span></span>") == pytest.approx(1.26, abs=0.001)
