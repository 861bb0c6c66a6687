"""Every chart prints drawn or as its words, never as an empty box, and a choice prints its whole label: on every page
with a chart, printed from its top (few charts drawn: Vega draws a chart as it nears the screen) and after the reader
scrolled through it (every chart drawn). Issue 41, item 3: a chart not yet drawn printed as a grey box of 280 px."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from tests.browser.conftest import Network, new_context

pytestmark = pytest.mark.browser

A4_CONTENT = {"width": 718, "height": 1040}  # A4 at 96 px to the inch, less Chromium's default margins
DRAWN_TIMEOUT = 60_000  # Vega's first load on a busy machine

# Each chart as printed: drawn (an SVG of some height), or its words shown in a box about their height.
CHARTS = """() => [...document.querySelectorAll(".calc-chart-view")].map((view) => {
  const svg = view.querySelector("svg");
  const words = view.querySelector(".calc-chart-fallback");
  return {
    drawn: Boolean(svg),
    svg: svg ? svg.getBoundingClientRect().height : 0,
    box: view.getBoundingClientRect().height,
    words: words ? words.getBoundingClientRect().height : 0,
    text: words ? words.innerText.trim() : "",
    said: words ? getComputedStyle(words, "::before").content : "",
  };
})"""
# Each choice as printed: its chosen label's width, in the select's own font, and the width it has.
CHOICES = """() => [...document.querySelectorAll(".calc select")].filter((s) => s.offsetParent).map((select) => {
  const context = document.createElement("canvas").getContext("2d");
  context.font = getComputedStyle(select).font;
  const label = select.selectedOptions[0]?.text ?? "";
  return { label, needs: context.measureText(label).width, has: select.clientWidth };
})"""


def chart_pages(site: Path) -> list[str]:
    pages = sorted(path for path in site.rglob("index.html") if "calc-chart-view" in path.read_text(encoding="utf-8"))
    return ["/" + path.parent.relative_to(site).as_posix().removeprefix(".") + "/" for path in pages]


def check_printed(page: Page, where: str) -> int:
    """Assert every chart and choice prints whole; how many charts were drawn."""
    page.emulate_media(media="print")
    charts = page.evaluate(CHARTS)
    assert charts, where
    for chart in charts:
        if chart["drawn"]:
            assert chart["svg"] > 100, (where, chart)
        else:
            # Its words, whole, in a box of their height: not 280 px of nothing.
            assert chart["said"] == '"Chart: "' and len(chart["text"]) > 20, (where, chart)
            assert chart["words"] > 0 and chart["box"] < chart["words"] + 20, (where, chart)
    for choice in page.evaluate(CHOICES):
        assert choice["needs"] <= choice["has"] + 1, (where, choice)
    page.emulate_media(media="screen")
    return sum(chart["drawn"] for chart in charts)


def test_every_chart_prints_drawn_or_in_words_scrolled_or_not(
    browser: Browser, network: Network, base_url: str, site: Path
) -> None:
    pages = chart_pages(site)
    assert len(pages) >= 6, pages
    context = new_context(browser, network, viewport=A4_CONTENT)
    # Python would boot as each page's first calculator comes on screen: printing does not wait for it (the results
    # printed are the page's own), so the calculators' worker script is held back, unanswered, and no boot starts.
    context.route("**/assets/calculators/worker.js", lambda route: None)
    page = context.new_page()
    try:
        for path in pages:
            page.goto(base_url + path)
            page.wait_for_load_state("load")
            undrawn = page.locator(".calc-chart-view").count() - check_printed(page, f"{path} from its top")
            views = page.locator(".calc-chart-view")
            for index in range(views.count()):
                views.nth(index).scroll_into_view_if_needed()
                page.wait_for_selector(
                    f".calc-chart-view >> nth={index} >> svg", state="attached", timeout=DRAWN_TIMEOUT
                )
            assert check_printed(page, f"{path} scrolled through") == views.count()
            assert undrawn >= 0
    finally:
        context.close()
