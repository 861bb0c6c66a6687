"""Prose that computes, in Chromium: the parallelism lesson's sentences after its explorer follow it as a reader
changes it (from the same answer, or from an answer of their own for the change they name), a shared link restores
them, and without script they read as built."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.calculator_page import BOOT_TIMEOUT, expected, open_page
from tests.browser.conftest import Network, new_context

pytestmark = pytest.mark.browser

PAGE = "/lessons/parallelism/"
EXPLORER = "#calc-2"


def follower(page: Page, output: str, **own: str) -> str:
    """The selector of the value that follows the explorer's `output`, with inputs `own` of its own on top."""
    given = json.dumps(own, separators=(",", ":"), sort_keys=True).replace('"', '\\"')
    return f'data.calc-value[data-follows="calc-2"][data-output="{output}"][data-given="{given}"]'


def test_the_sentences_after_the_explorer_follow_it_and_a_shared_link_restores_them(page: Page, base_url: str) -> None:
    built, changed = expected("parallelism"), expected("parallelism", chips=2048)
    full_built, full_changed = (expected("parallelism", recompute="full", chips=chips) for chips in (1024, 2048))
    assert built["activations"] == "91.3 GB" and changed["activations"] == "45.6 GB"  # half the tokens per chip
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    open_page(page, base_url + PAGE, EXPLORER)
    # A value is not a calculator: the page's script mounts blocks, never the numbers in the prose.
    assert page.locator(".calc-value[data-mounted], .calc-value [data-mounted]").count() == 0
    activations, memory = (
        page.locator(follower(page, "activations")),
        page.locator(follower(page, "memory", recompute="full")),
    )
    expect(activations).to_have_text(built["activations"])
    expect(memory).to_have_text(full_built["memory"])  # 7.6 GB
    assert page.locator('data.calc-value[data-follows="calc-2"]').count() >= 14
    page.fill(f"{EXPLORER}-chips", "2048")
    expect(activations).to_have_text(changed["activations"], timeout=BOOT_TIMEOUT)  # from the explorer's own answer
    expect(memory).to_have_text(full_changed["memory"], timeout=BOOT_TIMEOUT)  # from a run of its own: 3.8 GB
    assert float(activations.get_attribute("value") or "nan") == pytest.approx(45.6e9, rel=0.01)
    # Values that follow nothing (the 8,192-chip paragraph above the explorer) stay as the build computed them.
    fixed = page.locator('data.calc-value[data-from="parallelism"]:not([data-follows])').first
    text = fixed.text_content()
    page.wait_for_url(lambda url: "calc-2.chips=2048" in url, timeout=BOOT_TIMEOUT)
    page.reload()
    open_page(page, page.url, EXPLORER)
    expect(activations).to_have_text(changed["activations"], timeout=BOOT_TIMEOUT)
    expect(memory).to_have_text(full_changed["memory"], timeout=BOOT_TIMEOUT)
    assert fixed.text_content() == text
    assert errors == []


def test_without_script_the_sentences_read_as_built(browser: Browser, base_url: str) -> None:
    context = new_context(browser, Network(base_url), java_script_enabled=False)
    page = context.new_page()
    page.goto(base_url + PAGE)
    assert page.locator(follower(page, "activations")).text_content() == "91.3 GB"
    assert page.locator(follower(page, "memory", recompute="full")).text_content() == "7.6 GB"
    assert page.locator(".calc-value-broken").count() == 0
    context.close()
