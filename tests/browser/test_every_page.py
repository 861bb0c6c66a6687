"""Every page of the book, as a reader meets it: no console error, no request off the site, no accessibility
violation that axe rates serious or critical, no sideways scrolling on a phone, and charts readable in the dark."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.browser.calculator_page import BOOT_TIMEOUT
from tests.browser.conftest import Network, WarmContexts, new_context, waiting_for, warm_tab
from tests.support import NODE_MODULES

pytestmark = pytest.mark.browser


def pages(site: Path) -> list[str]:
    """Every page path the sitemap lists."""
    tree = ET.parse(site / "sitemap.xml")
    return [urlsplit(loc.text or "").path for loc in tree.iter("{http://www.sitemaps.org/schemas/sitemap/0.9}loc")]


def test_the_sitemap_lists_the_book(site: Path) -> None:
    listed = pages(site)
    for path in ("/", "/lessons/roofline/", "/reference/chips/", "/contributing/"):
        assert path in listed
    assert len(listed) >= 7


@pytest.fixture
def page(warm_contexts: WarmContexts, network: Network, base_url: str, scheme: str) -> Iterator[Page]:
    """A new tab in the module's warm context in the reader's colour scheme (conftest's warm_tab, which also fails
    the test on an error in the page): reading the pages is not about a first visit, and the first page a test
    opens is the first visit of none but the module's first test."""
    with warm_tab(warm_contexts(color_scheme=scheme), network, base_url) as page:
        yield page


# What differs between the colour schemes is colour alone (Material swaps its palette's custom properties; the pages'
# markup is the same): in light (Material's scheme "default"), every axe rule is run; in dark ("slate"), the rules
# about colour again.
COLOUR_RULES: dict[str, list[str] | None] = {"default": None, "slate": ["color-contrast", "link-in-text-block"]}
# Only violations are read, so axe gathers every node of those alone (resultTypes: of the passes it keeps one node a
# rule, which takes about a quarter of its time off on this book's pages: 44 to 32 CPU-s over all of them).
AXE = """async rules => (await axe.run(document, {
      ...(rules ? {runOnly: {type: "rule", values: rules}} : {}), resultTypes: ["violations"] }))
    .violations.filter(v => v.impact === "serious" || v.impact === "critical")
    .map(v => ({id: v.id, nodes: v.nodes.slice(0, 3).map(n => n.target.join(" "))}))"""
SCHEME = "() => document.body.dataset.mdColorScheme"
TOGGLE = "label.md-header__button[for^=__palette]:visible"  # Material's light/dark toggle
# Material's links and buttons ease into a new scheme's colours, and in a calculator off screen (its stand-in skips
# its style until it nears the screen) such a transition waits there at its first colour, which axe would read: the
# test turns transitions off, so that a toggle gives every element its new colours at once.
NO_TRANSITIONS = "*, *::before, *::after { transition: none !important; }"
# The elements the page marks hidden, and of those the ones a stylesheet shows all the same (a `display` of its own
# outranks the attribute's): a control the build writes hidden until its script makes it work would then be shown,
# doing nothing, to a reader without scripts. One kept in its place unseen (visibility: hidden) is not shown.
HIDDEN = """() => { const hidden = [...document.querySelectorAll('[hidden]')];
    const seen = (e) => getComputedStyle(e).display !== 'none' && getComputedStyle(e).visibility !== 'hidden';
    return {count: hidden.length, shown: hidden.filter(seen).map(e => `${e.tagName}.${e.className}`)}; }"""


def test_every_page_reads_cleanly_in_light_and_dark(
    warm_contexts: WarmContexts, network: Network, base_url: str, site: Path
) -> None:
    """On each page: no console error, and nothing axe rates serious or critical, in light and, toggled as a reader
    does, in dark (the rules about colour: the markup is the light page's). Material keeps the toggled scheme, so the
    pages load in light and dark by turns, and each page is loaded once and read in both."""
    axe = (NODE_MODULES / "axe-core/axe.min.js").read_text(encoding="utf-8")
    problems: dict[str, object] = {}
    read: dict[str, int] = {"default": 0, "slate": 0}
    with warm_tab(warm_contexts(color_scheme="light"), network, base_url) as page:  # the light chart test's context
        for path in pages(site):
            read_in_both(page, base_url + path, axe, read, problems)
    assert read == {"default": len(pages(site)), "slate": len(pages(site))}, read
    assert problems == {}


def settled(page: Page, url: str) -> None:
    """Wait until the page at `url` has asked for nothing for half a second (the exercises page boots Python); if it
    never does, fail saying which page it is and what it is still waiting for."""
    try:
        page.wait_for_load_state("networkidle", timeout=BOOT_TIMEOUT)
    except PlaywrightTimeoutError:
        raise AssertionError(f"{url} kept the network busy for {BOOT_TIMEOUT} ms; {waiting_for(page)}") from None


def read_in_both(page: Page, url: str, axe: str, read: dict[str, int], problems: dict[str, object]) -> None:
    """Load `url`, run axe in the scheme it loads in, toggle, run axe in the other; count each scheme in `read`."""
    page.goto(url)
    settled(page, url)
    if shown := page.evaluate(HIDDEN)["shown"]:
        problems[f"{url}: shown though hidden"] = shown
    page.add_script_tag(content=axe)
    page.add_style_tag(content=NO_TRANSITIONS)
    for toggled in (False, True):
        if toggled:
            before = page.evaluate(SCHEME)
            page.click(TOGGLE)
            page.wait_for_function(f"before => ({SCHEME})() !== before", arg=before)
        scheme = page.evaluate(SCHEME)
        read[scheme] += 1
        violations = page.evaluate(AXE, COLOUR_RULES[scheme])
        if violations:
            problems[f"{url} in {scheme}"] = violations


def test_no_sideways_scrolling_on_a_phone(browser: Browser, network: Network, base_url: str, site: Path) -> None:
    context = new_context(browser, network, viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = context.new_page()
    wide = {}
    for path in pages(site):
        page.goto(base_url + path)
        settled(page, base_url + path)
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > 390:
            wide[path] = width
    context.close()
    assert wide == {}
    assert network.foreign == []


def test_without_scripts_what_is_hidden_stays_hidden(
    browser: Browser, network: Network, base_url: str, site: Path
) -> None:
    """The controls the build writes hidden until their script makes them work (a stepper's Previous, Play and Next,
    the progress page's buttons, a quiz's Retry) stay hidden to a reader without scripts, on every page."""
    context = new_context(browser, network, java_script_enabled=False)
    page = context.new_page()
    shown: dict[str, list[str]] = {}
    count = 0
    for path in pages(site):
        page.goto(base_url + path)
        found = page.evaluate(HIDDEN)
        count += found["count"]
        if found["shown"]:
            shown[path] = found["shown"]
    context.close()
    assert shown == {}
    assert count >= 50, count  # the book's pages hold that many: the check read them
    assert network.foreign == []


def _luminance(css: str) -> float:
    red, green, blue = (int(part) / 255 for part in re.findall(r"\d+", css)[:3])
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in (red, green, blue)]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _contrast(foreground: str, background: str) -> float:
    lighter, darker = sorted((_luminance(foreground), _luminance(background)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_chart_text_is_readable(page: Page, base_url: str) -> None:
    """Axis labels keep 4.5:1 contrast on the page's background, in the reader's colour scheme and after toggling."""
    page.goto(base_url + "/lessons/roofline/")
    label = "#calc-1 .calc-chart-view svg .role-axis-label text"
    page.locator("#calc-1 .calc-chart-view").scroll_into_view_if_needed()  # charts draw as they come into view
    page.wait_for_selector(label)
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    fill = page.eval_on_selector(label, "text => getComputedStyle(text).fill")
    assert _contrast(fill, background) >= 4.5, (fill, background)
    page.click(TOGGLE)
    page.wait_for_function(
        "([selector, before]) => getComputedStyle(document.querySelector(selector)).fill !== before",
        arg=[label, fill],
    )
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    fill = page.eval_on_selector(label, "text => getComputedStyle(text).fill")
    assert _contrast(fill, background) >= 4.5, (fill, background)
