"""Inputs adjustable in the prose, in Chromium (pages/adjustables.py, calculator_prose.js): the roofline lesson's
intensity and the parallelism explorer's chips are spinbuttons in their sentences. Keys and drags set the calculator's
own field, which recomputes its outputs and the sentences that follow it, within the input's range and on its steps;
a shared link brings the value back; nothing is announced per key press. On paper, without script and offline they
read as the text the build wrote, and offline the adjustable still drives the calculator."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from calckit.api import run
from calckit.book import load
from tests.browser import test_every_page as every_page
from tests.browser import test_offline as offline
from tests.browser.calculator_page import BOOT_TIMEOUT, expected, frames, open_page, wait_for_texts
from tests.browser.conftest import Network, WarmContexts, new_context, warm_tab
from tests.support import NODE_MODULES

pytestmark = pytest.mark.browser

ROOFLINE = "/lessons/roofline/"
PARALLELISM = "/lessons/parallelism/"
INTENSITY = 'data.calc-adjust[data-adjusts="calc-1"][data-input="intensity"]'
CHIPS = 'data.calc-adjust[data-adjusts="calc-2"][data-input="chips"]'
# The sentence after the adjustable: the roofline's attainable rate, following calc-1 without inputs of its own, and
# the H100 at 120 FLOP/byte, which names its own intensity and so keeps it.
ATTAINABLE = 'data.calc-value[data-follows="calc-1"][data-output="attainable"][data-given="{}"]'
AT_120 = 'data.calc-value[data-follows="calc-1"][data-output="attainable"][data-given=\'{"intensity":120.0}\']'
LIVE = "[aria-live], [role=status], [role=alert], [role=log]"


@pytest.fixture
def page(warm_page: Page) -> Page:
    """Adjusting is not about a first visit: a new tab in the module's warm context."""
    return warm_page


def live(page: Page, selector: str) -> Locator:
    """The adjustable input, once its script has made it a spinbutton."""
    element = page.locator(selector)
    expect(element).to_have_attribute("role", "spinbutton")
    return element


def shows(element: Locator, value: str, text: str) -> None:
    expect(element).to_have_attribute("aria-valuenow", value)
    expect(element).to_have_attribute("aria-valuetext", text)
    expect(element).to_have_text(text)


def middle(element: Locator) -> tuple[float, float]:
    """The middle of `element`, scrolled to the middle of the screen (clear of the page's sticky header)."""
    element.evaluate("(element) => element.scrollIntoView({block: 'center'})")
    box = element.bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_keys_step_the_intensity_recompute_the_calculator_and_its_sentences_within_the_range(
    page: Page, base_url: str
) -> None:
    open_page(page, base_url + ROOFLINE, "#calc-1")
    intensity = live(page, INTENSITY)
    # Its name is the input's label; its range the input's (calculators/roofline.py); its value the block's default.
    expect(intensity).to_have_attribute("aria-label", "Arithmetic intensity")
    expect(intensity).to_have_attribute(
        "title", "Arithmetic intensity: drag it sideways, or use the arrow keys, to change the Roofline calculator"
    )
    expect(intensity).to_have_attribute("tabindex", "0")
    expect(intensity).to_have_attribute("aria-valuemin", "0.01")
    expect(intensity).to_have_attribute("aria-valuemax", "1000000")
    shows(intensity, "100", "100 FLOP/byte")
    at_120 = page.locator(AT_120).text_content()
    assert at_120 == expected("roofline", intensity=120)["attainable"]
    # Not a live region, nor inside one: a screen reader hears the spinbutton's value, not a sentence per key press
    # (test_a_burst_of_steps_is_said_once_when_the_reader_pauses: nor the calculator's summary).
    assert intensity.evaluate(f"(element) => element.closest({LIVE!r})") is None
    assert page.locator(ATTAINABLE).evaluate(f"(element) => element.closest({LIVE!r})") is None

    intensity.focus()
    for key, value in (("ArrowUp", 110), ("PageUp", 210), ("ArrowDown", 200), ("PageDown", 100), ("PageDown", 0.01)):
        intensity.press(key)
        text = f"{value:,g} FLOP/byte"
        shows(intensity, f"{value:g}", text)
        expect(page.locator("#calc-1-intensity")).to_have_value(f"{value:g}")
    # At the floor: one more step down stays there (0.01, the input's minimum), and the outputs are its.
    intensity.press("ArrowDown")
    shows(intensity, "0.01", "0.01 FLOP/byte")
    wait_for_texts(page, expected("roofline", intensity=0.01), "#calc-1")
    expect(page.locator(ATTAINABLE)).to_have_text(expected("roofline", intensity=0.01)["attainable"])  # 33.5 GFLOP/s
    intensity.press("End")
    shows(intensity, "1000000", "1,000,000 FLOP/byte")
    intensity.press("PageUp")
    shows(intensity, "1000000", "1,000,000 FLOP/byte")
    intensity.press("Home")
    shows(intensity, "0.01", "0.01 FLOP/byte")
    for key in ("End", "Home", "ArrowUp", "ArrowUp", "ArrowUp"):  # from 0.01, the steps' grid: 10, 20, 30
        intensity.press(key)
    shows(intensity, "30", "30 FLOP/byte")
    want = expected("roofline", intensity=30)
    wait_for_texts(page, want, "#calc-1")
    expect(page.locator(ATTAINABLE)).to_have_text(want["attainable"])
    assert want["attainable"] == "100 TFLOP/s"  # 3.35 TB/s x 30 FLOP/byte, memory-bound: 100.5, to three digits
    assert page.locator(AT_120).text_content() == at_120  # a sentence that names its own intensity keeps it
    # The focus ring shows where the keys go.
    assert intensity.evaluate("(element) => getComputedStyle(element).outlineStyle") == "solid"
    # A shared link brings it back: the calculator records it, and a reload puts it into the sentence too.
    page.wait_for_url(lambda url: "calc-1.intensity=30" in url, timeout=BOOT_TIMEOUT)
    page.reload()
    shows(live(page, INTENSITY), "30", "30 FLOP/byte")
    expect(page.locator(ATTAINABLE)).to_have_text(want["attainable"], timeout=BOOT_TIMEOUT)


# From now on, every text a live region of the page says (an element with aria-live other than "off", or a status),
# in window.__said, as the region reads when its text changed.
SAID = """() => {
  window.__said = [];
  new MutationObserver((mutations) => {
    for (const mutation of mutations) {
      const target = mutation.target instanceof Element ? mutation.target : mutation.target.parentElement;
      const region = target?.closest("[aria-live], [role=status], [role=alert]");
      const live = region?.getAttribute("aria-live") ?? (region ? "polite" : "off");
      const text = region?.textContent?.trim() ?? "";
      if (live !== "off" && text) window.__said.push(text);
    }
  }).observe(document.body, { subtree: true, childList: true, characterData: true });
}"""


def test_a_burst_of_steps_is_said_once_when_the_reader_pauses(page: Page, base_url: str) -> None:
    open_page(page, base_url + ROOFLINE, "#calc-1")
    intensity = live(page, INTENSITY)
    summary = page.locator("#calc-1 .calc-summary")
    intensity.focus()
    intensity.press("ArrowUp")  # Python starts: the first answer, and the pause after it
    wait_for_texts(page, expected("roofline", intensity=110), "#calc-1")
    expect(summary).to_have_attribute("aria-live", "polite")
    page.evaluate(SAID)
    for _ in range(5):
        intensity.press("ArrowUp")
    # While the keys come the summary changes on screen but says nothing; once they stop, it says the last one.
    final = run("roofline", {"intensity": 160}, load("calculators"))
    assert final["ok"]
    wait_for_texts(page, expected("roofline", intensity=160), "#calc-1")
    expect(summary).to_have_attribute("aria-live", "polite")
    expect(summary).to_have_text(final["summary"])
    frames(page)
    assert page.evaluate("window.__said") == [final["summary"]]


def test_a_drag_sets_the_explorers_chips_and_its_sentences_follow(page: Page, base_url: str) -> None:
    open_page(page, base_url + PARALLELISM, "#calc-2")
    chips = live(page, CHIPS)
    expect(chips).to_have_attribute("aria-label", "Chips")
    shows(chips, "1024", "1,024")
    assert chips.evaluate("(element) => getComputedStyle(element).touchAction") == "none"
    assert chips.evaluate("(element) => getComputedStyle(element.parentElement).touchAction") == "auto"
    assert chips.evaluate("(element) => getComputedStyle(element).cursor") == "ew-resize"
    assert chips.evaluate("(element) => getComputedStyle(element).textDecorationStyle") == "dashed"
    x, y = middle(chips)
    # 1,024 chips move ten at a time, one step every 8 pixels: 32 pixels to the right is 1,064.
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 32, y, steps=4)
    page.mouse.up()
    shows(chips, "1064", "1,064")
    expect(page.locator("#calc-2-chips")).to_have_value("1064")
    want = expected("parallelism", chips=1064)
    wait_for_texts(page, {"activations": want["activations"], "step": want["step"]}, "#calc-2")
    follower = page.locator('data.calc-value[data-follows="calc-2"][data-output="activations"][data-given="{}"]')
    expect(follower).to_have_text(want["activations"], timeout=BOOT_TIMEOUT)
    # One microbatch, one at a time: a drag to the left stays at the floor, and back to the right counts from it.
    microbatches = live(page, 'data.calc-adjust[data-adjusts="calc-2"][data-input="microbatches"]')
    x, y = middle(microbatches)
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x - 40, y, steps=5)
    shows(microbatches, "1", "1")
    page.mouse.move(x + 16, y, steps=7)
    page.mouse.up()
    shows(microbatches, "3", "3")
    expect(page.locator("#calc-2-microbatches")).to_have_value("3")
    # Typing in the calculator's own field shows in the sentence.
    page.fill("#calc-2-chips", "2048")
    shows(chips, "2048", "2,048")


def test_a_finger_drags_it_without_scrolling_the_page(
    warm_contexts: WarmContexts, network: Network, base_url: str
) -> None:
    with warm_tab(warm_contexts(has_touch=True), network, base_url) as page:
        open_page(page, base_url + ROOFLINE, "#calc-1")
        intensity = live(page, INTENSITY)
        x, y = middle(intensity)
        scrolled = page.evaluate("scrollY")
        touch = page.context.new_cdp_session(page)
        touch.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
        for moved in (8, 16, 24, 32):  # to the right, and a little down, as a thumb moves
            point = {"x": x + moved, "y": y + moved / 4}
            touch.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
        touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        touch.detach()
        # 100 FLOP/byte, four steps of 10: one every 8 pixels.
        shows(intensity, "140", "140 FLOP/byte")
        expect(page.locator("#calc-1-intensity")).to_have_value("140")
        wait_for_texts(page, expected("roofline", intensity=140), "#calc-1")
        assert page.evaluate("scrollY") == scrolled  # the finger moved the number, not the page


@pytest.mark.parametrize("path", [ROOFLINE, PARALLELISM])
def test_axe_finds_nothing_serious_on_the_pages_that_adjust(page: Page, base_url: str, path: str) -> None:
    """axe-core on the lessons with adjustable inputs, live: the spinbuttons' names, roles and values included."""
    page.goto(base_url + path)
    expect(page.locator("data.calc-adjust").first).to_have_attribute("role", "spinbutton")
    page.add_script_tag(content=(NODE_MODULES / "axe-core/axe.min.js").read_text(encoding="utf-8"))
    assert page.evaluate(every_page.AXE, None) == []


@pytest.fixture
def printed(page: Page, base_url: str) -> Iterator[Page]:
    open_page(page, base_url + ROOFLINE, "#calc-1")
    live(page, INTENSITY)
    page.emulate_media(media="print")
    yield page
    page.emulate_media(media=None)


def test_on_paper_values_and_adjustables_read_as_text(printed: Page) -> None:
    for selector in (INTENSITY, ATTAINABLE):
        style = printed.locator(selector).evaluate(
            "(element) => { const s = getComputedStyle(element); "
            "return [s.textDecorationLine, s.cursor, s.outlineStyle]; }"
        )
        assert style == ["none", "auto", "none"], (selector, style)
    paragraph = printed.locator(INTENSITY).locator("xpath=..").inner_text()
    want = expected("roofline")
    assert (
        f"at 100 FLOP/byte the H100 reaches {want['attainable']}, {want['fraction']} of its peak compute."
        in " ".join(paragraph.split())
    )


def test_without_script_it_reads_as_built(browser: Browser, base_url: str) -> None:
    context = new_context(browser, Network(base_url), java_script_enabled=False)
    page = context.new_page()
    page.goto(base_url + ROOFLINE)
    intensity = page.locator(INTENSITY)
    assert intensity.text_content() == "100 FLOP/byte"
    assert intensity.get_attribute("role") is None and intensity.get_attribute("tabindex") is None
    assert intensity.evaluate("(element) => getComputedStyle(element).textDecorationLine") == "none"
    assert page.locator(ATTAINABLE).text_content() == expected("roofline")["attainable"]
    context.close()


def test_offline_the_values_read_and_the_adjustable_drives_the_calculator(
    browser: Browser, site: Path, base_url: str
) -> None:
    network = Network(base_url)
    context = new_context(browser, network)
    page = context.new_page()
    page.goto(base_url + ROOFLINE)
    assert offline.start_calculators(page)["mode"] == "snapshot"
    page.evaluate(
        "async (url) => { await (await import(url)).runtimeDownloadsKept(); }", page.evaluate(offline.RUNTIME_JS)
    )
    offline.wait_until_cached(page, site)
    context.set_offline(True)
    page.reload()
    intensity = live(page, INTENSITY)
    shows(intensity, "100", "100 FLOP/byte")
    expect(page.locator(ATTAINABLE)).to_have_text(expected("roofline")["attainable"])
    intensity.focus()
    intensity.press("ArrowUp")
    shows(intensity, "110", "110 FLOP/byte")
    want = expected("roofline", intensity=110)
    wait_for_texts(page, want, "#calc-1")
    expect(page.locator(ATTAINABLE)).to_have_text(want["attainable"], timeout=BOOT_TIMEOUT)
    context.close()
    network.assert_stayed_local()
