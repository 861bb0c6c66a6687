"""Printing, in Chromium with print media at an A4 page's width: quizzes show every question and no answers or
buttons, calculators a compact table of inputs and results without controls, blocks are kept whole, and wide tables
fit the page. (The PDFs themselves were looked at with page.pdf() and pdftoppm; see the contributing guide.)
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import Network, WarmContexts, warm_tab

pytestmark = pytest.mark.browser

A4_CONTENT = {"width": 718, "height": 1040}  # A4 at 96 px to the inch, less Chromium's default margins

# What a control is, on screen: none of these may print.
CONTROLS = "button, input[type=range], input[type=search], .calc-hint, .calc-status"


@pytest.fixture
def page(warm_contexts: WarmContexts, network: Network, base_url: str) -> Iterator[Page]:
    """Printing is not about a first visit: a new tab in the module's warm context at an A4 page's width."""
    with warm_tab(warm_contexts(viewport=A4_CONTENT), network, base_url) as page:
        yield page


def printed(page: Page, url: str) -> None:
    page.goto(url)
    page.emulate_media(media="print")


def test_a_quiz_prints_every_question_without_answers_or_buttons(page: Page, base_url: str) -> None:
    printed(page, base_url + "/lessons/roofline-quiz/")
    quiz = page.locator("#quiz-roofline-check")
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


def test_a_quiz_answered_on_screen_prints_without_its_verdict(page: Page, base_url: str) -> None:
    """A reader who checked an answer prints the question, not the tick and explanation (the answer key)."""
    page.goto(base_url + "/lessons/roofline-quiz/")
    first = page.locator("#quiz-roofline-check-q1")
    expect(page.locator("#quiz-roofline-check")).to_have_attribute("data-mounted", "true", timeout=30_000)
    first.locator(".quiz-choice label").first.click()
    first.locator(".quiz-check").click()
    expect(first.locator(".quiz-feedback")).not_to_be_empty(timeout=30_000)
    page.emulate_media(media="print")
    expect(first.locator(".quiz-feedback")).to_be_hidden()
    for mark in first.locator(".quiz-mark").all():
        expect(mark).to_be_hidden()


def test_a_calculator_prints_as_inputs_and_results_without_controls(page: Page, base_url: str) -> None:
    printed(page, base_url + "/lessons/roofline/")
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


def test_the_chip_comparison_prints_only_the_chips_compared(page: Page, base_url: str) -> None:
    printed(page, base_url + "/chapters/27-asics-and-accelerators/")
    chips = page.locator(".calc[data-calculator='compare'] .calc-choice").first.locator("xpath=ancestor::fieldset")
    ticked = chips.locator(".calc-choice:has(input:checked)")
    assert ticked.count() >= 2
    for choice in chips.locator(".calc-choice").all():
        checked = choice.locator("input").is_checked()
        expect(choice).to_be_visible() if checked else expect(choice).to_be_hidden()


def test_wide_tables_fit_the_page(page: Page, base_url: str) -> None:
    """Chapter 27's TPU table keeps its last column (Power) on the page rather than cutting it at the edge."""
    printed(page, base_url + "/chapters/27-asics-and-accelerators/")
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


def test_a_sort_question_prints_every_item_and_bucket_without_its_controls(page: Page, base_url: str) -> None:
    """The roofline quiz's second quiz sorts eight kernels into two buckets: on paper every kernel and both buckets'
    names show, and the instructions for picking and dragging, the Check button and the quiz's footer do not."""
    printed(page, base_url + "/lessons/roofline-quiz/")
    quiz = page.locator("#quiz-roofline-sort")
    quiz.scroll_into_view_if_needed()  # a quiz mounts as it nears the screen: this one is below the first's
    expect(quiz).to_have_attribute("data-mounted", "true", timeout=30_000)
    question = quiz.locator(".quiz-question[data-kind=sort]")
    assert question.count() == 1
    items = question.locator(".quiz-item")
    assert items.count() == 8
    for index in range(8):
        expect(items.nth(index)).to_be_visible()
    targets = question.locator(".quiz-target")
    expect(targets).to_have_text(["Not sorted yet", "Compute-bound", "Memory-bandwidth-bound"])
    for index in range(3):
        expect(targets.nth(index)).to_be_visible()
    for hidden in (".quiz-hint", ".quiz-check", ".quiz-retry", ".quiz-footer", ".quiz-note"):
        for node in quiz.locator(hidden).all():
            expect(node).to_be_hidden()
    assert question.locator(".quiz-sort").evaluate("(node) => getComputedStyle(node).breakInside") == "avoid"


def test_an_exercise_prints_its_statement_and_code_without_its_buttons(page: Page, base_url: str) -> None:
    """The first exercise, its editor loaded as a reader who reached it has it: the title, the prompt, the task and
    the code print, the Run, Check and Reset buttons and the status line do not."""
    printed(page, base_url + "/lessons/roofline-exercises/")
    exercise = page.locator("#exercise-attainable")
    expect(exercise).to_have_attribute("data-mounted", "true", timeout=30_000)
    exercise.hover()
    expect(exercise.locator(".cm-content")).to_contain_text("def attainable(peak_tflops, bandwidth_tbs, intensity):")
    for shown in (".exercise-title", ".exercise-prompt", ".exercise-task", ".exercise-editor", ".cm-content"):
        expect(exercise.locator(shown)).to_be_visible()
    expect(exercise.locator(".exercise-run")).to_be_attached()
    for hidden in (".exercise-run", ".exercise-check", ".exercise-reset", ".exercise-status"):
        expect(exercise.locator(hidden)).to_be_hidden()
    assert exercise.locator("button:visible").count() == 0


@pytest.mark.parametrize(
    ("path", "title"),
    [
        ("/lessons/roofline/", "#calc-1 .calc-title"),
        ("/lessons/roofline-quiz/", "#quiz-roofline-check .quiz-title"),
        ("/lessons/roofline-exercises/", "#exercise-attainable .exercise-title"),
    ],
)
def test_a_blocks_title_is_not_left_alone_at_a_page_foot(page: Page, base_url: str, path: str, title: str) -> None:
    """A block's title keeps to what follows it: were the block split over two pages (taller than one), its title
    would not end the first page alone."""
    printed(page, base_url + path)
    node = page.locator(title)
    expect(node).to_be_visible()
    assert node.evaluate("(node) => getComputedStyle(node).breakAfter") == "avoid"


def test_the_chip_database_table_fits_the_page(page: Page, base_url: str) -> None:
    """The chip database's table (every chip, twelve columns) prints within the A4 page's width: its last column,
    the price per chip-hour, is on the page rather than cut at its edge or scrolled out of its box."""
    printed(page, base_url + "/reference/chips/")
    table = page.locator("article table.calc-table").first
    headings = table.locator("thead th")
    assert headings.count() == 12
    expect(headings.last).to_contain_text("Price per chip-hour")
    table.scroll_into_view_if_needed()
    inside = table.evaluate(
        """(node) => {
            const page = document.querySelector('article').getBoundingClientRect();
            const wrap = node.closest('.calc-table-wrap');
            const last = node.querySelector('thead th:last-child').getBoundingClientRect();
            return { table: node.getBoundingClientRect().right <= page.right + 1, last: last.right <= page.right + 1,
              wrap: wrap.scrollWidth <= wrap.clientWidth + 1, within: page.right <= innerWidth };
        }"""
    )
    assert inside == {"table": True, "last": True, "wrap": True, "within": True}


def test_the_reference_pages_tables_print_whole(page: Page, base_url: str) -> None:
    """Off screen, the page of every calculator skips its tables (content-visibility); printed, every one is laid out:
    the last table's last row, many screens down, has its height on paper."""
    printed(page, base_url + "/reference/calculators/")
    boxes = page.locator(".calc-reference-table")
    assert boxes.count() >= 38
    last_row = boxes.last.locator("tbody tr").last
    laid_out = last_row.evaluate(
        "(row) => [row.checkVisibility({ contentVisibilityAuto: true }), row.getBoundingClientRect().height]"
    )
    assert laid_out[0] is True and laid_out[1] > 20, laid_out
