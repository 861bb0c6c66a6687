"""What a page costs while it loads, in Chromium: nothing moves as its components come alive, calculators and quizzes
far down a long page wait until a reader nears them, and nothing a reader does before that is lost."""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from calckit.api import run
from tests.browser.calculator_page import Held, frames, present, wait_for_texts, wait_mounted
from tests.browser.conftest import Network, new_context

pytestmark = pytest.mark.browser

QUIZ_PAGE = "/lessons/roofline-quiz/"
LONG_PAGE = "/lessons/102-ai-accelerators/"  # five calculators and several quizzes
LAST = "#calc-7"  # the energy calculator, far down the page (block 7: a chips table comes before it)
PHONE = {"width": 390, "height": 844}

# The page's layout shifts so far, as Chromium's Layout Instability API scores them (what CLS adds up), and the
# elements that moved inside a quiz.
SHIFTS = """() => new Promise((resolve) => {
  const shifts = [];
  const observer = new PerformanceObserver((list) => shifts.push(...list.getEntries()));
  observer.observe({ type: "layout-shift", buffered: true });
  setTimeout(() => {
    const counted = shifts.filter((shift) => !shift.hadRecentInput);
    const moved = counted.flatMap((shift) => shift.sources.map((source) => source.node));
    resolve({
      score: counted.reduce((sum, shift) => sum + shift.value, 0),
      inQuiz: moved.filter((node) => node?.parentElement?.closest(".quiz")).map((node) => node.outerHTML.slice(0, 80)),
    });
  }, 200);
})"""

# A calculator's form as the page would send it (calculator.js's readInputs, for fields of one value).
FORM = """(root) => Object.fromEntries([...root.querySelectorAll("[data-input]")].map((field) =>
  [field.dataset.input, field.querySelector("input:not(.calc-slider):not(.calc-filter), select")?.value ?? ""]))"""


def shows_form(page: Page, calculator: str) -> None:
    """Wait until `calculator` shows what CPython's package computes for its form as it stands."""
    result = run(present(page.get_attribute(calculator, "data-calculator")), page.eval_on_selector(calculator, FORM))
    assert result["ok"], result
    wait_for_texts(page, {out["key"]: out["text"] for out in result["outputs"]}, calculator)


@pytest.mark.parametrize("viewport", [{"width": 1350, "height": 940}, PHONE], ids=["desktop", "phone"])
def test_a_quiz_moves_nothing_as_it_mounts(browser: Browser, base_url: str, network: Network, viewport: Any) -> None:
    """The quiz at the top of its page is laid out from the first paint as it is once mounted (one question, the
    footer's place kept, the options in the reader's order before they show): nothing in it moves."""
    context = new_context(browser, network, viewport=viewport)
    page = context.new_page()
    page.goto(base_url + QUIZ_PAGE)
    wait_mounted(page, "#quiz-roofline-check")
    frames(page)  # the mounted quiz has been laid out and painted: any shift it caused is on record
    shifts = page.evaluate(SHIFTS)
    assert shifts["inQuiz"] == []
    # At most the heading after the quiz, rising into view as its other questions fold away (about 0.02; the
    # options' reordering made it 0.27).
    assert shifts["score"] < 0.05
    expect(page.locator("#quiz-roofline-check .quiz-question:first-of-type .quiz-choice").first).to_be_visible()
    expect(page.locator("#quiz-roofline-check .quiz-note")).to_be_hidden()
    expect(page.locator("#quiz-roofline-check .quiz-question:visible")).to_have_count(1)
    context.close()


@pytest.mark.parametrize("address", ["/lessons/parallelism/", "/lessons/inference-at-scale/", QUIZ_PAGE])
def test_the_progress_line_reads_as_built_for_a_new_reader(
    browser: Browser, base_url: str, site: Path, network: Network, address: str
) -> None:
    """Under the title, the line of a page's quizzes and exercises is written at build as its script words it for a
    reader who has started none: filling it moves nothing (a one-line stand-in grew to three lines on a phone once
    filled, and pushed the lesson down: a layout shift of 0.04)."""
    built = re.search(
        r'class="progress-here-state">([^<]*)<', (site / address.strip("/") / "index.html").read_text("utf-8")
    )
    assert built is not None
    context = new_context(browser, network, viewport=PHONE)
    page = context.new_page()
    page.goto(base_url + address)
    page.wait_for_selector(".progress-here[data-mounted]", state="attached")
    frames(page)
    state = page.locator(".progress-here-state")
    assert state.text_content() == html.unescape(built.group(1))
    assert "not started" in built.group(1)
    moved = page.evaluate(SHIFTS)["score"]
    assert moved < 0.005, f"the page moved as it loaded: {moved:.3f}"
    context.close()


def test_with_scripts_off_a_quizs_options_still_show(browser: Browser, base_url: str, network: Network) -> None:
    """The options wait hidden for the script that orders them, but not forever: with no script they show."""
    context = new_context(browser, network, java_script_enabled=False)
    page = context.new_page()
    page.goto(base_url + QUIZ_PAGE)
    choice = page.locator("#quiz-roofline-check .quiz-question:first-of-type .quiz-choice").first
    expect(choice).to_be_visible(timeout=30_000)  # after the stylesheet's few seconds (quiz.css)
    expect(page.locator("#quiz-roofline-check .quiz-note")).to_be_visible()
    context.close()


def test_calculators_far_down_a_page_come_alive_as_a_reader_nears_them(
    browser: Browser, base_url: str, network: Network
) -> None:
    """On a phone, the long lesson mounts none of the calculators below the screen while it loads; scrolling to the
    last one mounts it, and it computes."""
    context = new_context(browser, network, viewport=PHONE)
    page = context.new_page()
    page.goto(base_url + LONG_PAGE)
    page.wait_for_load_state("load")
    frames(page)  # the observers have said what is near the screen
    page.wait_for_timeout(1000)  # and what that mounted by itself meanwhile has mounted
    assert page.get_attribute(LAST, "data-mounted") is None
    assert page.evaluate(f"getComputedStyle(document.querySelector('{LAST}')).contentVisibility") == "auto"
    wait_mounted(page, LAST)
    page.fill(f"{LAST}-count", "3")
    shows_form(page, LAST)
    context.close()


def test_what_a_reader_types_before_a_calculator_is_live_is_computed(
    browser: Browser, base_url: str, network: Network
) -> None:
    """A reader who jumps to a calculator and types before its script has arrived gets the result for what they
    typed: the mount reads the form and recomputes."""
    # No service worker: a request it answers (it precaches the scripts) never reaches the page's route that holds it.
    context = new_context(browser, network, viewport=PHONE, service_workers="block")
    page = context.new_page()
    script = Held(page, "**/assets/calculators/calculator.js")  # a slow network
    page.goto(base_url + LONG_PAGE)
    page.fill(f"{LAST}-count", "7")  # scrolls to it, focuses and types, as a reader would
    script.wait_asked(page)  # the focus asked for the calculator's script
    assert len(script.routes) == 1
    assert page.get_attribute(LAST, "data-mounted") is None
    script.release()
    shows_form(page, LAST)
    expect(page.locator(f"{LAST}-count")).to_have_value("7")
    context.close()



def test_a_calculator_is_a_form_only_once_it_mounts_and_the_reader_keeps_their_place(
    browser: Browser, base_url: str, network: Network
) -> None:
    """A calculator's fields are a <form> only once it mounts (Chromium's autofill reads every form of a page as it
    loads): the long lesson loads with none for the calculators below the screen. A keyboard reader who reaches the
    last one's field and types before its script has arrived keeps the focus, what they typed and where the caret
    is when the mount makes the form, and goes on typing into the same field."""
    context = new_context(browser, network, viewport=PHONE, service_workers="block")
    page = context.new_page()
    script = Held(page, "**/assets/calculators/calculator.js")
    page.goto(base_url + LONG_PAGE)
    page.wait_for_load_state("load")
    forms = "sel => [...document.querySelectorAll(sel)].map(el => el.tagName)"
    assert page.evaluate(forms, f"{LAST} .calc-form") == ["DIV"]
    page.focus(f"{LAST}-count")
    page.keyboard.press("End")
    page.keyboard.type("7")
    script.wait_asked(page)
    assert page.get_attribute(LAST, "data-mounted") is None
    script.release()
    wait_mounted(page, LAST)
    assert page.evaluate(forms, f"{LAST} .calc-form") == ["FORM"]
    page.keyboard.type("5")
    field = page.locator(f"{LAST}-count")
    expect(field).to_be_focused()
    typed = field.input_value()
    assert typed.endswith("75"), typed
    assert page.evaluate(f"document.querySelector('{LAST}-count').form?.id") == f"{LAST[1:]}-form"
    shows_form(page, LAST)
    context.close()

# Each calculator's fields as the page parses them (numbered), as DOMContentLoaded is dispatched (after entry.js, before
# Chromium's autofill reads the page's fields in the same task), and at the next frame: which numbered fields each
# calculator holds then.
FIELDS_THROUGH_LOAD = """
  let parsed = 0;
  new MutationObserver((records) => {
    for (const node of records.flatMap((record) => [...record.addedNodes])) {
      if (!(node instanceof HTMLElement) || !node.matches(".calc-fields:not([data-parsed])")) continue;
      node.dataset.parsed = String(++parsed); // its first time in the page: a field put back keeps its number
    }
  }).observe(document, { childList: true, subtree: true });
  const fields = () => [...document.querySelectorAll("[data-calculator]")].map(
    (calculator) => calculator.querySelector(".calc-fields")?.dataset.parsed ?? null);
  window.fieldsThroughLoad = new Promise((resolve) => document.addEventListener("DOMContentLoaded", () => {
    const during = fields();
    requestAnimationFrame(() => resolve({ during, frame: fields(), parsed }));
  }));
"""


@pytest.mark.parametrize("viewport", [{"width": 1350, "height": 940}, PHONE], ids=["desktop", "phone"])
def test_a_calculators_fields_are_out_of_the_page_only_while_domcontentloaded_runs(
    browser: Browser, base_url: str, network: Network, viewport: Any
) -> None:
    """Chromium's autofill reads every field of a page right after DOMContentLoaded, and laid out each calculator
    that content-visibility skips to do it (entry.js): while that event runs, the long lesson's calculators hold no
    fields, and by the next frame each has the very fields it was parsed with, whose values the mount then reads."""
    context = new_context(browser, network, viewport=viewport, service_workers="block")
    context.add_init_script(script=FIELDS_THROUGH_LOAD)
    page = context.new_page()
    page.goto(base_url + LONG_PAGE)
    seen = page.evaluate("window.fieldsThroughLoad")
    assert seen["parsed"] >= 5, seen  # the lesson's five calculators
    assert seen["during"] == [None] * seen["parsed"], seen
    assert seen["frame"] == [str(number) for number in range(1, seen["parsed"] + 1)], seen
    wait_mounted(page, LAST)
    page.fill(f"{LAST}-count", "3")
    shows_form(page, LAST)
    context.close()


def test_a_quiz_checked_before_its_script_arrives_keeps_the_page_and_is_checked(
    browser: Browser, base_url: str, network: Network
) -> None:
    """A reader who answers and presses Check before the quiz's script has arrived (a slow network) keeps the page and
    the answer, and gets the verdict once the script is there: the form submitted itself, which reloaded the page as
    ?answer=49%2C1 with the answer gone."""
    context = new_context(browser, network, service_workers="block")  # see Held: the page's route must see it
    page = context.new_page()
    script = Held(page, "**/assets/calculators/quiz.js")  # a slow network
    page.goto(base_url + "/lessons/roofline/")
    answer = page.locator("#quiz-roofline-lesson input[type=text]").first
    answer.fill("49,1")  # scrolls to the quiz and focuses it, which asks for its script
    script.wait_asked(page)
    page.locator("#quiz-roofline-lesson .quiz-check").first.click()
    assert page.get_attribute("#quiz-roofline-lesson", "data-mounted") is None
    script.release()
    expect(page.locator("#quiz-roofline-lesson .quiz-verdict").first).to_have_text("\u2713 Correct.")
    expect(answer).to_have_value("49,1")
    assert page.url == base_url + "/lessons/roofline/"
    context.close()


def test_a_quiz_waiting_far_down_the_page_covers_nothing(browser: Browser, base_url: str, network: Network) -> None:
    """A quiz not yet mounted holds what it shows in its box: nothing of it spills over the text after it (as with
    content-visibility, whose stand-in size let its Check buttons cover that text: Lighthouse's target-size audit)."""
    context = new_context(browser, network)
    page = context.new_page()
    page.goto(base_url + LONG_PAGE)
    page.wait_for_load_state("load")
    waiting = page.evaluate(
        """() => [...document.querySelectorAll(".quiz:not([data-mounted])")].map((quiz) => {
          const box = quiz.getBoundingClientRect();
          const shown = [...quiz.querySelectorAll(".quiz-question")].filter((form) => form.offsetParent !== null);
          const bottom = Math.max(...shown.map((form) => form.getBoundingClientRect().bottom));
          return { id: quiz.id, shown: shown.length, spills: bottom > box.bottom + 0.5 };
        })"""
    )
    assert waiting, "every quiz on the long page was mounted at load"
    assert all(quiz["shown"] and not quiz["spills"] for quiz in waiting), waiting
    context.close()


# Of the page's elements with a box, those that Chromium skips at load (inside a content-visibility: auto block that
# is off screen), and the plugin's blocks.
SKIPPED_AT_LOAD = """() => {
  const boxed = [...document.querySelectorAll("body *")].filter((element) => element.checkVisibility());
  const blocks = [...document.querySelectorAll(".calc, .calc-table-wrap")];
  return {
    boxed: boxed.length,
    skipped: boxed.filter((element) => !element.checkVisibility({ contentVisibilityAuto: true })).length,
    blocks: blocks.length,
    skippable: blocks.filter((block) => getComputedStyle(block).contentVisibility === "auto").length,
  };
}"""


def test_blocks_off_screen_cost_no_style_or_layout_at_load(browser: Browser, base_url: str, network: Network) -> None:
    """A long page's calculators and data tables below the screen are skipped by style and layout until a reader
    nears them (content-visibility). Quizzes are not: an unmounted quiz shows all its questions, which would spill
    out of a stand-in size (see the test above)."""
    context = new_context(browser, network, viewport=PHONE)
    page = context.new_page()
    page.goto(base_url + LONG_PAGE)
    page.wait_for_load_state("load")
    counts = page.evaluate(SKIPPED_AT_LOAD)
    assert counts["blocks"] >= 6 and counts["skippable"] == counts["blocks"], counts
    assert counts["skipped"] >= 450, counts  # five calculators and a chips table off screen: about 580 elements
    context.close()


# How many of each unmounted quiz's questions are displayed, and whether its note for readers without scripts is.
WAITING_QUIZZES = """() => Object.fromEntries([...document.querySelectorAll(".quiz:not([data-mounted])")].map((quiz) =>
 [
  quiz.id,
  {
    questions: [...quiz.querySelectorAll(".quiz-question")].filter((form) => form.checkVisibility()).length,
    of: quiz.querySelectorAll(".quiz-question").length,
    note: quiz.querySelector(".quiz-note").checkVisibility(),
  },
]))"""


@pytest.mark.parametrize("scripts", [True, False], ids=["scripts", "no-scripts"])
def test_a_long_quiz_waits_with_one_question(browser: Browser, base_url: str, network: Network, scripts: bool) -> None:
    """Far down the long lesson, a quiz of many questions waits for its script showing only its first (as it will
    once mounted: a loading page styles one question, not all of them); with scripts off, it shows them all."""
    context = new_context(browser, network, viewport=PHONE, java_script_enabled=scripts)
    page = context.new_page()
    page.goto(base_url + LONG_PAGE)
    page.wait_for_load_state("load")
    waiting = page.evaluate(WAITING_QUIZZES)
    longest = max(waiting.values(), key=lambda quiz: quiz["of"])
    assert longest["of"] >= 10, waiting
    assert longest == ({"questions": 1, "of": longest["of"], "note": False} if scripts else longest | {"note": True})
    if not scripts:
        assert longest["questions"] == longest["of"]
    context.close()


# Whether <html> was marked live when the parser added the page's first quiz (before any style pass could reach it).
LIVE_AT_FIRST_QUIZ = """
window.__liveAtFirstQuiz = null;
new MutationObserver((records, observer) => {
  if (!records.some((record) => [...record.addedNodes].some((node) => node.matches?.(".quiz")))) return;
  window.__liveAtFirstQuiz = document.documentElement.classList.contains("calculators-live");
  observer.disconnect();
}).observe(document, { childList: true, subtree: true });
"""


def test_the_page_is_marked_live_before_its_quizzes_are_parsed(
    browser: Browser, base_url: str, network: Network
) -> None:
    """Material's script at the end of the body styles the whole page before entry.js runs: the mark that lets a
    waiting quiz show one question must already be there as the parser reaches the first quiz."""
    context = new_context(browser, network, viewport=PHONE)
    page = context.new_page()
    page.add_init_script(LIVE_AT_FIRST_QUIZ)
    page.goto(base_url + LONG_PAGE)
    page.wait_for_load_state("load")
    assert page.evaluate("window.__liveAtFirstQuiz") is True
    context.close()


def test_without_entry_js_every_question_shows(browser: Browser, base_url: str, network: Network) -> None:
    """Should entry.js never arrive, the page, once parsed, says that no script will mount its quizzes, and they show
    what the build wrote: every question and the note for readers without scripts."""
    context = new_context(browser, network, viewport=PHONE)
    page = context.new_page()
    page.route("**/assets/calculators/entry.js", lambda route: route.abort())
    page.goto(base_url + LONG_PAGE)
    page.wait_for_load_state("load")
    marks = set(page.evaluate("document.documentElement.className").split())
    assert {"calculators-live", "calculators-static"} <= marks and "calculators-entry" not in marks, marks
    waiting = page.evaluate(WAITING_QUIZZES)
    longest = max(waiting.values(), key=lambda quiz: quiz["of"])
    assert longest == {"questions": longest["of"], "of": longest["of"], "note": True}, waiting
    context.close()
