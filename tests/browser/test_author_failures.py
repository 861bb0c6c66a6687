"""A calculator whose code raises for a reader's inputs (R7, in the browser): the calculator says it could not compute
those inputs and why, keeps the last good results marked stale, and the worker answers the next input as usual."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from tests.browser.calculator_page import BOOT_TIMEOUT, expected, open_page, texts, wait_for_texts
from tests.browser.conftest import guarded_page
from tests.build.test_author_code import build_with_package, with_division_by_zero
from tests.support import serve

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def broken_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A one-page site whose roofline calculator divides by zero at an intensity of 7, served on 127.0.0.1."""
    root = tmp_path_factory.mktemp("broken-calculator")
    build = build_with_package(
        root, {"roofline.py": with_division_by_zero()}, page="# Roofline\n\n```calculator\nuse: roofline\n```\n"
    )
    assert build.returncode == 0, build.output
    with serve(build.site) as url:
        yield url


@pytest.fixture
def page(browser: Browser, broken_site: str) -> Iterator[Any]:
    """A page on the broken site, with every request elsewhere failed and every page error recorded."""
    with guarded_page(browser, broken_site) as page:
        yield page


def test_a_failing_compute_is_said_and_the_next_input_works(page: Page, broken_site: str) -> None:
    open_page(page, broken_site + "/")
    before = texts(page, "#calc-1")
    field = page.locator("#calc-1-intensity")
    field.fill("7")
    note = page.locator("#calc-1 .calc-stale-note")
    # While Python starts, the note says the results are for earlier inputs; then why these could not be computed.
    page.wait_for_function(
        "() => document.querySelector('#calc-1 .calc-stale-note').textContent.startsWith('These inputs could not')",
        timeout=BOOT_TIMEOUT,
    )
    assert note.is_visible()
    # Python 3.14, which the browser runs, says "division by zero" where the build's 3.11 says "float division".
    assert note.text_content() == (
        "These inputs could not be computed (ZeroDivisionError: division by zero). The results are for the last "
        "inputs that worked."
    )
    assert texts(page, "#calc-1") == before
    assert "calc-stale" in (page.locator("#calc-1").get_attribute("class") or "")

    field.fill("8")
    wait_for_texts(page, expected("roofline", intensity=8), "#calc-1")
    note.wait_for(state="hidden")
