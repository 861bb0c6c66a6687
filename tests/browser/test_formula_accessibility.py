"""Formulas reach screen readers: Chromium's accessibility tree (CDP Accessibility.getFullAXTree) reads each one's
MathML, on screen and off it, while content-visibility still skips what is off screen at load (issue 41, item 1).

KaTeX draws a formula twice: its HTML, hidden from assistive technology, and MathML in a 1 px box that is hidden from
the eye. That box was also skipped by content-visibility and cut to no area by KaTeX's clip-path, so no browser ever
found it on screen: where the accessibility tree is made after the page (a screen reader started later, DevTools),
every formula was "ignored: notRendered", and a list item read "Each of the _ outputs is a dot product of length _".
"""

from __future__ import annotations

import unicodedata
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, Network, new_context

pytestmark = pytest.mark.browser

LESSON = "/lessons/roofline/"
PHONE: ViewportSize = {"width": 390, "height": 844}


def math_nodes(page: Page) -> list[dict[str, Any]]:
    """Chromium's accessibility tree of the page, as a screen reader gets it: its MathML roots, each with the text
    of its tokens (identifiers, numbers, operators) in order, and whether it is read or left out."""
    session = page.context.new_cdp_session(page)
    session.send("Accessibility.enable")
    nodes = session.send("Accessibility.getFullAXTree")["nodes"]
    by_id = {node["nodeId"]: node for node in nodes}

    def tokens(node: dict[str, Any]) -> str:
        if node.get("role", {}).get("value") == "StaticText":
            return str(node.get("name", {}).get("value", ""))
        return "".join(tokens(by_id[child]) for child in node.get("childIds", []) if child in by_id)

    return [
        {"ignored": node["ignored"], "text": tokens(node), "backend": node.get("backendDOMNodeId")}
        for node in nodes
        if node.get("role", {}).get("value") == "MathMLMath"
    ]


def formula_backend_id(page: Page, index: int) -> int:
    """The DOM node id that the accessibility tree names the `index`th formula's <math> by."""
    session = page.context.new_cdp_session(page)
    handle = session.send(
        "Runtime.evaluate", {"expression": f"document.querySelectorAll('article .katex math')[{index}]"}
    )
    described = session.send("DOM.describeNode", {"objectId": handle["result"]["objectId"]})
    return int(described["node"]["backendNodeId"])


def test_a_formula_on_screen_is_read_when_the_tree_is_made_after_the_page(page: Page, base_url: str) -> None:
    page.set_viewport_size(PHONE)
    page.goto(base_url + LESSON)
    page.wait_for_load_state("load")
    # The lesson's first formula in a list item: "Each of the B × F outputs is a dot product of length D".
    index = page.evaluate("[...document.querySelectorAll('article .katex')].findIndex((k) => k.closest('li'))")
    assert index >= 0
    page.evaluate(f"document.querySelectorAll('article .katex')[{index}].scrollIntoView({{block: 'center'}})")
    page.wait_for_function(
        f"document.querySelectorAll('article .katex math')[{index}].checkVisibility({{contentVisibilityAuto: true}})"
    )
    tex = page.evaluate(f"document.querySelectorAll('article .katex annotation')[{index}].textContent")
    read = {node["backend"]: node for node in math_nodes(page)}
    node = read.get(formula_backend_id(page, index))
    assert node is not None and not node["ignored"], (tex, node)
    # What is read is the formula: its letters, as in its TeX (B \times F reads 𝐵 × 𝐹, in mathematical italics).
    letters = [character for character in tex if character.isalpha() and character.isupper()]
    read_letters = [character for character in unicodedata.normalize("NFKC", node["text"]) if character.isupper()]
    assert read_letters == letters, (tex, node["text"])


def test_every_formula_is_read_on_and_off_screen_while_off_screen_ones_are_skipped(
    browser: Browser, network: Network, base_url: str
) -> None:
    """A browser with a screen reader from the start lays out what it skips for its accessibility tree."""
    reader = browser.browser_type.launch(
        executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, "--force-renderer-accessibility"], headless=True
    )
    try:
        context = new_context(reader, network, viewport=PHONE)
        page = context.new_page()
        page.goto(base_url + LESSON)
        page.wait_for_load_state("load")
        last = page.locator("article .katex").count() - 1
        off_screen = page.evaluate(f"document.querySelectorAll('article .katex')[{last}].getBoundingClientRect().top")
        assert off_screen > 5 * PHONE["height"]
        read = {node["backend"]: node for node in math_nodes(page)}
        for index in (0, last):
            node = read[formula_backend_id(page, index)]
            assert not node["ignored"] and node["text"], (index, node)
        assert sum(not node["ignored"] for node in read.values()) == last + 1
    finally:
        reader.close()
