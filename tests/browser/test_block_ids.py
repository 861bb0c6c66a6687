"""Links that readers made before blocks were numbered per kind still open the calculator they were made on.

Lesson 102 numbered its blocks across every kind (a chips table and a quiz stood between its calculators), so its
energy calculator was `calc-7`; counted per kind it would be `calc-5`, and the page names it `id: 7` to keep it.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.calculator_page import expected, open_page, wait_for_texts

pytestmark = pytest.mark.browser

PAGE = "/lessons/102-ai-accelerators/"


@pytest.fixture
def page(warm_page: Page) -> Page:
    """Opening a link is not about a first visit: each test is a new tab
    in the module's warm context (conftest's warm_page)."""
    return warm_page


def test_a_shared_link_made_before_the_edit_opens_the_same_calculator(page: Page, base_url: str) -> None:
    """`?calc-7.hours=24#calc-7` (the energy calculator, H100 for a day) scrolls to it and sets its hours."""
    open_page(page, f"{base_url}{PAGE}?calc-7.hours=24#calc-7", "#calc-7")
    energy = page.locator("#calc-7")
    expect(energy).to_have_attribute("data-calculator", "energy")
    expect(energy).to_be_in_viewport()
    expect(page.locator("#calc-7-hours")).to_have_value("24")
    wait_for_texts(page, expected("energy", chip="h100-sxm", hours=24), "#calc-7")


def test_every_calculator_keeps_the_anchor_it_had(page: Page, base_url: str) -> None:
    """The page's calculators in order, with the anchors they had before: 1, 3, 4, 6, 7 (2 was a chips table and 5
    a quiz)."""
    page.goto(base_url + PAGE)
    anchors = page.eval_on_selector_all("[data-calculator]", "els => els.map(e => [e.id, e.dataset.calculator])")
    assert anchors == [
        ["calc-1", "roofline"],
        ["calc-3", "roofline"],
        ["calc-4", "roofline"],
        ["calc-6", "mbu"],
        ["calc-7", "energy"],
    ]
