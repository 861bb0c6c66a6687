"""Old links to quizzes and exercises in Chromium: a quiz is anchored by its id now (#quiz-roofline-sort), and a link
made when quizzes were numbered on their page (#quiz-2) still lands on the same quiz. The page carries each block's
old anchor (data-old-anchor), and entry.js points the address at the new one, in place, and scrolls the block into
view: opened directly, followed by Material's instant navigation, or changed on the page.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.browser.calculator_page import follow_instantly

pytestmark = pytest.mark.browser

QUIZ_PAGE = "/lessons/roofline-quiz/"
SORT = "#quiz-roofline-sort"  # the page's second quiz, below the first one's questions: once #quiz-2
CHECK = "#quiz-roofline-check"  # its first: once #quiz-1
EXERCISES = "/lessons/roofline-exercises/"


@pytest.fixture
def page(warm_page: Page) -> Page:
    """A link is not about a first visit: each test is a new tab in the module's warm context."""
    return warm_page


def lands_on(page: Page, url: str, block: str) -> None:
    """The address is `url` with the block's new anchor, and the block is on screen below Material's header, where a
    link to its anchor scrolls it."""
    expect(page).to_have_url(re.compile(re.escape(url + block) + "$"))
    expect(page.locator(block)).to_be_in_viewport()
    # Not hidden under the header, nor left far below it; waited for, as the page may still be settling (a page
    # Material fetched again is put in place, then scrolled).
    try:
        page.wait_for_function(PLACED, arg=block, timeout=10_000)
    except PlaywrightTimeout:
        raise AssertionError(f"{block} is not just below the header: {page.evaluate(WHERE, block)}") from None


WHERE = """(block) => ({
    header: document.querySelector(".md-header").getBoundingClientRect().bottom,
    top: document.querySelector(block).getBoundingClientRect().top,
})"""
PLACED = f"(block) => {{ const at = ({WHERE})(block); return at.header <= at.top && at.top < at.header + 80; }}"


def test_an_old_link_opened_directly_lands_on_its_quiz(page: Page, base_url: str) -> None:
    page.goto(base_url + QUIZ_PAGE + "#quiz-2")
    lands_on(page, base_url + QUIZ_PAGE, SORT)
    assert page.evaluate("scrollY") > 500  # the second quiz is below the first screen: the page was scrolled to it
    assert page.evaluate("history.length") == 2  # the blank tab and the page: the address was replaced, not pushed


def test_an_old_link_to_an_exercise_lands_on_it(page: Page, base_url: str) -> None:
    page.goto(base_url + EXERCISES + "#exercise-5")
    lands_on(page, base_url + EXERCISES, "#exercise-critical-batch")


def arrive_instantly(page: Page, base_url: str, url: str) -> None:
    """From the home page, follow a link to `url` (made from its link to the quiz page), which Material's instant
    navigation follows: no page load, and the new page's mount runs as Material puts it in place."""
    page.goto(base_url + "/")
    page.evaluate(
        "url => Object.assign(document.querySelector('article a[href$=\"/roofline-quiz/\"]'), {href: url})",
        base_url + url,
    )
    page.evaluate("window.sameDocument = true")  # gone if the link loaded the page anew
    follow_instantly(page, f"article a[href='{base_url + url}']", f"**{QUIZ_PAGE}**")
    assert page.evaluate("window.sameDocument") is True


def test_an_old_link_followed_by_instant_navigation_lands_on_its_quiz(page: Page, base_url: str) -> None:
    arrive_instantly(page, base_url, QUIZ_PAGE + "#quiz-2")
    lands_on(page, base_url + QUIZ_PAGE, SORT)


@pytest.mark.parametrize("arrival", ["loaded", "instant"])
def test_an_old_anchor_set_on_the_page_is_followed(page: Page, base_url: str, arrival: str) -> None:
    """A reader who changes the address's anchor on the page to an old one (a hashchange) reaches its quiz, with one
    entry in the history for the change, and no request is made for it. On a page loaded as such, Material answers
    the first change of address by fetching the page again and targeting the hash it read at the change: had it read
    the old one, it would push it back (the page's head has entry.js point the address first, runtime/site.py)."""
    if arrival == "loaded":
        page.goto(base_url + QUIZ_PAGE + "#quiz-2")
    else:
        arrive_instantly(page, base_url, QUIZ_PAGE + "#quiz-2")
    lands_on(page, base_url + QUIZ_PAGE, SORT)
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    length = page.evaluate("history.length")
    page.evaluate("document.querySelector('[data-md-component=container]').dataset.left = ''")
    page.evaluate("location.hash = '#quiz-1'")
    if arrival == "loaded":  # Material's own fetch of the page (see above): wait until it has been put in place
        page.wait_for_function("() => !document.querySelector('[data-md-component=container][data-left]')")
    lands_on(page, base_url + QUIZ_PAGE, CHECK)
    page.wait_for_timeout(300)  # nothing else comes: no second entry, no other address
    assert page.evaluate("history.length") == length + 1
    assert page.url == base_url + QUIZ_PAGE + CHECK
    page_requests = [url for url in requests if "roofline-quiz" in url]
    assert page_requests == ([base_url + QUIZ_PAGE] if arrival == "loaded" else [])
    page.go_back()  # the entry before the change is the quiz the first link reached
    expect(page).to_have_url(base_url + QUIZ_PAGE + SORT)


def test_an_element_that_has_the_old_id_keeps_it(page: Page, base_url: str) -> None:
    """Only an anchor that no element of the page has is sent on: here the page's heading has the id quiz-2."""
    arrive_instantly(page, base_url, QUIZ_PAGE)
    page.evaluate("document.querySelector('article h1').id = 'quiz-2'")
    page.evaluate("location.hash = '#quiz-2'")
    page.evaluate("location.hash = '#quiz-1'")  # sent on: so the change before it has been seen, and kept
    lands_on(page, base_url + QUIZ_PAGE, CHECK)
    page.go_back()
    expect(page).to_have_url(base_url + QUIZ_PAGE + "#quiz-2")
