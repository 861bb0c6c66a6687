"""Printing, in Chromium with print media at an A4 page's width: quizzes show every question and no answers or
buttons, calculators a compact table of inputs and results without controls, blocks are kept whole, and wide tables
fit the page. (The PDFs themselves were looked at with page.pdf() and pdftoppm; see the contributing guide.)
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.conftest import Network, new_context

pytestmark = pytest.mark.browser

A4_CONTENT = {"width": 718, "height": 1040}  # A4 at 96 px to the inch, less Chromium's default margins

# What a control is, on screen: none of these may print.
CONTROLS = "button, input[type=range], input[type=search], .calc-hint, .calc-status"


def printed(browser: Browser, network: Network, url: str) -> tuple[Any, Any]:
    context = new_context(browser, network, viewport=A4_CONTENT)
    page = context.new_page()
    page.goto(url)
    page.emulate_media(media="print")
    return context, page


def test_a_quiz_prints_every_question_without_answers_or_buttons(
    browser: Browser, base_url: str, network: Network
) -> None:
    context, page = printed(browser, network, base_url + "/lessons/roofline-quiz/")
    quiz = page.locator("#quiz-1")
    expect(quiz).to_have_attribute("data-mounted", "true", timeout=30_000)
    questions = quiz.locator(".quiz-question")
    assert questions.count() == 6
    for index in range(6):
        expect(questions.nth(index)).to_be_visible()
    for index in range(6):
        assert questions.nth(index).evaluate("(node) => getComputedStyle(node).breakInside") == "avoid"
    for hidden in (".quiz-check", ".quiz-next", ".quiz-reset", ".quiz-feedback", ".quiz-score"):
        for node in quiz.locator(hidden).all():
            expect(node).to_be_hidden()
    context.close()


def test_a_quiz_answered_on_screen_prints_without_its_verdict(
    browser: Browser, base_url: str, network: Network
) -> None:
    """A reader who checked an answer prints the question, not the tick and explanation (the answer key)."""
    context = new_context(browser, network, viewport=A4_CONTENT)
    page = context.new_page()
    page.goto(base_url + "/lessons/roofline-quiz/")
    first = page.locator("#quiz-1-q1")
    expect(page.locator("#quiz-1")).to_have_attribute("data-mounted", "true", timeout=30_000)
    first.locator(".quiz-choice label").first.click()
    first.locator(".quiz-check").click()
    expect(first.locator(".quiz-feedback")).not_to_be_empty(timeout=30_000)
    page.emulate_media(media="print")
    expect(first.locator(".quiz-feedback")).to_be_hidden()
    for mark in first.locator(".quiz-mark").all():
        expect(mark).to_be_hidden()
    context.close()


def test_a_calculator_prints_as_inputs_and_results_without_controls(
    browser: Browser, base_url: str, network: Network
) -> None:
    context, page = printed(browser, network, base_url + "/lessons/roofline/")
    calculator = page.locator("#calc-1")
    expect(calculator.locator(".calc-outputs")).to_be_visible()
    for control in calculator.locator(CONTROLS).all():
        expect(control).to_be_hidden()
    field = calculator.locator("#calc-1-intensity")
    expect(field).to_be_visible()
    assert field.evaluate("(node) => getComputedStyle(node).borderTopStyle") == "none"  # a value, not a box
    assert calculator.evaluate("(node) => getComputedStyle(node).breakInside") == "avoid"
    # Compact: the form's fields take at most a third of the page's height.
    height = calculator.locator(".calc-fields").evaluate("(node) => node.getBoundingClientRect().height")
    assert height < A4_CONTENT["height"] / 3
    context.close()


def test_the_chip_comparison_prints_only_the_chips_compared(browser: Browser, base_url: str, network: Network) -> None:
    context, page = printed(browser, network, base_url + "/chapters/27-asics-and-accelerators/")
    chips = page.locator(".calc[data-calculator='compare'] .calc-choice").first.locator("xpath=ancestor::fieldset")
    ticked = chips.locator(".calc-choice:has(input:checked)")
    assert ticked.count() >= 2
    for choice in chips.locator(".calc-choice").all():
        checked = choice.locator("input").is_checked()
        expect(choice).to_be_visible() if checked else expect(choice).to_be_hidden()
    context.close()


def test_wide_tables_fit_the_page(browser: Browser, base_url: str, network: Network) -> None:
    """Chapter 27's TPU table keeps its last column (Power) on the page rather than cutting it at the edge."""
    context, page = printed(browser, network, base_url + "/chapters/27-asics-and-accelerators/")
    tables = page.locator("article table")
    assert tables.count() >= 2
    for table in tables.all():
        table.scroll_into_view_if_needed()
        inside = table.evaluate(
            "(node) => { const page = document.querySelector('article').getBoundingClientRect();"
            " const box = node.getBoundingClientRect(); return box.right <= page.right + 1 && node.scrollWidth <="
            " node.clientWidth + 1; }"
        )
        assert inside, table.locator("th").first.text_content()
    context.close()
