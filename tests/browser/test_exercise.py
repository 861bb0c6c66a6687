"""Exercises in Chromium: the reader's Python run in an interpreter of its own, checked against the book's calculators.

A right answer passes, a wrong one shows its first failing case, a syntax error shows its line, an endless loop is
stopped and the next Run works (and a calculator still recomputes), the code is kept across visits, the page works
offline after one visit and by keyboard alone, and pages without an exercise load no editor.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Route, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.browser.calculator_page import (
    Held,
    eventually,
    expected,
    frames,
    present,
    wait_for_texts,
    wait_mounted,
    wait_until,
)
from tests.browser.conftest import Network, new_context, waiting_for
from tests.browser.test_offline import wait_until_cached

pytestmark = pytest.mark.browser

PAGE = "/lessons/roofline-exercises/"
ROOFLINE = "#exercise-attainable"  # attainable(peak_tflops, bandwidth_tbs, intensity)
CALCULATOR = "#calc-2"  # the roofline, on a TPU v5e, right after it
BOOT_TIMEOUT = 60_000  # a cold Pyodide boot on a busy 2-core machine
RIGHT = (
    "def attainable(peak_tflops, bandwidth_tbs, intensity):\n    return min(peak_tflops, bandwidth_tbs * intensity)\n"
)
WRONG = "def attainable(peak_tflops, bandwidth_tbs, intensity):\n    return bandwidth_tbs * intensity\n"
CRITICAL = "#exercise-critical-batch"  # critical_batch(...), checked against calculators.matmul.critical_batch
CRITICAL_RIGHT = (
    "def critical_batch(ridge, d, f, weight_bytes, activation_bytes):\n"
    "    denominator = 2 * d * f - ridge * activation_bytes * (d + f)\n"
    "    return ridge * weight_bytes * d * f / denominator if denominator > 0 else None\n"
)


@pytest.fixture
def page(warm_page: Page) -> Page:
    """Running an exercise is not about a first visit: each test is a new
    tab in the module's warm context (conftest's warm_page); those about a first visit take
    `fresh_page` or a context of their own."""
    return warm_page


def open_exercises(page: Page, url: str) -> None:
    """Open the page and put the pointer over the first exercise, which loads its editor (it loads when a reader
    reaches for it)."""
    page.goto(url)
    page.wait_for_selector(f"{ROOFLINE}[data-mounted]", state="attached", timeout=30_000)
    page.locator(ROOFLINE).hover()
    page.wait_for_selector(f"{ROOFLINE} .cm-content", timeout=30_000)


# Where an exercise's parts sit, from its own top: a calculator further down that comes near the screen gives up its
# stand-in height (content-visibility) meanwhile, which moves what follows it but is not the exercise moving.
PLACES = f"""() => {{
  const exercise = document.querySelector("{ROOFLINE}");
  const top = exercise.getBoundingClientRect().top;
  const below = (node) => node.getBoundingClientRect().top - top;
  const code = exercise.querySelector(".exercise-editor").getBoundingClientRect();
  return {{ status: below(exercise.querySelector(".exercise-status")), next: below(exercise.nextElementSibling),
    height: code.height }};
}}"""


def type_code(page: Page, exercise: str, code: str) -> None:
    """Replace the editor's code as a reader would: reach for the exercise (its editor loads), select all, then type
    (auto-indent is undone by typing lines)."""
    page.hover(f"{exercise} .exercise-editor")
    page.click(f"{exercise} .cm-content")
    page.keyboard.press("Control+a")
    page.keyboard.press("Delete")
    page.keyboard.insert_text(code)


def result_text(page: Page, exercise: str, timeout: int = BOOT_TIMEOUT) -> str:
    try:
        page.wait_for_selector(f"{exercise} .exercise-result > *", timeout=timeout)
    except PlaywrightTimeoutError:
        # What the reader was told instead (Python could not start, or is still starting) says where it stopped.
        status = page.text_content(f"{exercise} .exercise-status")
        raise AssertionError(
            f"{exercise} showed no result within {timeout} ms; its status said {status!r}; {waiting_for(page)}"
        ) from None
    return present(page.text_content(f"{exercise} .exercise-result"))


def press(page: Page, exercise: str, button: str) -> None:
    page.evaluate(f"document.querySelector('{exercise} .exercise-result').replaceChildren()")
    page.click(f"{exercise} .exercise-{button}")


def case_count(page: Page, exercise: str) -> int:
    """How many cases a Check runs: the author's fixed ones, then as many drawn afresh for each Check."""
    draw = json.loads(present(page.get_attribute(exercise, "data-exercise-data")))["draw"]
    return int(draw["count"]) + len(draw["fixed"])


def failing_case(page: Page, exercise: str) -> dict[str, float]:
    """The failing case's table, as {name: number} (the parameters, Expected and Got)."""
    cells = page.locator(f"{exercise} .exercise-case tr")
    rows = [(row.locator("th").text_content(), row.locator("td").text_content()) for row in cells.all()]
    return {present(name): float(present(value)) for name, value in rows}


def exercise_boots(page: Page) -> list[str]:
    """How each exercise interpreter the page started booted, in order: "snapshot" (restored from the build's exercise
    snapshot) or "plain" (exercise_runtime.js's `boots`, the module the page's exercises use)."""
    url = page.evaluate(
        "document.querySelector('script[src*=\"assets/calculators/entry.js\"]').src"
        ".replace('entry.js', 'exercise_runtime.js')"
    )
    boots: list[str] = page.evaluate("async (url) => [...(await import(url)).boots]", url)
    return boots


# From reader code: what Python's `js` module reaches (importlib goes round the refused `import js`). Were it the
# worker's global scope, as Pyodide's default makes it, `self`, `navigator` and the rest would be there.
JS_PROBE = (
    "import importlib\n"
    "scope = importlib.import_module('js')\n"
    "names = ('self', 'globalThis', 'navigator', 'location', 'postMessage', 'fetch', 'caches', 'indexedDB', 'Worker')\n"
    "print('reachable:', [name for name in names if hasattr(scope, name)])\n"
    "run_js = importlib.import_module('pyodide_js').constructor.constructor\n"
    "shape = run_js('return (o) => `${Object.getOwnPropertyNames(o).length} ${Object.getPrototypeOf(o) === null}`')()\n"
    "print('own:', shape(scope))\n"
)
JS_PROBED = "reachable: []\nown: 0 true\n"  # no property of its own, nor a prototype to inherit one from


def exactly(text: str) -> re.Pattern[str]:
    """`text` and nothing else, with its spaces as they are (expect() compares plain strings with spaces collapsed)."""
    return re.compile(f"^{re.escape(text)}$")


def test_without_scripts_the_prompt_starter_and_hints_are_in_the_page(site: Any) -> None:
    """The build pre-renders each exercise: readable before any script runs (and with none)."""
    html = (site / "lessons/roofline-exercises/index.html").read_text(encoding="utf-8")
    assert html.count('class="exercise"') == 5
    assert "<code>attainable(peak_tflops, bandwidth_tbs, intensity)</code>" in html
    assert "def attainable(peak_tflops, bandwidth_tbs, intensity):" in html
    assert "<summary>Hint 1</summary>" in html
    assert "min(peak_tflops, memory_roof)" not in html.split("data-exercise-data")[0]  # the solution is not shown


def test_the_editor_loads_only_when_a_reader_reaches_for_an_exercise(
    browser: Browser, base_url: str, network: Network
) -> None:
    """On a phone, an exercise costs no editor byte while it is below the fold, nor once it is scrolled to and read
    (making an editor holds the main thread for a third of a second on a desktop); a pointer over it brings the editor,
    which takes the place of the pre-rendered code without moving anything on the page."""
    context = new_context(browser, network, viewport={"width": 390, "height": 844})
    page = context.new_page()
    asked: list[str] = []  # by the page itself (its service worker may cache the editor for reading offline)
    page.on("request", lambda request: asked.append(request.url) if not request.service_worker else None)
    page.goto(base_url + PAGE)
    page.wait_for_selector(f"{ROOFLINE}[data-mounted]", state="attached")  # exercises mount at once, off screen too
    frames(page)  # the exercise's IntersectionObserver has said it is off screen
    page.wait_for_timeout(1000)  # and what the page asks for by itself meanwhile has been asked for
    assert asked and not [url for url in asked if "/assets/calculators/editor" in url]
    code = page.locator(f"{ROOFLINE} .exercise-editor code")
    expect(code).to_have_attribute("contenteditable", "plaintext-only")
    expect(page.locator(f"{ROOFLINE} .exercise-run")).to_be_visible()  # Run and Check work on the plain code meanwhile
    page.locator(ROOFLINE).scroll_into_view_if_needed()
    frames(page)
    page.wait_for_timeout(1000)  # read, not reached for: still no editor
    assert not [url for url in asked if "/assets/calculators/editor" in url]
    assert page.locator(f"{ROOFLINE} .cm-content").count() == 0
    before = page.evaluate(PLACES)
    page.locator(f"{ROOFLINE} .exercise-prompt").hover()
    page.wait_for_selector(f"{ROOFLINE} .cm-content")
    wait_until(
        page, lambda: [url for url in asked if url.endswith("/editor/codemirror-view.js")], "the editor's request"
    )
    # The editor measures itself in the frames after it is made: the page as it settles is the page as it was.
    eventually(
        page, lambda: page.evaluate(PLACES), lambda places: places == before, f"the exercise's parts (were {before})"
    )
    assert page.locator("#exercise-mbu .cm-content").count() == 0  # not reached for: not made
    context.close()


def test_what_is_typed_before_the_editor_arrives_is_kept(browser: Browser, base_url: str, network: Network) -> None:
    """A reader who tabs into the pre-rendered code and types while the editor is still loading loses nothing: the
    editor comes with that code, the focus and the caret where they were, and Check checks it."""
    # No service worker: a request it answers (it precaches the editor) never reaches the page's route that holds it.
    context = new_context(browser, network, viewport={"width": 390, "height": 844}, service_workers="block")
    page = context.new_page()
    editor = Held(page, "**/assets/calculators/editor.js")  # the editor is slow to come
    page.goto(base_url + PAGE)
    page.wait_for_selector(f"{ROOFLINE}[data-mounted]", state="attached")  # exercises mount at once, off screen too
    page.focus(f"{ROOFLINE} .exercise-editor code")
    page.keyboard.press("Control+a")
    page.keyboard.press("Delete")
    page.keyboard.type("def attainable(peak_tflops, bandwidth_tbs, intensity):\n    return min(peak_tflops, ")
    assert page.locator(f"{ROOFLINE} .cm-content").count() == 0
    editor.wait_asked(page)  # focusing asked for the editor
    assert len(editor.routes) == 1
    editor.release()
    content = page.locator(f"{ROOFLINE} .cm-content")
    expect(content).to_be_focused()
    page.keyboard.type("bandwidth_tbs * intensity)")  # where the caret was
    # .cm-content's text runs its lines together; matched as it is, spaces included.
    expect(content).to_have_text(exactly(RIGHT.replace("\n", "", 1).rstrip("\n")))
    press(page, ROOFLINE, "check")
    assert result_text(page, ROOFLINE).startswith("All ")
    context.close()


def test_a_readers_runs_and_checks_on_one_visit(page: Page, base_url: str, network: Network) -> None:
    """What a reader meets on one visit, in turn on one tab (each step was a test and a page of its own, and each
    page boots the calculators' Python and an exercise interpreter before its first Run; every Run and Check gets a
    fresh interpreter either way): the first Run, a wrong answer, a syntax error, printed output, code reaching for
    the page, then the right answer, remembered on the next visit."""
    open_exercises(page, base_url + PAGE)
    the_first_run_starts_from_the_exercise_snapshot_and_js_reaches_nothing(page)
    a_wrong_answer_shows_its_first_failing_case(page)
    a_syntax_error_shows_its_line_and_goes_there(page)
    run_shows_what_the_code_printed(page)
    the_code_cannot_reach_the_page_or_the_network(page, network)
    a_right_answer_passes_and_is_remembered(page)  # last: it reloads the page


def the_first_run_starts_from_the_exercise_snapshot_and_js_reaches_nothing(page: Page) -> None:
    """The first Run's interpreter is restored from the build's exercise snapshot (not booted plainly), runs the code,
    and its `js` module is the empty object the worker gave at restore, not the global scope the snapshot was made in
    or the worker's."""
    type_code(page, ROOFLINE, JS_PROBE)
    press(page, ROOFLINE, "run")
    assert "Ran without errors." in result_text(page, ROOFLINE)
    assert page.text_content(f"{ROOFLINE} .exercise-stdout") == JS_PROBED
    assert exercise_boots(page)[0] == "snapshot"


def a_wrong_answer_shows_its_first_failing_case(page: Page) -> None:
    """Forgetting the flat roof fails on a case above the ridge: its inputs, the calculator's value and what came
    back are shown, and the cases before it (below the ridge) pass."""
    type_code(page, ROOFLINE, WRONG)
    press(page, ROOFLINE, "check")
    text = result_text(page, ROOFLINE)
    assert f" of {case_count(page, ROOFLINE)} fails" in text
    shown = failing_case(page, ROOFLINE)
    memory_roof = shown["bandwidth_tbs"] * shown["intensity"]
    assert memory_roof > shown["peak_tflops"]
    assert shown["Expected"] == pytest.approx(shown["peak_tflops"], rel=1e-6)
    assert shown["Got"] == pytest.approx(memory_roof, rel=1e-6)


def a_syntax_error_shows_its_line_and_goes_there(page: Page) -> None:
    """Run reports Python's error with the line; the line is a button that puts the cursor on it."""
    type_code(page, ROOFLINE, "x = 1\n\ndef attainable(peak_tflops, bandwidth_tbs, intensity)\n    return 1\n")
    press(page, ROOFLINE, "run")
    assert result_text(page, ROOFLINE) == "Line 3: SyntaxError: expected ':'"
    page.click(f"{ROOFLINE} .exercise-line")
    # The editor moves its cursor once it is ready (a promise) and draws the selection in its own update.
    page.wait_for_function(
        """() => document.getSelection().anchorNode?.parentElement?.closest('.cm-line')?.textContent
            .startsWith('def attainable')"""
    )


def run_shows_what_the_code_printed(page: Page) -> None:
    """stdout comes back; an error raised after it is shown with its own line."""
    type_code(page, ROOFLINE, "print('ridge', 197 / 0.819)\nprint(1 / 0)\n")
    press(page, ROOFLINE, "run")
    text = result_text(page, ROOFLINE)
    assert page.text_content(f"{ROOFLINE} .exercise-stdout") == f"ridge {197 / 0.819}\n"
    assert text.endswith("Line 2: ZeroDivisionError: division by zero")


def the_code_cannot_reach_the_page_or_the_network(page: Page, network: Network) -> None:
    """`js` is refused, and the worker itself has no fetch once booted."""
    type_code(page, ROOFLINE, "import js\n")
    press(page, ROOFLINE, "run")
    assert "ImportError: exercises cannot import 'js'" in result_text(page, ROOFLINE)
    type_code(page, ROOFLINE, "import sys\nsys.modules['js'].fetch('http://example.com/')\nprint('sent')\n")
    press(page, ROOFLINE, "run")
    result_text(page, ROOFLINE)
    assert not [url for url in network.requests if "example.com" in url]


def a_right_answer_passes_and_is_remembered(page: Page) -> None:
    """Check runs every case and says so; the code and the pass are still there on the next visit."""
    type_code(page, ROOFLINE, RIGHT)
    press(page, ROOFLINE, "check")
    assert result_text(page, ROOFLINE) == f"All {case_count(page, ROOFLINE)} cases pass. Well done."
    page.reload()
    page.wait_for_selector(f"{ROOFLINE}[data-mounted]", state="attached")
    expect(page.locator(f"{ROOFLINE} .exercise-editor")).to_contain_text("return min(peak_tflops")  # before any editor
    expect(page.locator(f"{ROOFLINE} .exercise-status")).to_have_text("You passed this exercise on an earlier visit.")


def test_an_exercise_checked_by_a_function_of_the_book(page: Page, base_url: str) -> None:
    """The critical batch is checked against calculators.matmul.critical_batch, which the calculators' worker calls
    on each Check's cases: the right code passes every case; code that forgets the weights' bytes fails the first
    (the lesson's H100 case, 2 bytes per weight), showing the function's value and half of it."""
    open_exercises(page, base_url + PAGE)
    page.locator(CRITICAL).hover()
    page.wait_for_selector(f"{CRITICAL} .cm-content", timeout=30_000)
    type_code(page, CRITICAL, CRITICAL_RIGHT)
    press(page, CRITICAL, "check")
    assert result_text(page, CRITICAL) == f"All {case_count(page, CRITICAL)} cases pass. Well done."
    type_code(page, CRITICAL, CRITICAL_RIGHT.replace("ridge * weight_bytes * d * f", "ridge * d * f"))
    press(page, CRITICAL, "check")
    assert f"Case 1 of {case_count(page, CRITICAL)} fails" in result_text(page, CRITICAL)
    shown = failing_case(page, CRITICAL)
    assert shown["Expected"] == pytest.approx(309.651, abs=1e-3)  # the roofline lesson's 309.7
    assert shown["Got"] == pytest.approx(shown["Expected"] / 2, rel=1e-6)


def test_an_endless_loop_is_stopped_the_calculators_answer_meanwhile_and_the_next_run_works(
    page: Page, base_url: str
) -> None:
    """`while True: pass` is stopped after the time limit, with a message, in a Check and in a Run; a calculator
    edited while the loop runs gets its result at once (the loop is in another worker); the next Check works."""
    workers: list[Any] = []
    page.on("worker", lambda worker: workers.append(worker.url))
    open_exercises(page, base_url + PAGE)
    type_code(page, ROOFLINE, RIGHT)
    press(page, ROOFLINE, "run")
    result_text(page, ROOFLINE)  # booted
    type_code(page, ROOFLINE, "def attainable(peak_tflops, bandwidth_tbs, intensity):\n    while True:\n        pass\n")
    press(page, ROOFLINE, "check")
    text = result_text(page, ROOFLINE)  # the next interpreter's boot, then the 5 s limit
    assert text.startswith("Stopped after 5 seconds: your code was still running")
    type_code(page, ROOFLINE, "while True:\n    pass\n")  # a Run's loop, while the reader edits a calculator
    press(page, ROOFLINE, "run")
    page.fill(f"{CALCULATOR}-intensity", "20")
    wait_for_texts(page, expected("roofline", chip="tpu-v5e", intensity=20), CALCULATOR)
    assert result_text(page, ROOFLINE).startswith("Stopped after 5 seconds")
    type_code(page, ROOFLINE, RIGHT)
    press(page, ROOFLINE, "check")
    assert result_text(page, ROOFLINE).startswith("All ")
    # Each run had an interpreter of its own, ended after it; the calculators' worker was never ended. Exercise
    # workers start from a blob that imports exercise_worker.js (exercise_runtime.js: the policy they run under).

    def exercise_workers() -> int:
        return [url.startswith("blob:") for url in workers].count(True)

    wait_until(page, lambda: exercise_workers() >= 4, "a worker event for each run's interpreter")
    assert [url.endswith("/calculators/worker.js") for url in workers].count(True) == 1


def test_reset_asks_first(page: Page, base_url: str) -> None:
    """Reset asks before throwing the code away; keeping it changes nothing, confirming brings the starter back."""
    open_exercises(page, base_url + PAGE)
    type_code(page, ROOFLINE, WRONG)
    page.click(f"{ROOFLINE} .exercise-reset")
    expect(page.locator(f"{ROOFLINE} .exercise-confirm")).to_be_visible()
    page.click(f"{ROOFLINE} .exercise-reset-no")
    content = page.locator(f"{ROOFLINE} .cm-content")
    expect(content).to_contain_text("return bandwidth_tbs * intensity")
    page.click(f"{ROOFLINE} .exercise-reset")
    page.click(f"{ROOFLINE} .exercise-reset-yes")
    expect(content).to_contain_text("# Two ceilings")


def test_a_solution_is_offered_after_honest_attempts(page: Page, base_url: str) -> None:
    """Three failing checks of changed code show the button; checking the same code again does not count."""
    open_exercises(page, base_url + PAGE)
    solution = f"{ROOFLINE} .exercise-show-solution"
    for attempt in range(3):
        type_code(page, ROOFLINE, f"def attainable(peak_tflops, bandwidth_tbs, intensity):\n    return {attempt}\n")
        press(page, ROOFLINE, "check")
        result_text(page, ROOFLINE)
        if attempt == 0:
            press(page, ROOFLINE, "check")  # the same code again
            result_text(page, ROOFLINE)
        if attempt == 2:
            expect(page.locator(solution)).to_be_visible()
        else:
            expect(page.locator(solution)).to_be_hidden()
    page.click(solution)
    expect(page.locator(f"{ROOFLINE} .exercise-solution-code")).to_contain_text("min(peak_tflops, memory_roof)")


def test_keyboard_only(page: Page, base_url: str) -> None:
    """Tab reaches the editor; typing indents after a colon; Escape then Tab leaves it for Run, and Enter runs."""
    open_exercises(page, base_url + PAGE)
    page.focus(f"{ROOFLINE} .cm-content")
    page.keyboard.press("Control+a")
    page.keyboard.press("Delete")
    page.keyboard.type("def attainable(peak_tflops, bandwidth_tbs, intensity):\n")
    page.keyboard.type("return min(peak_tflops, bandwidth_tbs * intensity)")
    content = page.locator(f"{ROOFLINE} .cm-content")
    expect(content).to_have_text(re.compile(re.escape("):    return min")))  # the editor indented the body itself
    page.keyboard.press("Tab")  # indents, stays in the editor
    expect(content).to_be_focused()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Escape")
    page.keyboard.press("Tab")
    expect(page.locator(f"{ROOFLINE} .exercise-run")).to_be_focused()
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")  # Check
    assert result_text(page, ROOFLINE).startswith("All ")


def test_offline_after_one_visit(browser: Browser, base_url: str, site: Path, network: Network) -> None:
    """Visited once online, the exercises page reloads with the network off, and Check still runs Python, restored
    from the exercise snapshot kept offline."""
    context = new_context(browser, network)
    page = context.new_page()
    open_exercises(page, base_url + PAGE)
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=30_000)
    page.reload()
    open_exercises(page, base_url + PAGE)
    type_code(page, ROOFLINE, RIGHT)
    press(page, ROOFLINE, "run")
    result_text(page, ROOFLINE)  # the runtime is in the cache once it has booted under the service worker
    wait_until_cached(page, site)  # and the rest of it, cached in the background
    context.set_offline(True)
    page.reload()
    open_exercises(page, base_url + PAGE)
    type_code(page, ROOFLINE, RIGHT)
    press(page, ROOFLINE, "check")
    assert result_text(page, ROOFLINE).startswith("All ")
    assert exercise_boots(page)[0] == "snapshot"  # the exercise snapshot was kept offline too
    context.close()


def test_pages_without_an_exercise_load_no_editor(fresh_page: Page, base_url: str, network: Network) -> None:
    """Home (nothing interactive) loads no editor byte, service worker included (it precaches the plugin's small
    scripts, exercise.js among them, as it does quiz.js); the roofline lesson (calculators, no exercise) asks for no
    editor and no exercise script itself (its service worker may cache the whole runtime for offline reading)."""
    page = fresh_page  # a first visit: the service worker's install precaches
    page.goto(base_url + "/")
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=30_000)
    assert not [url for url in network.requests if "/assets/calculators/editor" in url]
    editor = ("/assets/calculators/editor", "/assets/calculators/exercise")  # exercise.js and its modules
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url) if not request.service_worker else None)
    page.goto(base_url + "/lessons/roofline/")
    wait_mounted(page, "#calc-1")
    page.fill("#calc-1-intensity", "20")
    wait_for_texts(page, expected("roofline", intensity=20), "#calc-1")
    assert asked and not [url for url in asked if any(part in url for part in editor)]


def test_phone_and_dark_mode(browser: Browser, base_url: str, network: Network) -> None:
    """At 390 px in the dark scheme, the exercise fits the screen and the editor takes the theme's code colours."""
    context = new_context(browser, network, viewport={"width": 390, "height": 844}, color_scheme="dark")
    page = context.new_page()
    open_exercises(page, base_url + PAGE)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    background = page.evaluate(f"getComputedStyle(document.querySelector('{ROOFLINE} .cm-editor')).backgroundColor")
    code = page.evaluate("getComputedStyle(document.body).getPropertyValue('--md-code-bg-color')")
    assert page.get_attribute("body", "data-md-color-scheme") == "slate"
    assert background != "rgba(0, 0, 0, 0)" and code.strip()
    page.screenshot(path="/tmp/exercise-phone-dark.png", full_page=False)
    context.close()


def test_focus_stays_on_the_button_after_run_and_check(page: Page, base_url: str) -> None:
    """Pressed from the keyboard, Run and Check keep the focus while the code runs and after: a screen reader stays
    where it was (a disabled button would drop the focus to the page's body)."""
    open_exercises(page, base_url + PAGE)
    type_code(page, ROOFLINE, RIGHT)
    for button in ("run", "check"):
        page.evaluate(f"document.querySelector('{ROOFLINE} .exercise-result').replaceChildren()")
        page.focus(f"{ROOFLINE} .exercise-{button}")
        page.keyboard.press("Enter")
        result_text(page, ROOFLINE)
        assert page.evaluate(f"document.activeElement === document.querySelector('{ROOFLINE} .exercise-{button}')")
        assert page.get_attribute(f"{ROOFLINE} .exercise-{button}", "aria-disabled") is None


# Each makes the first of a page's exercise interpreters one that never starts, as the real case left a CI run at
# "Starting Python in your browser…" for its whole minute with no request pending; `window.stuck` counts them.
NEVER_STARTS = {
    # The worker's first script says nothing, as a worker the browser never started is silent (an empty script, not a
    # loop: a spinning one cost a core for the whole 15 s wait).
    "worker": """
const RealBlob = Blob;
window.stuck = 0;
window.Blob = class extends RealBlob {
  constructor(parts, options) {
    if (window.stuck === 0 && String(parts?.[0] ?? "").includes('"alive"')) {
      window.stuck += 1;
      parts = ["// never says it is alive"];
    }
    super(parts, options);
  }
};
""",
    # The sandbox frame that makes the workers is never heard to load.
    "frame": """
const listen = EventTarget.prototype.addEventListener;
window.stuck = 0;
EventTarget.prototype.addEventListener = function (type, listener, options) {
  if (type === "load" && this instanceof HTMLIFrameElement && this.title === "exercise sandbox" && window.stuck === 0) {
    window.stuck += 1;
    return;
  }
  return listen.call(this, type, listener, options);
};
""",
}


def test_an_interpreter_that_never_starts_is_replaced(browser: Browser, base_url: str, network: Network) -> None:
    """An exercise interpreter that has not started 15 s after it was asked for (its worker silent, or the frame that
    makes workers never loaded) is given up and replaced by a fresh one, and the reader's Run gets its result instead
    of 'Starting Python in your browser…' for ever. Each part is stuck in a context of its own, side by side, so that
    their two waits are one."""
    contexts = []
    try:
        pages = {}
        for part, script in NEVER_STARTS.items():
            context = new_context(browser, network, service_workers="block")
            contexts.append(context)
            context.add_init_script(script)
            pages[part] = page = context.new_page()
            open_exercises(page, base_url + PAGE)
            type_code(page, ROOFLINE, "print(6 * 7)\n")
            press(page, ROOFLINE, "run")
        for part, page in pages.items():
            assert "Ran without errors." in result_text(page, ROOFLINE, BOOT_TIMEOUT + 15_000), part
            assert page.text_content(f"{ROOFLINE} .exercise-stdout") == "42\n", part
            assert page.evaluate("window.stuck") == 1, part  # the first was the one that never started
    finally:
        for context in contexts:
            context.close()


@pytest.mark.parametrize("failures", [1, 2])
def test_an_interpreter_that_does_not_load_is_replaced_once(
    browser: Browser, base_url: str, network: Network, failures: int
) -> None:
    """An exercise's interpreter whose script did not load (a busy CI run's Check once showed "Python could not run
    your code (the exercise worker could not be loaded)") is replaced once by a fresh one, since none of the reader's
    code ran in it; a second that fails too is reported, and the next Run works."""
    context = new_context(browser, network, service_workers="block")
    refused: list[str] = []
    passed: list[str] = []  # the requests for the script let through, for a failing run's message

    def fail_first(route: Route) -> None:
        if len(refused) < failures:
            refused.append(route.request.url)
            route.fulfill(status=404, content_type="text/plain", body="not found")
        else:
            passed.append(route.request.url)
            route.fallback()

    context.route("**/assets/calculators/exercise_worker.js", fail_first)
    try:
        page = context.new_page()
        open_exercises(page, base_url + PAGE)
        type_code(page, ROOFLINE, "print(6 * 7)\n")
        press(page, ROOFLINE, "run")
        if failures == 1:
            try:
                shown = result_text(page, ROOFLINE)
            except AssertionError as error:  # which interpreters asked for the script, and which were refused
                raise AssertionError(f"{error}; refused: {refused}; let through: {passed}") from None
            assert "Ran without errors." in shown
            assert page.text_content(f"{ROOFLINE} .exercise-stdout") == "42\n"
        else:
            status = page.locator(f"{ROOFLINE} .exercise-status")
            # Both interpreters fail to load quickly, but the calculators' Python boots beside them: on a busy
            # machine that took longer than expect's 5 s default once.
            expect(status).to_have_text(
                "Python could not run your code (the exercise worker could not be loaded).", timeout=BOOT_TIMEOUT
            )
            assert page.locator(f"{ROOFLINE} .exercise-result > *").count() == 0
            press(page, ROOFLINE, "run")  # a third interpreter, which loads
            assert "Ran without errors." in result_text(page, ROOFLINE)
            assert page.text_content(f"{ROOFLINE} .exercise-stdout") == "42\n"
        assert len(refused) == failures
    finally:
        context.close()
