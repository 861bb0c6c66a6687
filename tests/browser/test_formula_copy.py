"""Copying a formula gives its TeX, and copying a sentence keeps its inline math as TeX between dollars (KaTeX's
copy-tex, shipped with the site): issue 41, item 4, where a sentence copied as "\\n𝐷\\n𝐹\\nDF" and a formula as one
symbol per line, twice, the denominator before the numerator."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

pytestmark = pytest.mark.browser

LESSON = "/lessons/roofline/"
# Select `element`'s contents as a reader would, then copy, as Ctrl+C does: what the clipboard is given as text.
COPY = """(element) => {
  const range = document.createRange();
  range.selectNodeContents(element);
  const selection = window.getSelection();
  selection.removeAllRanges();
  selection.addRange(range);
  const data = new DataTransfer();
  const event = new ClipboardEvent("copy", { clipboardData: data, bubbles: true, cancelable: true });
  element.dispatchEvent(event);
  return event.defaultPrevented ? data.getData("text/plain") : selection.toString();
}"""
COPIER_READY = "() => performance.getEntriesByType('resource').some((entry) => entry.name.endsWith('/copy-tex.mjs'))"


def test_a_sentence_keeps_its_inline_math_as_tex(page: Page, base_url: str) -> None:
    page.goto(base_url + LESSON)
    page.wait_for_function(COPIER_READY)
    item = page.locator("article li:has(.katex)").first
    tex = item.locator(".katex annotation").all_text_contents()
    copied = item.evaluate(COPY)
    assert all(f"${formula}$" in copied for formula in tex), (tex, copied)
    assert "\n" not in copied.strip(), copied
    # The words around the formulas are there too, in order, once.
    plain = item.evaluate(
        "(li) => { const copy = li.cloneNode(true); copy.querySelectorAll('.katex').forEach((k) => k.remove());"
        " return copy.textContent.split(/\\s+/).filter(Boolean); }"
    )
    assert [word for word in plain if word in copied] == plain, (plain, copied)


def test_a_display_formula_copies_as_its_tex(page: Page, base_url: str) -> None:
    page.goto(base_url + LESSON)
    page.wait_for_function(COPIER_READY)
    display = page.locator("article .math-display").first
    display.scroll_into_view_if_needed()
    tex = display.locator("annotation").text_content()
    assert tex
    assert display.evaluate(COPY).strip() == f"$${tex}$$"
