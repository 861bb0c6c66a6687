"""Quizzes in Chromium: answered by mouse, touch and keyboard; scored; saved and restored; sorted; new numbers.

The answers come from each quiz's own answer key on the page (what the build computed), so the tests follow the
book's questions as authors edit them; "new numbers" is checked against CPython's calculator.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Dialog, Page, expect

from calckit.api import run
from calckit.units import format_number
from tests.browser.calculator_page import follow_instantly, present, wait_mounted
from tests.browser.conftest import Network, WarmContexts, new_context, warm_tab

pytestmark = pytest.mark.browser

PAGE = "/lessons/roofline-quiz/"
CHECK = "#quiz-roofline-check"  # single choice, multiple choice and numeric questions
SORT = "#quiz-roofline-sort"  # one sort exercise
BOOT_TIMEOUT = 60_000  # a cold Pyodide boot on a busy 2-core machine


@pytest.fixture
def page(warm_page: Page) -> Page:
    """Answering a quiz is not about a first visit: each test is a new
    tab in the module's warm context (conftest's warm_page)."""
    return warm_page


def open_quiz(page: Page, url: str) -> None:
    page.goto(url)
    wait_mounted(page, SORT)
    wait_mounted(page, CHECK)


def answer_key(page: Page, quiz: str) -> list[dict[str, Any]]:
    """The questions' grading data that the build put in the page."""
    questions: list[dict[str, Any]] = json.loads(present(page.get_attribute(quiz, "data-quiz-data")))["questions"]
    return questions


def question(quiz: str, number: int) -> str:
    return f"{quiz}-q{number}"


def visible_question(page: Page, quiz: str) -> str:
    """The counter of the question the quiz shows now: 'Question N of M'."""
    return present(page.locator(f"{quiz} .quiz-question:visible .quiz-counter").text_content())


def first_index(key: dict[str, Any], correct: bool) -> int:
    """The first choice that is (or is not) correct."""
    return next(i for i in range(key["choices"]) if (i in key["correct"]) is correct)


def shown_choices(page: Page, box: str) -> list[int]:
    """The indices (in the author's order) of a question's choices, in the order the page shows them."""
    shown: list[int] = page.eval_on_selector_all(f"{box} .quiz-choice", "els => els.map(e => Number(e.dataset.choice))")
    return shown


def template_text(page: Page, selector: str) -> str:
    """The text of an explanation the build left in a <template> (blocks/quiz/render.py), as the author wrote it."""
    text: str = page.eval_on_selector(selector, "t => t.content.textContent")
    assert text.strip(), f"{selector} is empty"
    return text


def verdict(page: Page, box: str) -> str:
    """The question's verdict line: '✓ Correct.' or '✗ Not quite.'."""
    return present(page.text_content(f"{box} .quiz-feedback .quiz-verdict"))


def score(page: Page, quiz: str) -> str:
    return present(page.text_content(f"{quiz} .quiz-score"))


def sort_items(page: Page) -> list[tuple[str, str]]:
    """Each item's text and the bucket text it belongs in, from the answer key."""
    (key,) = answer_key(page, SORT)
    texts = page.eval_on_selector_all(
        f"{SORT} .quiz-slot", "els => els.map(e => [Number(e.dataset.item), e.querySelector('.quiz-item').textContent])"
    )
    return [(text, key["buckets"][key["items"][index]["bucket"]]) for index, text in sorted(texts)]


def target(quiz: str, bucket: str) -> str:
    return f"{quiz} .quiz-target:text-is('{bucket}')"


def item(quiz: str, text: str) -> str:
    """The item whose whole text is `text` (an item may hold `code`, which :text-is() would look into instead:
    this is the exact has-text filter that Playwright's locator.filter writes)."""
    return f"{quiz} .quiz-item >> internal:has-text={json.dumps(text)}s"


def placed(page: Page) -> dict[str, str]:
    """Where each item is now: item text -> the text of its zone's target."""
    where: dict[str, str] = page.eval_on_selector_all(
        f"{SORT} .quiz-item",
        "els => Object.fromEntries(els.map(e => [e.textContent, "
        "e.closest('.quiz-zone').querySelector('.quiz-target').textContent]))",
    )
    return where


class TestByMouse:
    def test_wrong_then_try_again_then_right(self, page: Page, base_url: str) -> None:
        """A wrong choice gets 'Not quite.', its own explanation and the question's; Try again, then the right one."""
        open_quiz(page, base_url + PAGE)
        key = answer_key(page, CHECK)[0]
        first = question(CHECK, 1)
        assert visible_question(page, CHECK) == f"Question 1 of {len(answer_key(page, CHECK))}"
        wrong = first_index(key, correct=False)
        page.click(f"{first} .quiz-choice[data-choice='{wrong}']")
        page.click(f"{first} .quiz-check")
        feedback = page.locator(f"{first} .quiz-feedback")
        assert feedback.locator(".quiz-verdict").text_content() == "✗ Not quite."
        explanation = template_text(page, f"{first} template.quiz-explanation")
        assert feedback.locator(".quiz-explanation").text_content() == explanation
        mark = page.locator(f"{first} .quiz-choice[data-choice='{wrong}']").locator(".quiz-mark")
        why = template_text(page, f"{first} .quiz-choice[data-choice='{wrong}'] template.quiz-why")
        assert mark.text_content() == "✗ Not a right answer." + why
        assert score(page, CHECK).startswith("Score: 0 of ")
        assert page.is_disabled(f"{first} .quiz-choice input >> nth=0")
        page.click(f"{first} .quiz-retry")
        assert page.is_hidden(f"{first} .quiz-retry") and page.is_visible(f"{first} .quiz-check")
        assert page.is_hidden(f"{first} .quiz-choice[data-choice='{wrong}'] .quiz-mark")
        page.click(f"{first} .quiz-choice[data-choice='{first_index(key, correct=True)}']")
        page.click(f"{first} .quiz-check")
        assert feedback.locator(".quiz-verdict").text_content() == "✓ Correct."
        assert score(page, CHECK).startswith("Score: 1 of ")

    def test_multiple_choice_needs_every_right_answer(self, page: Page, base_url: str) -> None:
        open_quiz(page, base_url + PAGE)
        keys = answer_key(page, CHECK)
        number = next(n for n, key in enumerate(keys, 1) if key["kind"] == "multiple")
        for _ in range(number - 1):
            page.click(f"{CHECK} .quiz-next")
        assert visible_question(page, CHECK) == f"Question {number} of {len(keys)}"
        box = question(CHECK, number)
        right = keys[number - 1]["correct"]
        page.click(f"{box} .quiz-check")  # nothing chosen yet
        assert page.text_content(f"{box} .quiz-feedback") == "Choose at least one answer first."
        page.click(f"{box} .quiz-choice[data-choice='{right[0]}']")
        page.click(f"{box} .quiz-check")
        assert verdict(page, box) == "✗ Not quite."
        assert f"1 of your 1 choice is right; there are {len(right)} right answers." in present(
            page.text_content(f"{box} .quiz-feedback")
        )
        page.click(f"{box} .quiz-retry")
        for index in right[1:]:
            page.click(f"{box} .quiz-choice[data-choice='{index}']")
        page.click(f"{box} .quiz-check")
        assert verdict(page, box) == "✓ Correct."


class TestByKeyboard:
    def test_choose_check_and_move_on_with_keys(self, page: Page, base_url: str) -> None:
        """Arrow keys choose, Tab reaches Check, Enter checks; Tab and Enter on Next show and focus question 2."""
        open_quiz(page, base_url + PAGE)
        key = answer_key(page, CHECK)[0]
        first = question(CHECK, 1)
        page.focus(f"{first} .quiz-choice input >> nth=0")
        page.keyboard.press("Space")
        for _ in range(shown_choices(page, first).index(first_index(key, correct=True))):
            page.keyboard.press("ArrowDown")
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.textContent") == "Check"
        page.keyboard.press("Enter")
        assert verdict(page, first) == "✓ Correct."
        assert page.evaluate("document.activeElement.textContent") == "Try again"
        page.keyboard.press("Tab")  # Previous is disabled on the first question
        assert page.evaluate("document.activeElement.textContent") == "Next"
        page.keyboard.press("Enter")
        assert visible_question(page, CHECK).startswith("Question 2 of ")
        assert page.evaluate("document.activeElement.id") == f"{question(CHECK, 2)[1:]}-legend"

    def test_numeric_answer_typed_and_submitted_with_enter(self, page: Page, base_url: str) -> None:
        open_quiz(page, base_url + PAGE)
        keys = answer_key(page, CHECK)
        number = next(n for n, key in enumerate(keys, 1) if key["kind"] == "numeric")
        for _ in range(number - 1):
            page.click(f"{CHECK} .quiz-next")
        box = question(CHECK, number)
        page.focus(f"{box} input")
        page.keyboard.type("a lot")
        page.keyboard.press("Enter")
        unit = keys[number - 1]["unit"]
        assert page.text_content(f"{box} .quiz-feedback") == f"Write your answer as a number in {unit}, such as 12.5."
        page.fill(f"{box} input", "")
        page.keyboard.type(f"{keys[number - 1]['answer']:.4g} {keys[number - 1]['unit']}")
        page.keyboard.press("Enter")
        assert verdict(page, box) == "✓ Correct."
        assert f"The answer is {keys[number - 1]['answer_text']}." in present(
            page.text_content(f"{box} .quiz-feedback")
        )

    def test_numeric_answers_with_a_decimal_comma_or_another_prefix(self, page: Page, base_url: str) -> None:
        """49,14 is 49.14; 49140 GFLOP/s and 0.04914 PFLOP/s are TFLOP/s with another prefix, converted; a unit the
        answer cannot be in says which one it is in (the issue's cases: each was refused or marked wrong)."""
        open_quiz(page, base_url + PAGE)
        keys = answer_key(page, CHECK)
        number = next(n for n, key in enumerate(keys, 1) if key["kind"] == "numeric" and key["unit"] == "TFLOP/s")
        for _ in range(number - 1):
            page.click(f"{CHECK} .quiz-next")
        box = question(CHECK, number)
        answer = keys[number - 1]["answer"]
        typed = [
            f"{answer:.4f}".replace(".", ","),
            f"{answer * 1000:.1f} GFLOP/s",
            f"{answer / 1000:.7f} PFLOP/s",
            f"{answer:.3f}TFLOPS",
        ]
        for text in typed:
            page.fill(f"{box} input", text)
            page.click(f"{box} .quiz-check")
            assert verdict(page, box) == "✓ Correct.", text
            page.click(f"{box} .quiz-retry")
        page.fill(f"{box} input", f"{answer:.2f} GB/s")
        page.click(f"{box} .quiz-check")
        expect(page.locator(f"{box} .quiz-feedback")).to_have_text(
            "“GB/s” is not a unit this answer can be in: write it in TFLOP/s, or with another prefix, such as GFLOP/s."
        )
        page.fill(f"{box} input", "1,2,3")
        page.click(f"{box} .quiz-check")
        expect(page.locator(f"{box} .quiz-feedback")).to_have_text(
            "Write the decimals after a point, such as 1.5; a comma only groups thousands, as in 1,400,000."
        )


class TestByTouch:
    @pytest.fixture
    def page(self, warm_contexts: WarmContexts, network: Network, base_url: str) -> Iterator[Page]:
        """A new tab in the module's warm context on a 390 px touch screen (conftest's warm_tab)."""
        phone = warm_contexts(has_touch=True, is_mobile=True, viewport={"width": 390, "height": 844})
        with warm_tab(phone, network, base_url) as page:
            yield page

    def test_tap_to_answer_on_a_phone(self, page: Page, base_url: str) -> None:
        """On a 390 px touch screen: tap a choice and Check; tap an item then its bucket; no sideways scrolling."""
        open_quiz(page, base_url + PAGE)
        key = answer_key(page, CHECK)[0]
        first = question(CHECK, 1)
        page.tap(f"{first} .quiz-choice[data-choice='{first_index(key, correct=True)}'] label")
        page.tap(f"{first} .quiz-check")
        assert verdict(page, first) == "✓ Correct."
        for text, bucket in sort_items(page):
            page.tap(item(SORT, text))
            assert page.get_attribute(item(SORT, text), "aria-pressed") == "true"
            page.tap(target(SORT, bucket))
        assert placed(page) == dict(sort_items(page))
        page.tap(f"{SORT} .quiz-check")
        assert verdict(page, SORT) == "✓ Correct."
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        small = page.eval_on_selector_all(
            ".quiz button:visible, .quiz label:visible, .quiz input[type=text]:visible",
            "els => els.filter(e => e.getBoundingClientRect().height < 44).map(e => e.outerHTML.slice(0, 80))",
        )
        assert small == []

    def test_a_tap_in_a_buckets_area_drops_there(self, page: Page, base_url: str) -> None:
        open_quiz(page, base_url + PAGE)
        text, bucket = sort_items(page)[0]
        page.tap(item(SORT, text))
        zone = page.locator(f"{SORT} .quiz-bucket", has=page.locator(f".quiz-target:text-is('{bucket}')"))
        zone.scroll_into_view_if_needed()
        box = present(zone.bounding_box())
        page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] - 8)
        assert placed(page)[text] == bucket


class TestSortExercise:
    def test_drag_with_a_mouse(self, page: Page, base_url: str) -> None:
        """Each item dragged onto its bucket lands there; Check says every item is right, item by item."""
        page.set_viewport_size({"width": 1280, "height": 1100})
        open_quiz(page, base_url + PAGE)
        page.eval_on_selector(SORT, "element => element.scrollIntoView({behavior: 'instant'})")
        items = sort_items(page)
        for text, bucket in items:
            start = present(page.locator(item(SORT, text)).bounding_box())
            end = present(page.locator(target(SORT, bucket)).bounding_box())
            page.mouse.move(start["x"] + 10, start["y"] + start["height"] / 2)
            page.mouse.down()
            page.mouse.move(end["x"] + 20, end["y"] + end["height"] / 2, steps=8)
            page.mouse.up()
            assert placed(page)[text] == bucket
            assert page.get_attribute(item(SORT, text), "aria-pressed") == "false"
        page.click(f"{SORT} .quiz-check")
        assert verdict(page, SORT) == "✓ Correct."
        details = page.text_content(f"{SORT} .quiz-detail")
        assert details == f"{len(items)} of {len(items)} items are in the right bucket."
        marks = page.locator(f"{SORT} .quiz-slot .quiz-verdict").all_text_contents()
        assert marks == ["✓ Right bucket."] * len(items)

    def test_enter_picks_an_item_right_after_a_drag(self, page: Page, base_url: str) -> None:
        """The click that ends a drag is swallowed, and only that one: the next Enter on an item picks it up."""
        page.set_viewport_size({"width": 1280, "height": 1100})
        open_quiz(page, base_url + PAGE)
        page.eval_on_selector(SORT, "element => element.scrollIntoView({behavior: 'instant'})")
        (text, bucket), (other, _) = sort_items(page)[:2]
        start = present(page.locator(item(SORT, text)).bounding_box())
        end = present(page.locator(target(SORT, bucket)).bounding_box())
        page.mouse.move(start["x"] + 10, start["y"] + start["height"] / 2)
        page.mouse.down()
        page.mouse.move(end["x"] + 20, end["y"] + end["height"] / 2, steps=8)
        page.mouse.up()
        assert placed(page)[text] == bucket
        page.focus(item(SORT, other))
        page.keyboard.press("Enter")
        assert page.get_attribute(item(SORT, other), "aria-pressed") == "true"

    def test_a_drag_that_ends_outside_a_bucket_changes_nothing(self, page: Page, base_url: str) -> None:
        open_quiz(page, base_url + PAGE)
        page.eval_on_selector(SORT, "element => element.scrollIntoView({behavior: 'instant'})")
        text, _ = sort_items(page)[0]
        start = present(page.locator(item(SORT, text)).bounding_box())
        page.mouse.move(start["x"] + 10, start["y"] + 10)
        page.mouse.down()
        page.mouse.move(5, 5, steps=5)
        page.mouse.up()
        assert placed(page)[text] == "Not sorted yet"

    def test_wrong_items_are_marked_with_their_explanation(self, page: Page, base_url: str) -> None:
        open_quiz(page, base_url + PAGE)
        items = sort_items(page)
        buckets = sorted({bucket for _, bucket in items})
        for index, (text, bucket) in enumerate(items):
            other = next(name for name in buckets if name != bucket)
            page.click(item(SORT, text))
            page.click(target(SORT, other if index == 0 else bucket))
        page.click(f"{SORT} .quiz-check")
        assert verdict(page, SORT) == "✗ Not quite."
        first_mark = page.locator(f"{SORT} .quiz-slot", has=page.locator(item("", items[0][0]).lstrip())).locator(
            ".quiz-mark"
        )
        why = template_text(page, f"{SORT} .quiz-slot[data-item='0'] template.quiz-why")
        assert first_mark.text_content() == "✗ Not this bucket." + why
        assert f"{len(items) - 1} of {len(items)} items" in present(page.text_content(f"{SORT} .quiz-feedback"))

    def test_sort_by_keyboard_with_every_move_announced(self, page: Page, base_url: str) -> None:
        """Enter picks an item, arrows reach a bucket, Enter drops and moves on; Escape cancels; all announced."""
        open_quiz(page, base_url + PAGE)
        items = [sort_items(page)[index] for index in shown_orders(page)[question(SORT, 1)[1:]]]  # as shown
        order = page.locator(f"{SORT} .quiz-bucket .quiz-target").all_text_contents()
        announcer = page.locator(f"{SORT} .quiz-announce")
        page.focus(item(SORT, items[0][0]))
        page.keyboard.press("Enter")
        # Each announcement is written in the next animation frame (quiz.js, announce): waited for, whole.
        expect(announcer).to_have_text(
            f"Picked up “{items[0][0]}”. Choose its bucket: {' or '.join(order)}. Escape cancels."
        )
        page.keyboard.press("ArrowRight")
        page.keyboard.press("Escape")
        assert page.get_attribute(item(SORT, items[0][0]), "aria-pressed") == "false"
        assert page.evaluate("document.activeElement.textContent") == items[0][0]
        expect(announcer).to_have_text(f"“{items[0][0]}” stays in Not sorted yet.")
        for left, (text, bucket) in enumerate(items, start=1):
            assert page.evaluate("document.activeElement.textContent") == text  # focus moved on by itself
            page.keyboard.press("Space")
            for _ in range(order.index(bucket) + 1):
                page.keyboard.press("ArrowRight")
            assert page.evaluate("document.activeElement.textContent") == bucket
            page.keyboard.press("Enter")
            rest = (
                f"{len(items) - left} left to sort."
                if left < len(items)
                else "Every item is placed: check your answer."
            )
            expect(announcer).to_have_text(f"“{text}” placed in {bucket}. {rest}")
        assert placed(page) == dict(items)
        assert page.evaluate("document.activeElement.textContent") == "Check"
        page.keyboard.press("Enter")
        assert verdict(page, SORT) == "✓ Correct."


def shown_orders(page: Page) -> dict[str, list[int]]:
    """Every choice question's and sort pool's options on the page, in the order shown, by question element id."""
    orders: dict[str, list[int]] = page.eval_on_selector_all(
        ".quiz-question",
        """forms => Object.fromEntries(forms.map(form => [form.id,
            [...form.querySelectorAll('.quiz-choice, .quiz-pool .quiz-slot')]
                .map(e => Number(e.dataset.choice ?? e.dataset.item))]))""",
    )
    return orders


class TestOptionOrder:
    """Each reader sees the options in an order of their own, the same across reloads; it never gives answers away."""

    def reader(self, browser: Browser, network: Network, seed: str) -> Any:
        context = new_context(browser, network)
        context.add_init_script(f"localStorage.setItem('quiz-order-seed', '{seed}')")
        return context

    def test_an_order_of_the_readers_own_that_survives_a_reload(
        self, browser: Browser, network: Network, base_url: str
    ) -> None:
        orders = {}
        for seed in ("7", "8"):
            context = self.reader(browser, network, seed)
            page = context.new_page()
            open_quiz(page, base_url + PAGE)
            orders[seed] = shown_orders(page)
            page.reload()
            open_quiz(page, base_url + PAGE)
            assert shown_orders(page) == orders[seed]
            context.close()
        assert orders["7"] != orders["8"]
        assert network.foreign == []

    @pytest.mark.parametrize("seed", ["1", "2"])
    def test_always_picking_the_first_option_is_no_better_than_chance(
        self, browser: Browser, network: Network, base_url: str, seed: str
    ) -> None:
        """Over every choice question of the book, the first option shown is right about as often as luck allows."""
        context = self.reader(browser, network, seed)
        page = context.new_page()
        first_right = total = 0
        chance = 0.0
        for path in (PAGE, "/lessons/102-ai-accelerators/"):
            page.goto(base_url + path)
            wait_mounted(page, ".quiz")
            for quiz in page.eval_on_selector_all(".quiz", "els => els.map(e => '#' + e.id)"):
                orders = shown_orders(page)
                for number, key in enumerate(answer_key(page, quiz), 1):
                    if key["kind"] not in ("single", "multiple"):
                        continue
                    total += 1
                    chance += len(key["correct"]) / key["choices"]
                    first_right += orders[question(quiz, number)[1:]][0] in key["correct"]
        context.close()
        assert total >= 20
        assert first_right <= chance + 3

    def test_a_sort_restored_from_progress_keeps_the_readers_order(
        self, browser: Browser, network: Network, base_url: str
    ) -> None:
        context = self.reader(browser, network, "3")
        page = context.new_page()
        open_quiz(page, base_url + PAGE)
        pool = shown_orders(page)[question(SORT, 1)[1:]]
        text, bucket = sort_items(page)[pool[0]]
        page.click(item(SORT, text))
        page.click(target(SORT, bucket))
        page.reload()
        open_quiz(page, base_url + PAGE)
        assert placed(page)[text] == bucket
        assert shown_orders(page)[question(SORT, 1)[1:]] == pool[1:]
        context.close()


class TestProgress:
    def test_score_and_answers_survive_a_reload(self, page: Page, base_url: str) -> None:
        """Answers, verdicts, the question on show and the score come back; each quiz keeps its own."""
        open_quiz(page, base_url + PAGE)
        keys = answer_key(page, CHECK)
        page.click(f"{question(CHECK, 1)} .quiz-choice[data-choice='{first_index(keys[0], correct=True)}']")
        page.click(f"{question(CHECK, 1)} .quiz-check")
        page.click(f"{CHECK} .quiz-next")
        page.click(f"{question(CHECK, 2)} .quiz-choice[data-choice='{first_index(keys[1], correct=False)}']")
        page.click(f"{question(CHECK, 2)} .quiz-check")
        text, bucket = sort_items(page)[0]
        page.click(item(SORT, text))
        page.click(target(SORT, bucket))
        page.reload()
        open_quiz(page, base_url + PAGE)
        assert visible_question(page, CHECK) == f"Question 2 of {len(keys)}"
        assert score(page, CHECK) == f"Score: 1 of {len(keys)}"
        assert verdict(page, question(CHECK, 2)) == "✗ Not quite."
        assert page.is_checked(
            f"{question(CHECK, 2)} .quiz-choice[data-choice='{first_index(keys[1], correct=False)}'] input"
        )
        assert verdict(page, question(CHECK, 1)) == "✓ Correct."
        assert placed(page)[text] == bucket
        assert score(page, SORT) == "Score: 0 of 1"
        stored = page.evaluate("Object.keys(localStorage).filter(k => k.includes('|quiz:')).sort()")
        assert stored == [  # keyed by the site's path (here the root), then the page and the quiz (progress.js)
            "calculators-progress:/|quiz:docs/lessons/roofline-quiz.md#roofline-check",
            "calculators-progress:/|quiz:docs/lessons/roofline-quiz.md#roofline-sort",
        ]
        page.click(f"{CHECK} .quiz-reset")
        assert visible_question(page, CHECK) == f"Question 1 of {len(keys)}"
        assert score(page, CHECK) == f"Score: 0 of {len(keys)}"
        assert page.is_visible(f"{question(CHECK, 1)} .quiz-check")
        assert placed(page)[text] == bucket  # the other quiz keeps its progress
        page.reload()
        open_quiz(page, base_url + PAGE)
        assert score(page, CHECK) == f"Score: 0 of {len(keys)}"

    def test_a_reset_can_be_undone(self, page: Page, base_url: str) -> None:
        """Reset quiz clears every answer at once, so it offers Undo (focused); Undo brings all of it back, saved."""
        open_quiz(page, base_url + PAGE)
        keys = answer_key(page, CHECK)
        page.click(f"{question(CHECK, 1)} .quiz-choice[data-choice='{first_index(keys[0], correct=True)}']")
        page.click(f"{question(CHECK, 1)} .quiz-check")
        page.click(f"{CHECK} .quiz-next")
        page.focus(f"{CHECK} .quiz-reset")
        page.keyboard.press("Enter")
        assert score(page, CHECK) == f"Score: 0 of {len(keys)}"
        assert page.text_content(f"{CHECK} .quiz-undo [role=status]") == "Every answer was cleared."
        assert page.evaluate("document.activeElement.textContent") == "Undo reset"
        page.keyboard.press("Enter")
        assert score(page, CHECK) == f"Score: 1 of {len(keys)}"
        assert page.is_hidden(f"{CHECK} .quiz-undo")
        assert visible_question(page, CHECK) == f"Question 2 of {len(keys)}"
        page.reload()
        open_quiz(page, base_url + PAGE)
        assert score(page, CHECK) == f"Score: 1 of {len(keys)}"
        assert verdict(page, question(CHECK, 1)) == "✓ Correct."

    def test_progress_survives_instant_navigation(self, page: Page, base_url: str) -> None:
        """Leaving through Material's instant navigation and coming back remounts the quiz with its answers."""
        open_quiz(page, base_url + PAGE)
        key = answer_key(page, CHECK)[0]
        page.click(f"{question(CHECK, 1)} .quiz-choice[data-choice='{first_index(key, correct=True)}']")
        page.click(f"{question(CHECK, 1)} .quiz-check")
        page.evaluate("window.stayedOnThisDocument = true")
        follow_instantly(page, "a.md-header__button.md-logo", base_url + "/")
        follow_instantly(page, f"nav a[href$='{PAGE.strip('/').split('/')[-1]}/']", base_url + PAGE)
        wait_mounted(page, CHECK)
        assert page.evaluate("window.stayedOnThisDocument") is True  # no full reload happened
        assert verdict(page, question(CHECK, 1)) == "✓ Correct."
        page.click(f"{CHECK} .quiz-next")  # and the remounted quiz still answers
        assert visible_question(page, CHECK).startswith("Question 2 of ")


def expected_answer(inputs: dict[str, Any], output: str, unit: str) -> float:
    """The answer CPython's calculator gives for these inputs, in the question's unit."""
    result = run("roofline", inputs)
    assert result["ok"], result
    value = float(next(o["value"] for o in result["outputs"] if o["key"] == output))
    return value / {"TFLOP/s": 1e12, "FLOP/byte": 1.0}[unit]


class TestMarkdown:
    def test_an_explanation_shows_its_formula_typeset_and_code_stays_code(self, page: Page, base_url: str) -> None:
        """The author wrote `$I^* = P / B$` in an explanation: after a Check it is KaTeX's typeset formula (MathML for
        a screen reader, drawn glyphs for the eye), not dollars; a sort item written as `code` is code, and a move
        announces its words once."""
        open_quiz(page, base_url + PAGE)
        first = question(CHECK, 1)
        page.click(f"{first} .quiz-choice[data-choice='{first_index(answer_key(page, CHECK)[0], correct=True)}']")
        page.click(f"{first} .quiz-check")
        math = page.locator(f"{first} .quiz-feedback .quiz-explanation .katex")
        expect(math).to_have_count(1)
        assert math.locator("annotation").text_content() == "I^* = P / B"
        assert math.locator(".katex-html").is_visible() and "$" not in present(math.text_content())
        code = page.locator(f"{SORT} .quiz-item code")
        expect(code).to_have_count(1)
        assert code.text_content() == "x + y"
        written = page.locator(f"{SORT} .quiz-item", has=page.locator("code"))
        item_text = present(written.text_content())
        assert item_text == "x + y on two long vectors, element by element"
        written.press("Enter")
        expect(page.locator(f"{SORT} .quiz-announce")).to_contain_text(f"Picked up “{item_text}”. Choose its bucket")


class TestNewNumbers:
    def test_a_variant_is_graded_against_cpythons_calculator(self, page: Page, base_url: str) -> None:
        """New numbers come from the worker; the right answer for them is what CPython computes, and it sticks."""
        open_quiz(page, base_url + PAGE)
        keys = answer_key(page, CHECK)
        number = next(n for n, key in enumerate(keys, 1) if key["kind"] == "numeric" and key["variant"])
        key = keys[number - 1]
        for _ in range(number - 1):
            page.click(f"{CHECK} .quiz-next")
        box = question(CHECK, number)
        before = page.get_attribute(box, "data-inputs")
        values_before = page.locator(f"{box} .quiz-value").all_text_contents()
        page.click(f"{box} .quiz-new")
        page.wait_for_function(
            "([box, before]) => document.querySelector(box).dataset.inputs !== before",
            arg=[box, before],
            timeout=BOOT_TIMEOUT,
        )
        inputs = json.loads(present(page.get_attribute(box, "data-inputs")))
        output = key["variant"]["answer"]["output"]
        answer = expected_answer(inputs, output, key["unit"])
        assert inputs != json.loads(present(before))
        expect(page.locator(f"{box} .quiz-text")).to_contain_text(f"{float(inputs['intensity']):,.0f} FLOPs")
        # Only the varied value changed, in its place in the question's HTML (peak, bandwidth, intensity).
        values = page.locator(f"{box} .quiz-value").all_text_contents()
        assert values == [*values_before[:2], f"{float(inputs['intensity']):,.0f}"] != values_before
        expect(page.locator(f"{box} .quiz-feedback")).to_have_text("New numbers: read the question again.")
        page.fill(f"{box} input", f"{answer * 1.5:.4g}")
        page.click(f"{box} .quiz-check")
        assert verdict(page, box) == "✗ Not quite."
        page.click(f"{box} .quiz-retry")
        page.fill(f"{box} input", f"{answer:.4g}")
        page.click(f"{box} .quiz-check")
        assert verdict(page, box) == "✓ Correct."
        assert f"The answer is {format_number(answer, key['unit'])}." in present(
            page.text_content(f"{box} .quiz-feedback")
        )
        text = page.text_content(f"{box} .quiz-text")
        page.reload()
        open_quiz(page, base_url + PAGE)
        assert page.text_content(f"{box} .quiz-text") == text  # the variant is saved with the answer
        assert json.loads(present(page.get_attribute(box, "data-inputs"))) == inputs
        assert verdict(page, box) == "✓ Correct."


class TestAccessibility:
    @pytest.fixture
    def page(self, warm_contexts: WarmContexts, network: Network, base_url: str, scheme: str) -> Iterator[Page]:
        """A new tab in the module's warm context in the colour scheme (conftest's warm_tab)."""
        with warm_tab(warm_contexts(color_scheme=scheme), network, base_url) as page:
            yield page

    @pytest.mark.parametrize("scheme", ["light", "dark"])
    def test_axe_finds_nothing_with_feedback_shown(self, page: Page, base_url: str) -> None:
        """axe-core reports no violation on the quiz page, with verdicts and marks on screen, in both schemes."""
        from tests.support import NODE_MODULES

        open_quiz(page, base_url + PAGE)
        key = answer_key(page, CHECK)[0]
        page.click(f"{question(CHECK, 1)} .quiz-choice[data-choice='{first_index(key, correct=False)}']")
        page.click(f"{question(CHECK, 1)} .quiz-check")
        items = sort_items(page)
        for index, (text, bucket) in enumerate(items):
            other = next(name for _, name in items if name != bucket)
            page.click(item(SORT, text))
            page.click(target(SORT, bucket if index else other))  # one wrong, to show both marks
        page.click(f"{SORT} .quiz-check")
        page.evaluate("document.activeElement.blur()")
        page.add_script_tag(path=str(NODE_MODULES / "axe-core/axe.min.js"))
        violations = page.evaluate(
            "async () => (await axe.run(document)).violations.map(v => ({id: v.id, impact: v.impact, "
            "nodes: v.nodes.map(n => n.target.join(' '))}))"
        )
        assert violations == []


EVIL = "<script>alert(1)</script> <img src=x onerror=alert(2)>"
HOSTILE = f"""# Hostile

```quiz
id: hostile
title: '{EVIL}'
questions:
  - kind: single
    text: '{EVIL}'
    explanation: '{EVIL}'
    choices:
      - text: '{EVIL}'
        explanation: '{EVIL}'
      - text: right
        correct: true
  - kind: sort
    text: '{EVIL}'
    buckets: [{{id: a, text: '{EVIL}'}}, {{id: b, text: B}}]
    items: [{{text: '{EVIL}', bucket: b, explanation: '{EVIL}'}}]
```
"""


class TestEscaping:
    def test_author_html_stays_text_in_the_browser(
        self, browser: Browser, tmp_path_factory: pytest.TempPathFactory
    ) -> None:
        """R6 end to end: the script sets author text as text, so feedback shows the markup and runs none of it."""
        from tests.support import NODE_MODULES, build_site, serve

        root = tmp_path_factory.mktemp("hostile")
        (root / "docs").mkdir()
        (root / "docs/index.md").write_text(HOSTILE, encoding="utf-8")
        config: dict[str, Any] = {"site_name": "Hostile", "theme": {"name": "material", "font": False}}
        config["plugins"] = [{"calculators": {"node_modules": str(NODE_MODULES)}}]
        (root / "mkdocs.yml").write_text(json.dumps(config), encoding="utf-8")
        result = build_site(root / "mkdocs.yml", root / "site")
        assert result.returncode == 0, result.stderr
        with serve(root / "site") as url:
            network = Network(url)
            context = new_context(browser, network)
            page = context.new_page()
            dialogs: list[str] = []

            def dismiss(dialog: Dialog) -> None:
                dialogs.append(dialog.message)
                dialog.dismiss()

            page.on("dialog", dismiss)
            page.goto(url + "/")
            wait_mounted(page, "#quiz-hostile")
            page.click("#quiz-hostile-q1 .quiz-choice[data-choice='0']")  # the one with an explanation
            page.click("#quiz-hostile-q1 .quiz-check")
            assert page.text_content("#quiz-hostile-q1 .quiz-explanation") == EVIL
            assert page.text_content("#quiz-hostile-q1 .quiz-why") == EVIL
            page.click("#quiz-hostile .quiz-next")
            page.click("#quiz-hostile-q2 .quiz-slot[data-item='0'] .quiz-item")
            page.click("#quiz-hostile-q2 .quiz-target >> nth=2")  # the pool first, then bucket a, then b
            page.click("#quiz-hostile-q2 .quiz-check")
            assert page.text_content("#quiz-hostile-q2 .quiz-why") == EVIL
            assert page.text_content("#quiz-hostile-q2 .quiz-feedback .quiz-verdict") == "✓ Correct."
            assert page.locator("#quiz-hostile img, #quiz-hostile script").count() == 0
            assert dialogs == []
            context.close()
            assert network.foreign == [] and not any(request.endswith("/x") for request in network.requests)
