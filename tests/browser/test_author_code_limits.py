"""R10 in the reader's browser: a calculator whose code hangs, returns an output of the wrong kind or draws a chart
that Vega refuses says so beside it, and the page's other calculator keeps computing (the hung worker is ended and
a new one answers)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from tests.browser.calculator_page import BOOT_TIMEOUT, expected, open_page, wait_for_texts
from tests.browser.conftest import Network, new_context
from tests.browser.test_exercise import press, result_text, type_code
from tests.build.test_author_code import build_with_package
from tests.build.test_author_code_limits import RIGHT, roofline_with
from tests.support import serve

pytestmark = pytest.mark.browser

LIMIT = 2  # seconds: the site's time_limit
# At an intensity of 13 the compute never returns, at 14 one output is None, at 15 the chart has a mark Vega lacks.
FAULTS = "\n".join(
    [
        '    while inputs["intensity"] == 13: pass',
        '    if inputs["intensity"] == 14:',
        f'        return Result({{{RIGHT}, "attainable": None}}, "")',
        '    if inputs["intensity"] == 15 and "again" not in inputs:',
        "        import dataclasses",
        '        good = _compute({**inputs, "again": 1})',
        "        assert good.chart is not None",
        '        layer = {**good.chart["layer"][0], "mark": "lyne"}',
        '        return dataclasses.replace(good, chart={**good.chart, "layer": [layer]})',
    ]
)
# Two calculators, then an exercise checked against the roofline at intensities its faults leave alone.
EXERCISE = """
```exercise
id: attainable
title: Attainable throughput
prompt: Return the throughput the kernel can reach, in TFLOP/s.
function: attainable(peak_tflops, bandwidth_tbs, intensity)
starter: |
  def attainable(peak_tflops, bandwidth_tbs, intensity):
      ...
solution: |
  def attainable(peak_tflops, bandwidth_tbs, intensity):
      return min(peak_tflops, bandwidth_tbs * intensity)
check:
  calculator: roofline
  output: attainable
  unit: TFLOP/s
  cases: 3
  vary:
    intensity: [1, 10, 100, 1000]
```
"""
PAGE = "# Two calculators\n\n```calculator\nuse: roofline\n```\n\n```calculator\nuse: roofline\n```\n" + EXERCISE


@pytest.fixture(scope="module")
def faulty_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = tmp_path_factory.mktemp("faulty-calculator")
    build = build_with_package(
        root, {"roofline.py": roofline_with(FAULTS)}, PAGE, timeout=300, plugin={"time_limit": LIMIT}
    )
    assert build.returncode == 0, build.output
    with serve(build.site) as url:
        yield url


@pytest.fixture
def page(browser: Browser, faulty_site: str) -> Iterator[tuple[Any, list[str]]]:
    """A page on the faulty site, every request elsewhere failed, and the console's errors kept."""
    network = Network(faulty_site)
    context = new_context(browser, network)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(f"page error: {error}"))
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    yield page, errors
    context.close()
    assert network.foreign == []


def _note_says(page: Page, calculator: str, text: str) -> None:
    page.wait_for_function(
        "([selector, text]) => document.querySelector(selector)?.textContent.includes(text)",
        arg=[f"{calculator} .calc-stale-note", text],
        timeout=BOOT_TIMEOUT,
    )


def test_a_hung_compute_is_stopped_and_the_other_calculator_computes(
    page: tuple[Any, list[str]], faulty_site: str
) -> None:
    tab, errors = page
    open_page(tab, faulty_site + "/")
    tab.locator("#calc-1-intensity").fill("13")
    _note_says(tab, "#calc-1", f"These inputs could not be computed (it did not finish within {LIMIT} s)")
    assert tab.locator("#calc-1 .calc-stale-note").is_visible()
    # The other calculator of the page, answered by the worker started in place of the hung one.
    tab.locator("#calc-2-intensity").fill("50")
    wait_for_texts(tab, expected("roofline", intensity=50), "#calc-2")
    # And the first one again, with inputs it can compute.
    tab.locator("#calc-1-intensity").fill("8")
    wait_for_texts(tab, expected("roofline", intensity=8), "#calc-1")
    tab.locator("#calc-1 .calc-stale-note").wait_for(state="hidden")
    assert [error for error in errors if "page error" in error] == []


def test_an_output_of_the_wrong_kind_is_said_not_waited_for(page: tuple[Any, list[str]], faulty_site: str) -> None:
    tab, _ = page
    open_page(tab, faulty_site + "/")
    tab.locator("#calc-1-intensity").fill("14")
    _note_says(tab, "#calc-1", "These inputs could not be computed (output 'attainable' is None)")
    tab.locator("#calc-2-intensity").fill("50")
    wait_for_texts(tab, expected("roofline", intensity=50), "#calc-2")


def test_a_chart_that_fails_to_draw_says_so_and_is_logged(page: tuple[Any, list[str]], faulty_site: str) -> None:
    tab, errors = page
    open_page(tab, faulty_site + "/")
    tab.locator("#calc-1-intensity").fill("15")
    message = tab.locator("#calc-1 .calc-chart-error")
    message.wait_for(timeout=BOOT_TIMEOUT)
    assert (message.text_content() or "").startswith("The chart could not be drawn (")
    # Vega's own words, which for an unknown mark name nothing useful: the build's check names it (test_charts).
    assert any(error.startswith("calculators: the chart could not be drawn") for error in errors), errors
    # The results are computed all the same, and the chart draws again for inputs whose chart is valid.
    wait_for_texts(tab, expected("roofline", intensity=15), "#calc-1")
    tab.locator("#calc-1-intensity").fill("16")
    message.wait_for(state="detached", timeout=BOOT_TIMEOUT)
    tab.locator("#calc-2-intensity").fill("50")
    wait_for_texts(tab, expected("roofline", intensity=50), "#calc-2")


def test_a_readers_endless_loop_stops_at_the_sites_time_limit(page: tuple[Any, list[str]], faulty_site: str) -> None:
    """A reader's code in an exercise has as long for a Run as the book's code has for a call: the site's
    time_limit (2 s here, where the book keeps the default 5 and test_exercise reads "5 seconds")."""
    tab, errors = page
    tab.goto(faulty_site + "/")
    tab.wait_for_selector("#exercise-attainable[data-mounted]", state="attached", timeout=30_000)
    type_code(tab, "#exercise-attainable", "while True:\n    pass\n")
    press(tab, "#exercise-attainable", "run")
    assert result_text(tab, "#exercise-attainable").startswith(
        f"Stopped after {LIMIT} seconds: your code was still running, perhaps in a loop that never ends."
    )
    assert [error for error in errors if "page error" in error] == []
