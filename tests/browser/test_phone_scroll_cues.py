"""On a phone (390 px), what scrolls sideways says so, and a results table keeps its key columns readable (issue 41,
item 5): the parallelism explorer's table showed Strategy, State and Compute with a clipped "Communi" as the only
sign that Step, Exposed and Memory were off screen, and its caption was cut mid-word."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, ViewportSize

from tests.browser.calculator_page import wait_mounted

pytestmark = pytest.mark.browser

PHONE: ViewportSize = {"width": 390, "height": 844}
# A box's scroll cue: a shadow that stays at its right edge (attached to the box), and a cover of the page's colour
# that scrolls with the content, so that it hides the shadow once the end is reached.
CUE = """(box) => {
  const style = getComputedStyle(box);
  return style.backgroundImage.includes("radial-gradient") && style.backgroundAttachment.split(", ").includes("local")
    && style.backgroundAttachment.split(", ").includes("scroll");
}"""
# Columns whose heading is whole on screen, and whether the caption ends inside the box.
LAYOUT = """(box) => {
  const right = box.getBoundingClientRect().right;
  const whole = [...box.querySelectorAll("thead th")].filter((th) => th.getBoundingClientRect().right <= right + 0.5);
  const caption = box.querySelector("caption").getBoundingClientRect();
  return {
    whole: whole.map((th) => th.textContent.trim()),
    captionInside: caption.right <= right + 0.5,
    scrolls: box.scrollWidth > box.clientWidth,
  };
}"""


def test_the_explorers_table_shows_its_key_columns_and_says_it_scrolls(page: Page, base_url: str) -> None:
    page.set_viewport_size(PHONE)
    page.goto(base_url + "/lessons/parallelism/")
    calc = "#" + str(page.get_attribute("[data-calculator=parallelism]", "id"))
    wait_mounted(page, calc)
    box = page.locator(f"{calc} .calc-table-wrap")
    box.scroll_into_view_if_needed()
    layout = box.evaluate(LAYOUT)
    assert layout["scrolls"], layout
    assert layout["whole"][:3] == ["Strategy", "Memory per chip", "Compute"], layout
    assert layout["captionInside"], layout
    assert box.evaluate(CUE)
    # Scrolled to its end, the row's name stays in place beside the last columns.
    name = box.locator("tbody th[scope=row]").first
    before = name.bounding_box()
    box.evaluate("(box) => { box.scrollLeft = box.scrollWidth; }")
    after = name.bounding_box()
    assert before is not None and after is not None and abs(after["x"] - before["x"]) <= 1, (before, after)
    assert box.evaluate(LAYOUT)["whole"][-1] == "Memory"


def test_a_display_formula_that_scrolls_says_so(page: Page, base_url: str) -> None:
    page.set_viewport_size(PHONE)
    page.goto(base_url + "/lessons/roofline/")
    displays = page.locator("article .math-display")
    assert displays.count() > 0
    for index in range(displays.count()):
        assert displays.nth(index).evaluate(CUE), index
