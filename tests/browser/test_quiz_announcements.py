"""What a quiz's live regions say, in Chromium: a change once, when it happens; a right answer's point kept while the
reader tries the question again (issue 41, item 6)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_quiz import CHECK, PAGE, answer_key, first_index, open_quiz, question, score

pytestmark = pytest.mark.browser

# Every change to the score's text (a live region: role=status) from now on, kept on the page.
WATCH_SCORE = """quiz => {
  window.scoreWrites = [];
  new MutationObserver(records => window.scoreWrites.push(...records.map(r => r.type)))
    .observe(document.querySelector(quiz + ' .quiz-score'), {childList: true, characterData: true, subtree: true});
}"""


def test_typing_a_numeric_answer_does_not_rewrite_the_score(page: Page, base_url: str) -> None:
    open_quiz(page, base_url + PAGE)
    keys = answer_key(page, CHECK)
    number = next(n for n, key in enumerate(keys, 1) if key["kind"] == "numeric")
    for _ in range(number - 1):
        page.click(f"{CHECK} .quiz-next")
    box = question(CHECK, number)
    page.evaluate(WATCH_SCORE, CHECK)
    page.focus(f"{box} input")
    page.keyboard.type("123.5")  # five keystrokes, each saved
    page.wait_for_timeout(200)  # mutation records are delivered after the task that made them
    assert page.evaluate("window.scoreWrites") == []
    assert score(page, CHECK) == f"Score: 0 of {len(keys)}"
    saved = page.evaluate("Object.keys(localStorage).filter(k => k.includes('roofline-check')).length")
    assert saved == 1  # the typed answer was saved all the same


def test_trying_again_after_a_right_answer_keeps_its_point_until_the_next_check(page: Page, base_url: str) -> None:
    open_quiz(page, base_url + PAGE)
    keys = answer_key(page, CHECK)
    first = question(CHECK, 1)
    page.click(f"{first} .quiz-choice[data-choice='{first_index(keys[0], correct=True)}']")
    page.click(f"{first} .quiz-check")
    assert score(page, CHECK) == f"Score: 1 of {len(keys)}"
    page.evaluate(WATCH_SCORE, CHECK)
    page.click(f"{first} .quiz-retry")
    page.wait_for_timeout(200)
    assert score(page, CHECK) == f"Score: 1 of {len(keys)}"
    assert page.evaluate("window.scoreWrites") == []  # nothing changed, nothing said
    page.reload()
    open_quiz(page, base_url + PAGE)
    assert score(page, CHECK) == f"Score: 1 of {len(keys)}"  # kept as saved
    here = page.locator(".progress-here-state")
    expect(here).to_contain_text(f"1 of {len(keys)} right (1 of {len(keys)} answered)")
    page.click(f"{first} .quiz-choice[data-choice='{first_index(keys[0], correct=False)}']")
    page.click(f"{first} .quiz-check")
    expect(page.locator(f"{CHECK} .quiz-score")).to_have_text(f"Score: 0 of {len(keys)}")
