"""The calculators of the two lessons on scale (parallelism and communication, inference at scale) as a reader on a
phone meets them, in the dark scheme: each is reached and changed with the keyboard alone, through a labelled field;
its results, its spoken summary and its chart's text alternative then say what CPython's package says for the inputs
the form holds; and its chart fits the screen."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from calckit.api import run
from tests.browser.calculator_page import BOOT_TIMEOUT, present, wait_for_texts, wait_mounted
from tests.browser.conftest import Network, new_context

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}

# (page, calculator, the field a reader changes, what they type)
CHANGES = [
    ("/lessons/parallelism/", "collective", "size_mb", "256"),
    ("/lessons/parallelism/", "parallelism", "params_b", "13"),
    ("/lessons/inference-at-scale/", "latency-throughput", "params_b", "13"),
    ("/lessons/inference-at-scale/", "kv-cache", "kv_heads", "4"),
    ("/lessons/inference-at-scale/", "speculative", "acceptance", "0.6"),
]

# The values the form holds, by input key, as the package takes them.
FORM_VALUES = """(calculator) => Object.fromEntries([...calculator.querySelectorAll(".calc-field[data-input]")]
  .map((field) => {
    const key = field.dataset.input;
    if (field.dataset.kind === "choices") {
      return [key, [...field.querySelectorAll("input[type=checkbox]:checked")].map((box) => box.value)];
    }
    const control = field.querySelector(`[name="${key}"]`);
    return [key, field.dataset.kind === "choice" ? control.value : Number(control.value)];
  }))"""


PAGES = sorted({change[0] for change in CHANGES})


@pytest.mark.parametrize("url", PAGES, ids=[url.strip("/").split("/")[-1] for url in PAGES])
def test_a_keyboard_reader_on_a_phone_changes_it_and_hears_the_packages_answer(
    browser: Browser, base_url: str, network: Network, url: str
) -> None:
    """On a phone in dark mode, a reader tabs to a field of each of the page's calculators in turn and types a value:
    the field is labelled, the outputs and the announced summary are the package's for the form's values, and the
    chart (if any) is drawn inside its calculator; the page never scrolls sideways."""
    context = new_context(browser, network, viewport=PHONE, has_touch=True, is_mobile=True, color_scheme="dark")
    page = context.new_page()
    page.goto(base_url + url)
    for name, key, typed in [change[1:] for change in CHANGES if change[0] == url]:
        change_by_keyboard(page, name, key, typed)
    context.close()


def change_by_keyboard(page: Page, name: str, key: str, typed: str) -> None:
    """Tab to the calculator's field `key`, type `typed`, and hear the package's answer."""
    selector = f'.calc[data-calculator="{name}"]'
    wait_mounted(page, selector)
    calculator = page.locator(selector)
    field = calculator.locator(f'input[name="{key}"]')
    # Into the calculator's first control, then Tab along its controls until the field has the focus.
    calculator.locator("input, select").first.focus()
    for _ in range(60):
        if field.evaluate("(node) => node === document.activeElement"):
            break
        page.keyboard.press("Tab")
    expect(field).to_be_focused()
    label = field.evaluate("(node) => [...node.labels].map((label) => label.textContent.trim()).join(' ')")
    assert label, f"{key} has no label"
    shown = run(name, calculator.evaluate(FORM_VALUES))  # what the form's values gave before the change
    page.keyboard.press("Control+a")
    page.keyboard.type(typed)
    page.keyboard.press("Tab")
    inputs = calculator.evaluate(FORM_VALUES)
    assert inputs[key] == float(typed)
    result = run(name, inputs)
    assert result["ok"], result
    wanted = {out["key"]: out["text"] for out in result["outputs"]}
    assert wanted != {out["key"]: out["text"] for out in shown["outputs"]}, "the change moves nothing to check"
    wait_for_texts(page, wanted, selector)
    summary = calculator.locator(".calc-summary")
    expect(summary).to_have_attribute("aria-live", "polite")
    expect(summary).to_have_text(result["summary"], timeout=BOOT_TIMEOUT)
    if result.get("chart"):
        chart = calculator.locator(".calc-chart-view")
        expect(chart).to_have_attribute("aria-label", present(result["chart"])["description"], timeout=BOOT_TIMEOUT)
        chart.locator("svg").first.wait_for()
        inside = chart.evaluate(
            """(node) => { const box = node.closest(".calc").getBoundingClientRect();
              const drawn = node.querySelector("svg").getBoundingClientRect();
              return drawn.left >= box.left - 1 && drawn.right <= box.right + 1 && drawn.width > 200; }"""
        )
        assert inside, "the chart runs past the calculator on a phone"
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
