"""The reader's progress across the book (progress.js, progress-view.js, pages/progress_page.py) in Chromium.

What a student relies on: answers given on a lesson show on the "Your progress" page and under the lesson's title;
an export taken to a fresh browser profile brings them back; a file that is not an export, or is another book's, is
refused and changes nothing; a reset of everything can be undone; two tabs add their answers up instead of the last
one's save winning, for exercises too (a pass made or reset in one tab holds in the other); progress saved before
keys carried the site is kept.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from tests.browser.calculator_page import present, wait_mounted
from tests.browser.conftest import Network, new_context
from tests.browser.test_exercise import PAGE as EXERCISES
from tests.browser.test_exercise import RIGHT, ROOFLINE, case_count, open_exercises, press, result_text, type_code
from tests.browser.test_quiz import CHECK, PAGE, SORT, answer_key, first_index, open_quiz, question, score

pytestmark = pytest.mark.browser

PROGRESS = "/progress/"
CHECK_KEY = "quiz:docs/lessons/roofline-quiz.md#roofline-check"
STORED = f"calculators-progress:/|{CHECK_KEY}"  # the site's root path, then the block's key


@pytest.fixture
def page(warm_page: Page) -> Page:
    """Progress is not about a first visit: each test is a new
    tab in the module's warm context (conftest's warm_page)."""
    return warm_page


def answer_first(page: Page, right: bool, number: int = 1) -> None:
    """Answer question `number` of the check quiz, rightly or not, and check it."""
    key = answer_key(page, CHECK)[number - 1]
    box = question(CHECK, number)
    page.locator(box).wait_for(state="visible")
    page.click(f"{box} .quiz-choice[data-choice='{first_index(key, correct=right)}']")
    page.click(f"{box} .quiz-check")
    page.locator(f"{box} .quiz-retry").wait_for(state="visible")


def state_of(page: Page, key: str) -> Any:
    """The progress page's row for the block `key` (its storage key, in the row's data)."""
    return page.locator(f"""[data-progress-item*='"key": "{key}"']""")


def open_progress(page: Page, base_url: str) -> None:
    page.goto(base_url + PROGRESS)
    page.wait_for_selector(".progress-book[data-mounted]", state="attached")


def test_the_progress_page_reflects_answers_given_on_other_pages(page: Page, base_url: str) -> None:
    open_quiz(page, base_url + PAGE)
    total = len(answer_key(page, CHECK))
    here = page.locator(".progress-here")
    page.wait_for_selector(".progress-here[data-mounted]", state="attached")
    assert "not started" in present(here.text_content())
    answer_first(page, right=True)
    from playwright.sync_api import expect

    expect(here).to_contain_text(f"“The roofline in six questions”, 1 of {total} right (1 of {total} answered)")
    open_progress(page, base_url)
    row = state_of(page, CHECK_KEY)
    expect(row.locator(".progress-state")).to_have_text(f"1 of {total} right (1 of {total} answered)")
    expect(state_of(page, "quiz:docs/lessons/roofline-quiz.md#roofline-sort").locator(".progress-state")).to_have_text(
        "Not started"
    )
    expect(page.locator(".progress-summary")).to_contain_text("0 of ")
    expect(page.locator(".progress-summary")).to_contain_text("1 more started")
    # Every quiz and exercise of the book is listed, under its section (Material's nav: Lessons).
    assert page.locator(".progress-section h2").all_text_contents()[0] == "Lessons"
    assert page.locator(".progress-item").count() >= 7


def test_export_then_import_on_a_fresh_profile_restores_it(
    browser: Browser, page: Page, base_url: str, network: Network, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    open_quiz(page, base_url + PAGE)
    total = len(answer_key(page, CHECK))
    answer_first(page, right=True)
    open_progress(page, base_url)
    with page.expect_download() as download:
        page.click(".progress-export")
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    assert saved.name.startswith("ai-accelerators-progress-")
    exported = json.loads(saved.read_text())
    assert exported["format"] == "calculators-progress" and exported["book"] == "AI Accelerators"
    assert list(exported["progress"]) == [CHECK_KEY]
    expect(page.locator(".progress-message")).to_contain_text("Exported your progress on 1 quizzes and exercises")

    fresh = new_context(browser, network)
    try:
        other = fresh.new_page()
        open_progress(other, base_url)
        expect(state_of(other, CHECK_KEY).locator(".progress-state")).to_have_text("Not started")
        other.set_input_files(".progress-import", str(saved))
        expect(other.locator(".progress-message")).to_have_text(
            f"Imported your progress on 1 quiz or exercise from {saved.name}."
        )
        expect(state_of(other, CHECK_KEY).locator(".progress-state")).to_have_text(
            f"1 of {total} right (1 of {total} answered)"
        )
        open_quiz(other, base_url + PAGE)
        expect(other.locator(f"{CHECK} .quiz-score")).to_have_text(f"Score: 1 of {total}")
    finally:
        fresh.close()


@pytest.mark.parametrize(
    ("content", "why"),
    [
        ("not json at all", "it is not a progress export (not JSON)."),
        ('{"answers": {}}', "it is not a progress export from this site."),
        (
            json.dumps({"format": "calculators-progress", "version": 1, "book": "Circuits", "progress": {}}),
            "it holds progress for another book (“Circuits”), not for “AI Accelerators”.",
        ),
    ],
)
def test_a_bad_file_is_refused_and_nothing_changes(
    page: Page, base_url: str, tmp_path: Path, content: str, why: str
) -> None:
    from playwright.sync_api import expect

    open_quiz(page, base_url + PAGE)
    answer_first(page, right=False)
    before = page.evaluate(f"localStorage.getItem({json.dumps(STORED)})")
    open_progress(page, base_url)
    bad = tmp_path / "progress.json"
    bad.write_text(content)
    page.set_input_files(".progress-import", str(bad))
    expect(page.locator(".progress-message")).to_have_text(
        f"progress.json was not imported: {why} Your progress is unchanged."
    )
    assert page.evaluate(f"localStorage.getItem({json.dumps(STORED)})") == before


def test_a_reset_of_everything_can_be_undone(page: Page, base_url: str) -> None:
    from playwright.sync_api import expect

    open_quiz(page, base_url + PAGE)
    total = len(answer_key(page, CHECK))
    answer_first(page, right=True)
    open_progress(page, base_url)
    cell = state_of(page, CHECK_KEY).locator(".progress-state")
    expect(cell).to_have_text(f"1 of {total} right (1 of {total} answered)")
    page.click(".progress-reset")
    expect(cell).to_have_text("Not started")
    expect(page.locator(".progress-undo-button")).to_be_focused()
    page.keyboard.press("Enter")
    expect(cell).to_have_text(f"1 of {total} right (1 of {total} answered)")
    page.click(".progress-reset")
    expect(cell).to_have_text("Not started")
    open_quiz(page, base_url + PAGE)
    expect(page.locator(f"{CHECK} .quiz-score")).to_have_text(f"Score: 0 of {total}")


@pytest.fixture
def second(page: Page) -> Iterator[Page]:
    """Another tab of the warm context that `page` is in, opened after the test's storage was emptied."""
    tab = page.context.new_page()
    yield tab
    tab.close()


def test_two_tabs_merge_their_answers(page: Page, second: Page, base_url: str) -> None:
    """Tab A answers question 1 while tab B, opened before, shows it at once and adds question 2: both are kept."""
    from playwright.sync_api import expect

    first = page
    open_quiz(first, base_url + PAGE)
    open_quiz(second, base_url + PAGE)
    total = len(answer_key(first, CHECK))
    answer_first(first, right=True)
    expect(second.locator(f"{CHECK} .quiz-score")).to_have_text(f"Score: 1 of {total}")  # the storage event
    expect(second.locator(f"{question(CHECK, 1)} .quiz-feedback .quiz-verdict")).to_have_text("✓ Correct.")
    second.click(f"{CHECK} .quiz-next")
    answer_first(second, right=True, number=2)
    expect(first.locator(f"{CHECK} .quiz-score")).to_have_text(f"Score: 2 of {total}")
    first.reload()
    open_quiz(first, base_url + PAGE)
    expect(first.locator(f"{CHECK} .quiz-score")).to_have_text(f"Score: 2 of {total}")
    # A reset in one tab reaches the other, and the other's next answer does not bring the reset answers back.
    first.click(f"{CHECK} .quiz-reset")
    expect(second.locator(f"{CHECK} .quiz-score")).to_have_text(f"Score: 0 of {total}")
    second.click(f"{CHECK} .quiz-prev")
    answer_first(second, right=False)
    second.reload()
    open_quiz(second, base_url + PAGE)
    expect(second.locator(f"{CHECK} .quiz-score")).to_have_text(f"Score: 0 of {total}")
    answers = json.loads(second.evaluate(f"localStorage.getItem({json.dumps(STORED)})"))["answers"]
    assert [answer.get("correct") for answer in answers.values() if answer.get("checked")] == [False]


def test_two_tabs_share_an_exercises_pass_and_its_reset(page: Page, second: Page, base_url: str) -> None:
    """A pass in tab A shows in tab B at once; a reset of everything on the progress page (in A) reaches B too, and
    B's next keystroke does not bring the pass back."""
    from playwright.sync_api import expect

    first = page
    open_exercises(first, base_url + EXERCISES)
    open_exercises(second, base_url + EXERCISES)
    stored = "calculators-progress:/|" + present(first.get_attribute(ROOFLINE, "data-exercise-key"))
    status = second.locator(f"{ROOFLINE} .exercise-status")
    expect(status).to_have_text("")
    type_code(first, ROOFLINE, RIGHT)
    press(first, ROOFLINE, "check")
    assert result_text(first, ROOFLINE) == f"All {case_count(first, ROOFLINE)} cases pass. Well done."
    expect(status).to_have_text("You passed this exercise in another tab.")  # the storage event
    open_progress(first, base_url)
    first.click(".progress-reset")
    expect(state_of(first, first_key(stored)).locator(".progress-state")).to_have_text("Not started")
    expect(status).to_have_text("This exercise's pass was reset in another tab.")
    second.click(f"{ROOFLINE} .cm-content")
    second.keyboard.press("End")
    second.keyboard.type("  # mine")
    expect(second.locator(f"{ROOFLINE} .cm-content")).to_contain_text("# mine")
    saved = json.loads(second.evaluate(f"localStorage.getItem({json.dumps(stored)})"))
    assert saved["passed"] is False and "# mine" in saved["code"], saved
    second.reload()
    open_exercises(second, base_url + EXERCISES)
    expect(status).to_have_text("")  # not "You passed this exercise on an earlier visit."


def first_key(stored: str) -> str:
    """A block's key from its storage key (the site's root path and a bar before it)."""
    return stored.split("|", 1)[1]


def test_progress_saved_under_the_old_key_is_kept(page: Page, base_url: str) -> None:
    """Before keys carried the site, a quiz saved under `quiz:docs/...#id`: that progress is moved, not lost."""
    from playwright.sync_api import expect

    open_quiz(page, base_url + PAGE)
    keys = answer_key(page, CHECK)
    version = page.get_attribute(CHECK, "data-quiz-version")
    old = {
        "version": version,
        "current": 0,
        "answers": {keys[0]["id"]: {"value": [first_index(keys[0], correct=True)], "checked": True, "correct": True}},
    }
    page.evaluate(f"localStorage.setItem({json.dumps(CHECK_KEY)}, {json.dumps(json.dumps(old))})")
    page.reload()
    open_quiz(page, base_url + PAGE)
    expect(page.locator(f"{CHECK} .quiz-score")).to_have_text(f"Score: 1 of {len(keys)}")
    assert page.evaluate(f"localStorage.getItem({json.dumps(CHECK_KEY)})") is None
    assert json.loads(page.evaluate(f"localStorage.getItem({json.dumps(STORED)})"))["version"] == version
    wait_mounted(page, SORT)
    assert score(page, SORT) == "Score: 0 of 1"
