"""Math typeset at build, chapter 27's figures and its systolic-array stepper, in Chromium as a reader uses them.

Math: the formulas are KaTeX's HTML with MathML for screen readers, the page asks for no math script (only KaTeX's
stylesheet and fonts, from the site itself), they read after one visit with the network off, and on a 390 px phone a
long display formula scrolls in its own box while the page does not. Off screen, formulas are not laid out
(content-visibility, math.css), nor are paragraphs with one, so that KaTeX's fonts come only as a formula nears the
screen; yet a screen reader gets every one's MathML, and a display formula stands in at its own height. The
stepper steps by keyboard, announces each cycle in its live summary, and plays to the end of the pass and round again.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect

from tests.browser.calculator_page import follow_instantly, frames, present, scroll_until_laid_out, wait_mounted
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, Network, new_context

pytestmark = pytest.mark.browser

LESSON = "/lessons/roofline/"
CHAPTER = "/chapters/27-asics-and-accelerators/"
BOOT_TIMEOUT = 60_000  # a cold Pyodide boot on a busy 2-core machine
KATEX_FONT = "document.fonts.ready.then(() => document.fonts.check('16px KaTeX_Main'))"
# The KaTeX fonts a formula of the roofline lesson and chapter 27 uses, loaded (check() alone is true for a family that
# was never declared): its upright letters and digits, and its italic variables.
KATEX_FONTS_LOADED = """() => document.fonts.ready.then(() => {
  const loaded = [...document.fonts]
    .filter((face) => face.status === "loaded")
    .map((face) => `${face.family} ${face.style}`);
  return loaded.includes("KaTeX_Main normal") && loaded.includes("KaTeX_Math italic");
})"""


@pytest.fixture
def page(warm_page: Page) -> Page:
    """Reading formulas and figures is not about a first visit: each test is a new
    tab in the module's warm context (conftest's warm_page); reading offline takes `fresh_page`."""
    return warm_page


def test_formulas_are_typeset_with_no_math_script(page: Page, base_url: str, network: Network) -> None:
    page.goto(base_url + LESSON)
    formulas = page.locator("article .katex")
    assert formulas.count() >= 15
    # MathML for screen readers beside the drawn formula, which they skip.
    assert page.locator("article .katex .katex-mathml math").count() == formulas.count()
    assert page.locator("article .katex .katex-html[aria-hidden='true']").count() == formulas.count()
    annotation = present(page.locator("article .math-display annotation").first.text_content())
    assert annotation.startswith("I(B) = \\frac{2BDF}{2BD + 2DF + 2BF}")
    page.wait_for_function(KATEX_FONT)
    katex = [url for url in network.requests if "katex" in url.lower()]
    assert any(url.endswith("katex/katex.css") for url in katex)
    # No script typesets: the one KaTeX script is copy-tex, which makes a copied formula its TeX source (issue 41).
    assert all(url.endswith((".css", ".woff2", "katex/copy-tex.mjs")) for url in katex), katex
    scripts = page.eval_on_selector_all("script[src]", "els => els.map(e => e.src)")
    assert not [src for src in scripts if "katex" in src.lower() or "math" in src.lower()], scripts
    # A page without math links no KaTeX stylesheet (the roofline quiz has some now, in its explanations).
    page.goto(base_url + "/lessons/inference-at-scale/")
    assert page.locator("link[href*='katex']").count() == 0
    # Chapter 27's systolic array in math too: its pass length and how busy the array is.
    page.goto(base_url + CHAPTER)
    annotations = page.eval_on_selector_all("article .katex annotation", "els => els.map(e => e.textContent)")
    assert "M + 2N - 2" in annotations and "\\frac{M}{M + 2N - 2}" in annotations, annotations


def test_the_math_fonts_do_not_lay_the_whole_page_out_again(browser: Browser, base_url: str, network: Network) -> None:
    """KaTeX's fonts are declared by script, not by @font-face in a stylesheet: as Material's script starts, Chromium
    parses every stylesheet again, and @font-face rules there invalidated the layout of the whole document ("Fonts
    changed" on #document in a trace), which laid chapter 27 out twice at load (extras/formulas.py)."""
    # In the browser readers run, fresh: how it lays a page out is what is tested, not the tests' headless shell.
    readers = browser.browser_type.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
    context = new_context(readers, network, viewport=PHONE, service_workers="block")
    page = context.new_page()
    # The trace is the whole browser's: Chromium's own pages (its new-tab page's omnibox, whose web font fails at once
    # where no host resolves) lay themselves out in it too. Only the page's own frame counts.
    session = context.new_cdp_session(page)
    frame = session.send("Page.getFrameTree")["frameTree"]["frame"]["id"]
    session.detach()
    readers.start_tracing(page=page, categories=["disabled-by-default-devtools.timeline.invalidationTracking"])
    try:
        page.goto(base_url + CHAPTER)
        page.wait_for_load_state("load")
        frames(page)  # Material's script has run at load
        page.locator("article p:has(.katex)").first.scroll_into_view_if_needed()  # the fonts come with a formula
        page.wait_for_function(KATEX_FONTS_LOADED)
        frames(page)  # and the frames after they came are drawn
    finally:
        trace = json.loads(readers.stop_tracing())
        readers.close()
    ours = sorted(
        [
            (event["ts"], event["args"]["data"])
            for event in trace["traceEvents"]
            if event.get("name") == "LayoutInvalidationTracking" and event["args"]["data"].get("frame") == frame
        ],
        key=lambda pair: pair[0],
    )
    assert len(ours) > 1000, len(ours)  # the trace did record the page's layout
    # Fonts declared while the document is still an empty shell (#document and its html: on a busy machine the
    # parser may have it laid out before the head's script runs) relay nothing; once the page's content has been laid
    # out, a "Fonts changed" on the document lays all of it out again (with @font-face rules in the stylesheet: at
    # Material's script, 250 ms after the content, and 10,600 invalidations instead of 6,600).
    shell = ("#document", "HTML", "HEAD", "BODY")
    content = next(ts for ts, data in ours if not str(data.get("nodeName", "")).startswith(shell))
    relaid = [
        (ts - content) / 1000
        for ts, data in ours
        if ts > content and data.get("reason") == "Fonts changed" and data.get("nodeName") == "#document"
    ]
    assert relaid == [], f"the document's layout invalidated by fonts {relaid} ms after its content was laid out"
    assert network.foreign == [], network.foreign


def test_the_math_fonts_wait_until_a_formula_nears_the_screen(
    browser: Browser, base_url: str, network: Network
) -> None:
    """Chapter 27's first formula is five phone screens down: its paragraph is not laid out at load (math.css), so
    KaTeX's fonts are not asked for before the page's first paint, where Lighthouse's mobile model counted them as
    holding that paint up. They come as the reader nears a formula, and the paragraph then shows it in them."""
    context = new_context(browser, network, viewport=PHONE, service_workers="block")
    try:
        page = context.new_page()
        page.goto(base_url + CHAPTER)
        page.wait_for_load_state("load")
        frames(page)
        fonts = [url for url in network.requests if url.endswith(".woff2")]
        assert fonts == [], fonts
        assert page.evaluate("[...document.fonts].filter((face) => face.status !== 'unloaded').length") == 0
        paragraph = page.locator("article p:has(.katex)").first
        assert paragraph.evaluate(f"e => ({RENDERED})(e.querySelector('.katex'))") is False
        scroll_until_laid_out(page, "document.querySelector('article p:has(.katex)')", inside=".katex")
        page.wait_for_function(KATEX_FONTS_LOADED)
        assert any(url.endswith("/KaTeX_Main-Regular.woff2") for url in network.requests)
        # Laid out now, the paragraph's formula sits in its line, none of it clipped by the paragraph's box.
        box = paragraph.evaluate(
            "e => { const p = e.getBoundingClientRect(), k = e.querySelector('.katex').getBoundingClientRect(); "
            "return [k.left >= p.left - 0.5, k.right <= p.right + 0.5, k.height > 0]; }"
        )
        assert box == [True, True, True], box
    finally:
        context.close()


def test_a_page_reached_by_instant_navigation_gets_the_math_fonts(page: Page, base_url: str) -> None:
    """Instant navigation runs no script of a new page's head: the fonts' script at the top of the content declares them
    when a page with math follows one without."""
    page.goto(base_url + "/contributing/")
    assert page.locator(".katex").count() == 0
    assert page.evaluate("[...document.fonts].filter((face) => face.family.startsWith('KaTeX_')).length") == 0
    page.evaluate("window.sameDocument = true")
    follow_instantly(page, "nav a[href$='lessons/roofline/']", f"{base_url}{LESSON}")
    assert page.evaluate("window.sameDocument") is True
    page.wait_for_function(KATEX_FONTS_LOADED)
    declared = page.evaluate("[...document.fonts].filter((face) => face.family.startsWith('KaTeX_')).length")
    assert declared == 20, declared  # each of KaTeX's faces once, however many pages with math came before


def test_without_script_the_formulas_still_get_their_fonts(browser: Browser, base_url: str, network: Network) -> None:
    """A reader without script gets KaTeX's fonts from its stylesheet's `@media (scripting: none)` rules, as a
    formula nears the screen (every one is off the lesson's first screen)."""
    context = new_context(browser, network, java_script_enabled=False, service_workers="block")
    page = context.new_page()
    page.goto(base_url + LESSON)
    assert page.locator(".katex").count() > 10
    with page.expect_request(lambda request: request.url.endswith("/KaTeX_Main-Regular.woff2")):
        page.locator("article .math-display").first.scroll_into_view_if_needed()
    context.close()


def test_formulas_read_offline_after_one_visit(fresh_page: Page, context: BrowserContext, base_url: str) -> None:
    page = fresh_page  # a first visit, then offline
    page.goto(base_url + "/")
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=BOOT_TIMEOUT)
    page.wait_for_function(
        """async () => {
            for (const name of await caches.keys()) {
                if (!name.startsWith("calculators-pages:")) continue;
                const urls = (await (await caches.open(name)).keys()).map((request) => request.url);
                return urls.some((url) => url.endsWith("katex/katex.css"))
                    && urls.some((url) => url.endsWith("KaTeX_Main-Regular.woff2"))
                    && urls.some((url) => url.endsWith("/lessons/roofline/"));
            }
            return false;
        }""",
        timeout=BOOT_TIMEOUT,
    )
    context.set_offline(True)
    page.goto(base_url + LESSON)
    expect(page.locator("article h1")).to_have_count(1)
    assert page.evaluate("getComputedStyle(document.querySelector('.katex')).fontFamily").startswith("KaTeX_Main")
    page.wait_for_function(KATEX_FONT)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_long_formula_scrolls_in_its_box_on_a_phone(
    browser: Browser, network: Network, base_url: str, scheme: str
) -> None:
    context = new_context(browser, network, viewport={"width": 390, "height": 800}, color_scheme=scheme)
    try:
        page = context.new_page()
        page.goto(base_url + LESSON)
        page.wait_for_function(KATEX_FONT)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        widths = []
        for display in near_each_display(page):
            widths.append(display.evaluate("e => [e.scrollWidth > e.clientWidth, getComputedStyle(e).overflowX]"))
        assert [True, "auto"] in widths  # the critical-batch formula is wider than a phone
        # The formula takes the text's colour in both schemes.
        colours = page.evaluate(
            "['.katex', 'article'].map((selector) => getComputedStyle(document.querySelector(selector)).color)"
        )
        assert colours[0] == colours[1]
    finally:
        context.close()


PHONE = {"width": 390, "height": 844}
# Whether a formula's drawing (display formulas) or its MathML is laid out: content-visibility skips it off screen.
RENDERED = "e => e.checkVisibility({ contentVisibilityAuto: true })"
# On a page just opened at its top: the last display formula's drawing, the last paragraph with a formula in it, and
# every formula's MathML (a 1 px box that is never seen), are skipped.
SKIPPED_AT_LOAD = """() => {
  const drawn = [...document.querySelectorAll(".math-display .katex")];
  const rendered = (e) => e.checkVisibility({ contentVisibilityAuto: true });
  const paragraphs = [...document.querySelectorAll("article p:has(.katex)")];
  return drawn.length > 0 && !rendered(drawn[drawn.length - 1])
    && paragraphs.length > 0 && !rendered(paragraphs[paragraphs.length - 1].querySelector(".katex"))
    && [...document.querySelectorAll(".katex-mathml math")].every((math) => !rendered(math));
}"""


def near_each_display(page: Page) -> Iterator[Locator]:
    """Each display formula of the page, once scrolled to the middle of the screen and laid out there."""
    displays = page.locator("article .math-display")
    for index in range(displays.count()):
        display = displays.nth(index)
        scroll_until_laid_out(page, f"document.querySelectorAll('article .math-display')[{index}]", inside=".katex")
        page.wait_for_function(KATEX_FONT)  # laid out in its own fonts, which it may be the first to ask for
        yield display


@pytest.fixture(scope="module")
def reader(browser: Browser) -> Iterator[Browser]:
    """A screen reader's Chromium: its accessibility tree is kept from the start, as when one is running (launched
    once for the module's tests)."""
    reader = browser.browser_type.launch(
        executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, "--force-renderer-accessibility"], headless=True
    )
    yield reader
    reader.close()


@pytest.mark.parametrize("path", [LESSON, CHAPTER])
def test_formulas_off_screen_are_not_laid_out_yet_read_and_stand_in_at_their_height(
    reader: Browser, network: Network, base_url: str, path: str
) -> None:
    """On a phone, KaTeX's elements were most of the roofline lesson's; Material's script restyles the whole page
    several times as it starts, so they cost most of the blocking time the lesson had over its page without them."""
    context = new_context(reader, network, viewport=PHONE)
    try:
        page = context.new_page()
        page.goto(base_url + path)
        page.wait_for_load_state("load")
        page.wait_for_function(SKIPPED_AT_LOAD)
        # Skipped, and still read: every formula's MathML is in the accessibility tree.
        session = context.new_cdp_session(page)
        session.send("Accessibility.enable")
        nodes = session.send("Accessibility.getFullAXTree")["nodes"]
        read = [node for node in nodes if node.get("role", {}).get("value") == "MathMLMath" and not node["ignored"]]
        assert len(read) == page.locator("article .katex").count() > 0
        # Near the screen each display formula is laid out at the height its box stood in at, or a little below it
        # (extras/formulas.py estimates by KaTeX's struts: 0 to 0.065em of the formula's font above; 1.4 px on a phone)
        stand_ins = page.eval_on_selector_all(
            "article .math-display",
            f"els => els.map((e) => ({RENDERED})(e.querySelector('.katex')) ? null : e.getBoundingClientRect().height)",
        )
        assert stand_ins[-1] is not None
        for display, stand_in in zip(near_each_display(page), stand_ins, strict=True):
            height = display.evaluate("e => e.getBoundingClientRect().height")
            assert stand_in is None or height - 0.5 <= stand_in <= height + 2, (height, stand_in)
    finally:
        context.close()
    network.assert_stayed_local()


# The outermost lists in the text with math in them: skipped while off screen (math.css), as paragraphs with math are.
MATH_LISTS = """[...document.querySelectorAll("article > ul, article > ol")].filter((e) => e.querySelector(".katex"))"""


def test_lists_with_math_off_screen_are_not_laid_out_and_come_whole(
    browser: Browser, network: Network, base_url: str
) -> None:
    """Material's script restyles the whole page several times as it starts: the roofline lesson's two lists with
    math were 305 of the elements each pass restyled, both off a phone's first screen. They stand in at about their
    height; near the screen each is laid out with its markers and formulas whole, and printed, both are laid out."""
    context = new_context(browser, network, viewport=PHONE, service_workers="block")
    try:
        page = context.new_page()
        page.goto(base_url + LESSON)
        page.wait_for_load_state("load")
        frames(page)
        at_load = page.evaluate(
            f"({MATH_LISTS}).map((e) => [({RENDERED})(e.querySelector('.katex')), e.getBoundingClientRect().height])"
        )
        assert len(at_load) == 2 and not any(rendered for rendered, _ in at_load), at_load
        for index, (_, stand_in) in enumerate(at_load):
            scroll_until_laid_out(page, f"({MATH_LISTS})[{index}]", inside=".katex")
            laid_out = page.evaluate(
                f"""(() => {{
                  const e = ({MATH_LISTS})[{index}], box = e.getBoundingClientRect();
                  const item = e.querySelector('li').getBoundingClientRect();
                  const formula = e.querySelector('.katex').getBoundingClientRect();
                  return {{
                    height: box.height,
                    // a marker sits in the 1.25em before its item, which must be inside the list's own box
                    marker: item.left - box.left >= parseFloat(getComputedStyle(e).fontSize),
                    formula: formula.width > 0 && formula.left >= box.left && formula.right <= box.right + 0.5,
                  }};
                }})()"""
            )
            assert 0.5 * laid_out["height"] <= stand_in <= 2 * laid_out["height"], (stand_in, laid_out)
            assert laid_out["marker"] is True and laid_out["formula"] is True, laid_out
        page.evaluate("scrollTo(0, 0)")
        page.emulate_media(media="print")
        frames(page)
        printed = page.evaluate(f"({MATH_LISTS}).map((e) => ({RENDERED})(e.querySelector('.katex')))")
        assert printed == [True, True], printed
    finally:
        context.close()
    network.assert_stayed_local()


def systolic(page: Page) -> str:
    return f"#{page.get_attribute('[data-calculator=systolic]', 'id')}"


def test_the_systolic_stepper_steps_by_keyboard_and_plays(page: Page, base_url: str) -> None:
    page.goto(base_url + CHAPTER)
    calc = systolic(page)
    wait_mounted(page, calc)
    field = page.locator(f"{calc} [data-input=cycle] input[type=text]")
    summary = page.locator(f"{calc} .calc-summary")
    assert summary.get_attribute("aria-live") == "polite"
    player = page.locator(f"{calc} .calc-player")
    expect(player).to_be_visible()
    assert player.get_attribute("aria-label") == "Step the cycle"
    next_button = player.get_by_role("button", name="Next")
    next_button.focus()
    page.keyboard.press("Enter")
    expect(field).to_have_value("4")
    expect(summary).to_contain_text("Cycle 4 of the pass's 7 (0 to 6): 6 of 9 PEs work.", timeout=BOOT_TIMEOUT)
    expect(page.locator(f"{calc} tr:has-text('▶ 4')")).to_have_count(1)
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Shift+Tab")
    expect(player.get_by_role("button", name="Previous")).to_be_focused()
    for _ in range(4):
        page.keyboard.press("Space")
    expect(field).to_have_value("0")
    expect(player.get_by_role("button", name="Previous")).to_be_disabled()
    expect(summary).to_contain_text("Cycle 0 of the pass's 7", timeout=BOOT_TIMEOUT)
    # Play runs to the last cycle of the pass (6), then round to 0 again; Escape stops it.
    play = player.locator(".calc-player-play")
    play.click()
    expect(play).to_have_attribute("aria-pressed", "true")
    expect(play).to_have_text("Pause")
    expect(field).to_have_value("6", timeout=20_000)
    expect(field).to_have_value("0", timeout=10_000)
    page.keyboard.press("Escape")
    expect(play).to_have_attribute("aria-pressed", "false")
    stopped = field.input_value()
    page.wait_for_timeout(1500)  # a stopped player moves no more (sampled after more than one step's time)
    assert field.input_value() == stopped


def test_the_chapters_figures_have_text_alternatives(page: Page, base_url: str) -> None:
    for path, title in (
        (CHAPTER, "A 3 by 3 weight-stationary systolic array"),
        (LESSON, "The memory levels of an H100"),
    ):
        page.goto(base_url + path)
        figure = page.locator("figure.figure-svg svg[role=img]").first
        labelled_by = present(figure.get_attribute("aria-labelledby")).split()
        assert present(page.locator(f"#{labelled_by[0]}").text_content()).startswith(title)
        assert len(present(page.locator(f"#{labelled_by[1]}").text_content())) > 200
        # Drawn in the text's colour: what the theme sets for light and dark.
        assert figure.evaluate("svg => getComputedStyle(svg).color") == page.evaluate(
            "getComputedStyle(document.querySelector('article')).color"
        )
