"""The roofline page in Chromium: pre-rendered results, live recompute in the worker, errors, navigation, file://."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from calckit.api import run
from tests.browser import calculator_page
from tests.browser.calculator_page import BOOT_TIMEOUT, Held, follow_instantly, open_page
from tests.browser.conftest import Network, new_context

pytestmark = pytest.mark.browser

PAGE = "/lessons/roofline/"
FIRST = "#calc-1"
WORKER = "**/assets/calculators/worker.js"

# From now on, the intensity of each call a calculator sends the calculators' worker, in window.__callsSent; each
# call's inputs are also handed to window.__onCall, when a test sets it. A sentence that follows the first calculator
# with an input of its own (`{value}`#calc-1.attainable intensity=120``, pages/values.py) asks for its own answer
# after each of the calculator's: those calls, recognised by that input, go to window.__followerCalls instead.
CALLS_SENT = """() => {
  window.__callsSent = [];
  window.__followerCalls = [];
  const owns = [...document.querySelectorAll("data.calc-value[data-follows]")]
    .map((value) => JSON.parse(value.dataset.given || "{}"))
    .filter((own) => Object.keys(own).length > 0);
  const follows = (inputs) =>
    owns.some((own) => Object.entries(own).every(([key, value]) => String(inputs[key]) === String(value)));
  const native = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (message, ...rest) {
    const sent = native.call(this, message, ...rest);
    if (message?.type === "call" && message.function === "run") {
      const inputs = message.arguments.inputs;
      if (follows(inputs)) window.__followerCalls.push(inputs.intensity);
      else {
        window.__callsSent.push(inputs.intensity);
        window.__onCall?.(inputs);
      }
    }
    return sent;
  };
}"""


@pytest.fixture
def page(warm_page: Page) -> Page:
    """Recomputing is not about a first visit: each test is a new
    tab in the module's warm context (conftest's warm_page); those about a first visit take
    `fresh_page`."""
    return warm_page


def texts(page: Page, calculator: str = FIRST) -> dict[str, str]:
    return calculator_page.texts(page, calculator)


def expected(**inputs: object) -> dict[str, str]:
    return calculator_page.expected("roofline", **inputs)


def wait_for_texts(page: Page, wanted: dict[str, str], calculator: str = FIRST) -> None:
    calculator_page.wait_for_texts(page, wanted, calculator)


class TestBeforeAnyScript:
    def test_results_are_in_the_html(self, browser: Browser, network: Network, base_url: str) -> None:
        """With JavaScript off, both calculators already show CPython's results for the author's inputs."""
        context = new_context(browser, network, java_script_enabled=False)
        page = context.new_page()
        page.goto(base_url + PAGE)
        assert texts(page) == expected()
        assert texts(page, "#calc-2") == expected(chip="tpu-v5e", intensity=120)
        assert page.input_value("#calc-2-intensity") == "120"
        context.close()
        assert network.foreign == []


class TestRecompute:
    def test_changing_intensity_gives_cpythons_values(self, page: Page, base_url: str) -> None:
        """Typing a new intensity updates every output to what CPython computes, and redraws the chart."""
        open_page(page, base_url + PAGE)
        page.locator(f"{FIRST} .calc-chart-view").scroll_into_view_if_needed()
        page.wait_for_selector(f"{FIRST} .calc-chart-view svg")
        before = page.get_attribute(f"{FIRST} .calc-chart-view", "aria-label")
        page.fill(f"{FIRST}-intensity", "1000")
        want = expected(intensity=1000)
        assert want["bound"] == "Compute-bound"
        wait_for_texts(page, want)
        assert texts(page) == want
        chart = page.locator(f"{FIRST} .calc-chart-view")
        expect(chart).to_have_attribute("aria-label", re.compile("Compute-bound"))
        expect(chart).not_to_have_attribute("aria-label", before)
        summary = page.locator(f"{FIRST} .calc-summary")
        expect(summary).to_have_text(run("roofline", {"intensity": 1000})["summary"])

    def test_inputs_in_one_task_make_one_call_with_the_last_values(self, page: Page, base_url: str) -> None:
        """Three input events in one task (a script filling the field, keys faster than a frame) make one call to
        Python, with the form as they leave it, and show its results: not one call per event."""
        open_page(page, base_url + PAGE)
        page.fill(f"{FIRST}-intensity", "1000")
        wait_for_texts(page, expected(intensity=1000))  # booted: calls go out at once from here
        page.evaluate(CALLS_SENT)
        page.evaluate(
            """id => { const field = document.querySelector(id);
            for (const value of ["5", "20", "70"]) {
              field.value = value; field.dispatchEvent(new Event("input", { bubbles: true })); } }""",
            f"{FIRST}-intensity",
        )
        wait_for_texts(page, expected(intensity=70))
        assert page.evaluate("window.__callsSent") == ["70"]

    def test_an_answer_for_inputs_since_changed_is_not_shown(self, page: Page, base_url: str) -> None:
        """An input that comes while Python computes the one before makes that answer stale: it is not shown (no
        frame paints numbers the reader has left), and the newer inputs' answer is."""
        open_page(page, base_url + PAGE)
        page.fill(f"{FIRST}-intensity", "1000")
        wait_for_texts(page, expected(intensity=1000))
        page.evaluate(CALLS_SENT)
        page.evaluate(
            """([id, summary]) => {
              const field = document.querySelector(id);
              const shown = document.querySelector(summary);
              window.__summaries = [];
              new MutationObserver(() => window.__summaries.push(shown.textContent))
                .observe(shown, { childList: true, characterData: true, subtree: true });
              // As the call for 5 leaves, before any answer can come back, the reader types 70.
              window.__onCall = (inputs) => {
                if (inputs.intensity !== "5") return;
                queueMicrotask(() => {
                  field.value = "70";
                  field.dispatchEvent(new Event("input", { bubbles: true }));
                });
              };
              field.value = "5";
              field.dispatchEvent(new Event("input", { bubbles: true }));
            }""",
            [f"{FIRST}-intensity", f"{FIRST} .calc-summary"],
        )
        wait_for_texts(page, expected(intensity=70))
        assert page.evaluate("window.__callsSent") == ["5", "70"]
        seen = page.evaluate("window.__summaries")
        assert run("roofline", {"intensity": "5"})["summary"] not in seen
        assert seen[-1] == run("roofline", {"intensity": "70"})["summary"]

    def test_slider_moves_by_keyboard(self, page: Page, base_url: str) -> None:
        """The log slider steps the intensity with the arrow keys, and the field and results follow."""
        open_page(page, base_url + PAGE)
        page.focus(f"{FIRST} .calc-slider")
        for _ in range(10):
            page.keyboard.press("ArrowLeft")
        # 10 ** (2 - 10 * 0.01), to three digits
        expect(page.locator(f"{FIRST}-intensity")).to_have_value("79.4")
        wait_for_texts(page, expected(intensity=79.4))
        slider = page.locator(f"{FIRST} .calc-slider")
        expect(slider).to_have_attribute("aria-valuetext", "79.4 FLOP/byte")

    def test_bad_input_shows_message_and_keeps_last_result(self, page: Page, base_url: str) -> None:
        """A negative intensity gets the package's message next to the field; the last good results stay, stale."""
        open_page(page, base_url + PAGE)
        page.fill(f"{FIRST}-intensity", "1000")
        good = expected(intensity=1000)
        wait_for_texts(page, good)
        page.fill(f"{FIRST}-intensity", "-3")
        error = page.locator(f"{FIRST}-intensity-error")
        field = page.locator(f"{FIRST}-intensity")
        note = page.locator(f"{FIRST} .calc-stale-note")
        error.wait_for(state="visible", timeout=BOOT_TIMEOUT)
        assert run("roofline", {"intensity": "-3"})["errors"][0]["hint"] == "Use 0.01 or more (you typed -3)."
        expect(error).to_have_text("Use 0.01 or more (you typed -3).")
        expect(field).to_have_attribute("aria-invalid", "true")
        expect(note).to_be_visible()
        expect(note).to_have_text("These results are for the last valid inputs.")
        assert texts(page) == good
        page.fill(f"{FIRST}-intensity", "abc")
        page.wait_for_function(
            "() => document.querySelector('#calc-1-intensity-error').textContent.includes('a number')"
        )
        page.fill(f"{FIRST}-intensity", "50")
        wait_for_texts(page, expected(intensity=50))
        expect(error).to_be_hidden()
        expect(field).not_to_have_attribute("aria-invalid", re.compile(".*"))  # no such attribute at all
        expect(note).to_be_hidden()

    def test_a_shared_link_is_marked_stale_until_its_results_are_computed(
        self, fresh_page: Page, base_url: str
    ) -> None:
        """The form shows the link's inputs at once; the build's results under it are dimmed and say so until the
        worker's results for the link replace them. (The worker's script is held back meanwhile, as a slow network
        would: the marked state then lasts until the test lets Python start, however fast the machine.)"""
        page = fresh_page  # a first visit: the worker's script comes from the network, where it is held
        worker = Held(page.context, WORKER)
        page.goto(base_url + PAGE + "?calc-1.chip=h200-sxm&calc-1.intensity=50")
        calculator = page.locator(FIRST)
        note = page.locator(f"{FIRST} .calc-stale-note")
        expect(calculator).to_contain_class("calc-stale")
        expect(page.locator(f"{FIRST}-intensity")).to_have_value("50")
        expect(note).to_be_visible()
        expect(note).to_have_text("These results are for earlier inputs: they update once yours are computed.")
        assert texts(page) == expected()
        worker.wait_asked(page)
        worker.release()
        wait_for_texts(page, expected(chip="h200-sxm", intensity=50))
        expect(calculator).not_to_contain_class("calc-stale")
        expect(note).to_be_hidden()

    def test_an_edit_while_python_starts_is_marked_stale(self, fresh_page: Page, base_url: str) -> None:
        page = fresh_page  # a first visit: the worker's script comes from the network, where it is held
        worker = Held(page.context, WORKER)  # Python cannot start until released
        open_page(page, base_url + PAGE)
        page.fill(f"{FIRST}-intensity", "7")
        calculator = page.locator(FIRST)
        expect(calculator).to_contain_class("calc-stale")
        assert texts(page) == expected()  # still the build's results, and marked so
        worker.wait_asked(page)
        worker.release()
        wait_for_texts(page, expected(intensity=7))
        expect(calculator).not_to_contain_class("calc-stale")

    def test_a_value_above_100_percent_gets_a_note_beside_it(self, page: Page, base_url: str) -> None:
        """MBU on the reference page: a 14 B model at 100 token/s on an A100 needs 137% of its bandwidth."""
        open_page(page, base_url + "/reference/calculators/", "#calc-2")
        page.fill("#calc-2-params_b", "14")
        calculator_page.wait_for_texts(page, calculator_page.expected("mbu", params_b=14), "#calc-2")
        note = page.locator('#calc-2 [data-output="mbu"] .calc-note')
        expect(note).to_be_visible()
        expect(note).to_have_text("More than the memory can deliver: check the inputs.")
        page.fill("#calc-2-params_b", "7")
        calculator_page.wait_for_texts(page, calculator_page.expected("mbu", params_b=7), "#calc-2")
        expect(note).to_be_hidden()

    def test_reset_restores_the_authors_inputs(self, page: Page, base_url: str) -> None:
        open_page(page, base_url + PAGE)
        page.fill("#calc-2-intensity", "3")
        wait_for_texts(page, expected(chip="tpu-v5e", intensity=3), "#calc-2")
        page.click("#calc-2 .calc-reset")
        wait_for_texts(page, expected(chip="tpu-v5e", intensity=120), "#calc-2")
        expect(page.locator("#calc-2-intensity")).to_have_value("120")


class TestNavigation:
    def test_one_worker_and_one_wasm_download_across_pages(
        self, fresh_page: Page, network: Network, base_url: str
    ) -> None:
        """Instant navigation roofline -> home -> back -> home -> roofline keeps the tab's single worker, and it still
        answers; the wasm crosses the network once (Network.downloads); inputs changed just before leaving stay in the
        page's own entry."""
        page = fresh_page  # a first visit, which downloads the runtime once
        workers: list[str] = []
        page.on("worker", lambda worker: workers.append(worker.url))
        open_page(page, base_url + PAGE)
        page.fill(f"{FIRST}-intensity", "1000")
        wait_for_texts(page, expected(intensity=1000))
        follow_instantly(page, "a.md-header__button.md-logo", base_url + "/")
        # Left before the URL's pause ended: the inputs went into the roofline page's entry at the click, never into
        # the home page's address, and Back brings them back.
        page.go_back()
        page.wait_for_url(base_url + PAGE + "?calc-1.intensity=1000")
        wait_for_texts(page, expected(intensity=1000))
        expect(page.locator(f"{FIRST}-intensity")).to_have_value("1000")
        follow_instantly(page, "a.md-header__button.md-logo", base_url + "/")
        follow_instantly(page, "article a[href$='roofline/']", base_url + PAGE)
        page.fill(f"{FIRST}-intensity", "2")
        wait_for_texts(page, expected(intensity=2))
        calculator_workers = [url for url in workers if "assets/calculators/worker.js" in url]
        assert len(calculator_workers) == 1
        assert len(downloads := network.downloads("pyodide.asm.wasm")) == 1, downloads
        assert 1 <= network.count("pyodide.asm.wasm") <= 2
        assert page.evaluate("performance.getEntriesByType('navigation').length") == 1


class TestFromFile:
    def test_says_it_needs_http_and_keeps_results(self, browser: Browser, site: Path) -> None:
        """Opened from file://, the page reads normally and the calculator says, in plain words, that it must be
        served over http; its chart, which cannot be drawn, leaves no empty box."""
        page = browser.new_page()
        page.goto((site / "lessons/roofline/index.html").as_uri())
        status = page.locator(f"{FIRST} .calc-status")
        expect(status).to_have_text(
            "This calculator needs the site to be served over http; opened as a file, it shows the results for the "
            "inputs as written."
        )
        assert texts(page) == expected()
        expect(page.locator(f"{FIRST}-intensity")).to_be_disabled()
        # No box at all where the chart was (not even an empty one): hidden once the page knows it is a file.
        page.wait_for_function(f"() => document.querySelector('{FIRST} .calc-chart').getClientRects().length === 0")
        page.close()

    def test_links_reach_pages(self, browser: Browser, site: Path) -> None:
        """A link to another page opens that page, not a listing of its folder."""
        page = browser.new_page()
        page.goto((site / "lessons/roofline/index.html").as_uri())
        page.click("nav.md-nav--primary a[href*='roofline-quiz']")
        # The click only starts the navigation: wait for the address it leads to (the old page was loaded already).
        page.wait_for_url("**/lessons/roofline-quiz/index.html")
        expect(page).to_have_title(re.compile("^Check yourself: the roofline"))
        page.close()

    def test_a_quiz_keeps_the_answer_and_says_it_needs_http(self, browser: Browser, site: Path) -> None:
        """Check cannot grade from a file: it does not reload the page (losing the answer), and the quiz says why."""
        page = browser.new_page()
        page.goto((site / "lessons/roofline-quiz/index.html").as_uri())
        # The page's own listeners run before this one (on window, last on the way up): whether they kept the form
        # from being sent, which would reload the page. Read as Check's click is handled, not after some wait.
        page.evaluate(
            "window.stayed = true; addEventListener('submit', (event) => { window.sent = !event.defaultPrevented; })"
        )
        page.click("#quiz-roofline-check-q1 .quiz-choice >> nth=1")
        page.click("#quiz-roofline-check-q1 .quiz-check")
        assert page.evaluate("[window.stayed, window.sent]") == [True, False]
        assert page.is_checked("#quiz-roofline-check-q1 .quiz-choice >> nth=1 >> input")
        note = page.locator("#quiz-roofline-check .quiz-note")
        expect(note).to_be_visible()
        expect(note).to_contain_text("needs the site served over http")
        page.close()


class TestAccessibility:
    def test_axe_finds_no_serious_problems(self, page: Page, base_url: str) -> None:
        """axe-core (the pinned npm package) reports no violation at all on the calculator page."""
        from tests.support import NODE_MODULES

        open_page(page, base_url + PAGE)
        page.locator(f"{FIRST} .calc-chart-view").scroll_into_view_if_needed()
        page.wait_for_selector(f"{FIRST} .calc-chart-view svg")
        page.add_script_tag(path=str(NODE_MODULES / "axe-core/axe.min.js"))
        violations = page.evaluate(
            "async () => (await axe.run(document)).violations.map(v => ({id: v.id, impact: v.impact, "
            "nodes: v.nodes.map(n => n.target.join(' '))}))"
        )
        assert violations == []


# Resolves once the page's runtime (the very module its calculators use) has booted, or failed, by itself; rejects
# after `ms`.
IDLE_BOOT_DONE = """(ms) => import(document.querySelector('script[src*="assets/calculators/entry.js"]').src
    .replace('entry.js', 'runtime.js')).then((runtime) => new Promise((done, fail) => {
        setTimeout(() => fail(new Error(`no boot within ${ms} ms`)), ms);
        runtime.watchRuntime(({stage}) => (stage === 'ready' || stage === 'failed') && done(stage));
    }))"""


class TestLazyCharts:
    def test_vega_runs_only_when_a_chart_nears_the_screen(self, fresh_page: Page, base_url: str) -> None:
        """On a page whose calculators sit below the fold, the page does not load Vega (800 kB of script to parse)
        until the reader scrolls to a chart. (The service worker may still fetch it in the background, for offline.)"""
        page = fresh_page  # a first visit: a cold boot, which takes longer than Vega would take to load
        page.set_viewport_size({"width": 1280, "height": 400})
        page.goto(base_url + "/reference/calculators/")
        # The first calculator's top at the top of the screen, as a link to it puts it (its chart is far below).
        page.eval_on_selector("#calc-1", "el => el.scrollIntoView({block: 'start', behavior: 'instant'})")
        page.wait_for_selector("#calc-1[data-mounted]", state="attached")
        # Idle time passes: the calculator on screen boots Python in it, and the boot takes longer than any chart
        # near the screen would take to start loading Vega.
        assert page.evaluate(IDLE_BOOT_DONE, BOOT_TIMEOUT) == "ready"
        calculator_page.frames(page)
        assert page.evaluate("typeof window.vega") == "undefined"
        page.locator("#calc-1 .calc-chart-view").scroll_into_view_if_needed()
        page.wait_for_selector("#calc-1 .calc-chart-view svg")
        assert page.evaluate("typeof window.vega") == "object"
