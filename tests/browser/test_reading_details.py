"""Smaller things a reader meets, each as the reader meets it (issue 23, item 6): results marked stale stay readable,
a list of chips hides none of them, the chip database scrolls with the page, the exercise editor wraps on a phone as
the code before it did, chart labels stay clear of each other and of the lines, and in forced colours a picked-up sort
item and the chevrons of collapsible hints still show.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.calculator_page import BOOT_TIMEOUT, eventually, wait_mounted
from tests.browser.conftest import Network, new_context
from tests.browser.test_exercise import PAGE as EXERCISES
from tests.browser.test_exercise import type_code

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}

# The lowest contrast ratio (WCAG 2) of the text in `root`'s outputs and summary against what is behind it, with the
# opacity of every ancestor applied.
LOWEST_CONTRAST = """(root) => {
  const parse = (text) => {
    const parts = text.match(/rgba?\\(([^)]+)\\)/)[1].split(/[ ,\\/]+/).filter(Boolean).map(Number);
    return [parts[0], parts[1], parts[2], parts.length > 3 ? parts[3] : 1];
  };
  const over = (top, bottom) => [0, 1, 2].map((i) => top[i] * top[3] + bottom[i] * (1 - top[3])).concat(1);
  const behind = (node) => {
    const layers = [];
    for (let at = node; at; at = at.parentElement) {
      const colour = parse(getComputedStyle(at).backgroundColor);
      if (colour[3] > 0) layers.push(colour);
      if (colour[3] >= 1) break;
    }
    return layers.reverse().reduce((below, layer) => over(layer, below), [255, 255, 255, 1]);
  };
  const faded = (node) => {
    let opacity = 1;
    for (let at = node; at; at = at.parentElement) opacity *= Number(getComputedStyle(at).opacity);
    return opacity;
  };
  const luminance = ([r, g, b]) => {
    const linear = (v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
    return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
  };
  const ratios = [];
  for (const node of root.querySelectorAll(".calc-outputs dt, .calc-outputs dd, .calc-summary")) {
    if (!node.textContent.trim() || !node.getClientRects().length) continue;
    const background = behind(node);
    const text = parse(getComputedStyle(node).color);
    const seen = over([text[0], text[1], text[2], text[3] * faded(node)], background);
    const [light, dark] = [luminance(seen), luminance(background)].sort((a, b) => b - a);
    ratios.push((light + 0.05) / (dark + 0.05));
  }
  return Math.min(...ratios);
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_stale_results_keep_a_contrast_of_4_5(browser: Browser, base_url: str, network: Network, scheme: str) -> None:
    """After a bad value, the last good results stay, marked stale, and every line of them is still 4.5:1 or more
    (dimmed, they were 3.6:1 in light and 3.5:1 in dark)."""
    context = new_context(browser, network, color_scheme=scheme)
    page = context.new_page()
    page.goto(base_url + "/lessons/roofline/")
    wait_mounted(page, "#calc-1")
    page.fill("#calc-1-intensity", "-3")
    expect(page.locator("#calc-1")).to_have_class(re.compile(r"\bcalc-stale\b"), timeout=BOOT_TIMEOUT)
    expect(page.locator("#calc-1-intensity-error")).to_be_visible(timeout=BOOT_TIMEOUT)
    assert page.locator("#calc-1").evaluate(LOWEST_CONTRAST) >= 4.5
    context.close()


def test_every_chip_of_the_comparison_is_in_view_on_a_phone(browser: Browser, base_url: str, network: Network) -> None:
    """The chip list is not a box that scrolls on its own (it showed 8 of 24 chips at 390 px, hiding ticked ones)."""
    context = new_context(browser, network, viewport=PHONE)
    page = context.new_page()
    page.goto(base_url + "/chapters/27-asics-and-accelerators/")
    lists = page.locator(".calc-choice-list")
    assert lists.count() >= 1
    for chips in lists.all():
        assert chips.evaluate("(node) => node.scrollHeight <= node.clientHeight + 1")
        assert chips.locator(".calc-choice").count() >= 20
    context.close()


def test_the_chip_database_scrolls_with_the_page(browser: Browser, base_url: str, network: Network) -> None:
    """Its table is not held in a box that scrolls both ways: down is the page's own scroll."""
    context = new_context(browser, network, viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(base_url + "/reference/chips/")
    box = page.locator(".calc-table-wrap").first
    box.scroll_into_view_if_needed()
    assert box.evaluate("(node) => node.scrollHeight <= node.clientHeight + 1")  # nothing to scroll down to inside it
    assert (
        box.evaluate("(node) => node.getBoundingClientRect().height") > 800
    )  # as tall as its rows: taller than the screen
    context.close()


def test_chip_names_stay_as_the_database_scrolls_sideways(browser: Browser, base_url: str, network: Network) -> None:
    """On a phone the chip database's twelve columns scroll sideways in their box: the chips' names and the corner
    heading above them stay at its left edge, painted over the figures and headings that pass under them."""
    context = new_context(browser, network, viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(base_url + "/reference/chips/")
    box = page.locator(".calc-table-wrap").first
    box.scroll_into_view_if_needed()
    assert box.evaluate("(node) => node.scrollWidth > node.clientWidth + 200")  # there is a long way to scroll
    box.evaluate("(node) => { node.scrollLeft = 200; }")
    place = box.evaluate(
        """(node) => {
            const left = node.getBoundingClientRect().left;
            const at = (cell) => Math.round(cell.getBoundingClientRect().left - left);
            const [corner, year] = node.querySelectorAll("thead th");
            const name = node.querySelector("tbody th[scope=row]");
            const box = name.getBoundingClientRect();
            const over = document.elementFromPoint(box.left + 5, box.top + box.height / 2);
            return { scrolled: node.scrollLeft, corner: at(corner), name: at(name), year: at(year),
              covers: name.contains(over) };
        }"""
    )
    assert place["scrolled"] == 200
    assert (place["corner"], place["name"], place["covers"]) == (0, 0, True)
    assert place["year"] < 0  # the headings after the corner went by under it
    context.close()


# Each exercise's code box: its height and whether its code runs off sideways (the pre-rendered <code> scrolls itself,
# the editor's .cm-scroller does), and whether the page itself scrolls sideways.
CODE_BOXES = """() => ({
  boxes: [...document.querySelectorAll(".exercise")].map((exercise) => {
    const box = exercise.querySelector(".exercise-editor");
    const scrolls = box.querySelector(".cm-scroller") || box.querySelector("pre > code");
    return { id: exercise.id, height: Math.round(box.getBoundingClientRect().height * 10) / 10,
      sideways: scrolls.scrollWidth > scrolls.clientWidth + 1, editor: Boolean(box.querySelector(".cm-content")) };
  }),
  pageSideways: document.documentElement.scrollWidth > innerWidth,
})"""


@pytest.mark.parametrize("width", [390, 320])
@pytest.mark.parametrize("url", [EXERCISES, "/lessons/parallelism/", "/lessons/inference-at-scale/"])
def test_the_editor_wraps_on_a_phone_as_the_code_before_it(
    browser: Browser, base_url: str, network: Network, url: str, width: int
) -> None:
    """On a phone, no exercise's code runs off the side, at first paint, once the script has made it editable, or in
    the editor; each code box keeps the height it had at first paint through both (the editor breaks each long line
    where the pre-rendered code broke it, so nothing below it moves); and a long line the reader types wraps too.
    First paint is the page without scripts: its HTML and its head's stylesheets, before exercise.js has run."""
    viewport = {"width": width, "height": 844}
    plain = new_context(browser, network, viewport=viewport, java_script_enabled=False)
    painted = plain.new_page()
    painted.goto(base_url + url)
    first = painted.evaluate(CODE_BOXES)
    plain.close()
    assert first["boxes"] and not any(box["sideways"] for box in first["boxes"]), first
    heights = [box["height"] for box in first["boxes"]]

    context = new_context(browser, network, viewport=viewport)
    page = context.new_page()
    page.goto(base_url + url)
    page.wait_for_function(
        "() => [...document.querySelectorAll('.exercise')].every((exercise) => exercise.dataset.mounted)"
    )
    mounted = eventually(  # exercise.js has made each one editable, and its stylesheet has arrived
        page,
        lambda: page.evaluate(CODE_BOXES),
        lambda now: [box["height"] for box in now["boxes"]] == heights,
        f"the mounted code boxes' heights (at first paint: {heights})",
    )
    assert not any(box["editor"] or box["sideways"] for box in mounted["boxes"]), mounted
    for box in mounted["boxes"]:
        page.locator(f"#{box['id']}").hover()  # a reader reaching for it
        page.wait_for_selector(f"#{box['id']} .cm-content")
    after = eventually(  # the editor measures itself in the frames after it is made
        page,
        lambda: page.evaluate(CODE_BOXES),
        lambda now: [box["height"] for box in now["boxes"]] == heights,
        f"the code boxes' heights in the editor (at first paint: {heights})",
    )
    assert all(box["editor"] and not box["sideways"] for box in after["boxes"]), after
    assert not after["pageSideways"]
    type_code(page, f"#{first['boxes'][0]['id']}", "x = " + " + ".join(f"value_{n}" for n in range(30)) + "\n")
    typed = page.evaluate(CODE_BOXES)
    assert typed["boxes"][0]["height"] > heights[0]  # the long line took more rows, not more width
    assert not typed["boxes"][0]["sideways"] and not typed["pageSideways"], typed
    context.close()


def test_in_forced_colours_a_picked_up_item_and_the_chevrons_show(
    browser: Browser, base_url: str, network: Network
) -> None:
    context = new_context(browser, network, forced_colors="active")
    page = context.new_page()
    page.goto(base_url + "/lessons/roofline-quiz/")
    wait_mounted(page, "#quiz-roofline-sort")  # below the first screen: it comes alive as a reader scrolls to it
    items = page.locator("#quiz-roofline-sort .quiz-item")
    items.first.click()
    expect(items.first).to_have_attribute("aria-pressed", "true")
    style = "(node) => { const s = getComputedStyle(node); return [s.backgroundColor, s.borderTopWidth]; }"
    picked, other = items.first.evaluate(style), items.nth(1).evaluate(style)
    assert picked[0] != other[0] and float(picked[1].removesuffix("px")) >= 3
    page.goto(base_url + EXERCISES)
    summary = page.locator(".exercise-hint summary").first
    summary.scroll_into_view_if_needed()
    chevron = summary.evaluate("(node) => getComputedStyle(node, '::after').backgroundColor")
    behind = summary.evaluate("(node) => getComputedStyle(node).backgroundColor")
    assert chevron not in (behind, "rgba(0, 0, 0, 0)")
    context.close()


# The chart's point labels (visible or not, and their boxes on the page), and the points along its lines.
CHART_LAYOUT = """(chart) => {
  const svg = chart.querySelector("svg");
  const labels = [...svg.querySelectorAll(".mark-text.role-mark text")]
    .filter((text) => text.getAttribute("text-anchor") !== "middle" && !/^ridge /.test(text.textContent))
    .map((text) => {
      const box = text.getBoundingClientRect();
      return { text: text.textContent, shown: text.getAttribute("visibility") !== "hidden",
               box: [box.left, box.top, box.right, box.bottom] };
    });
  const points = [];
  for (const path of svg.querySelectorAll(".mark-line path")) {
    const matrix = path.getScreenCTM();
    const length = path.getTotalLength();
    for (let i = 0; i <= 400; i++) {
      const at = path.getPointAtLength((length * i) / 400).matrixTransform(matrix);
      points.push([at.x, at.y]);
    }
  }
  return { labels, points };
}"""


def test_every_chip_on_the_comparison_chart_is_labelled_clear_of_the_ridge_lines(
    browser: Browser, base_url: str, network: Network
) -> None:
    """Chapter 27's comparison of eight current chips: each point has a label (TPU7x had none, crowded by B200,
    B300 and MI355X: it may take its short name), no label covers another, and no line of equal ridge point crosses a
    label (they crossed TPU v6e's and B300's)."""
    context = new_context(browser, network, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(base_url + "/chapters/27-asics-and-accelerators/")
    chart = page.locator("#calc-6 .calc-chart")
    chart.scroll_into_view_if_needed()
    page.wait_for_function(
        "document.querySelectorAll('#calc-6 .calc-chart svg .mark-text.role-mark text').length >= 8", timeout=60_000
    )
    page.wait_for_function(  # placed: declutter has been over every label
        "[...document.querySelectorAll('#calc-6 .calc-chart svg .mark-text.role-mark text')]"
        ".every((text) => text.dataset.placed)"
    )
    layout = page.locator("#calc-6 .calc-chart").evaluate(CHART_LAYOUT)
    labels = layout["labels"]
    assert len(labels) >= 8 and [label["text"] for label in labels if not label["shown"]] == []
    assert any(label["text"].startswith("TPU7x") for label in labels)
    for index, one in enumerate(labels):
        for other in labels[index + 1 :]:
            a, b = one["box"], other["box"]
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (one["text"], other["text"])
        left, top, right, bottom = one["box"]
        crossing = [p for p in layout["points"] if left + 1 < p[0] < right - 1 and top + 1 < p[1] < bottom - 1]
        assert crossing == [], one["text"]
    context.close()
