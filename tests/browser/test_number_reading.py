"""Numbers as readers type them, in a calculator's form and in a shared link: one reader (calckit.numbers) for both,
so that `1,5` is 1.5 (it was read as 15, with no warning), `1,400` is 1400, and `1,2,3` or `1e-400` get a message
next to the field rather than a wrong reading."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.calculator_page import BOOT_TIMEOUT, expected, open_page, wait_for_texts

pytestmark = pytest.mark.browser

PAGE = "/lessons/roofline/"


def test_a_decimal_comma_is_read_as_a_point(page: Page, base_url: str) -> None:
    open_page(page, base_url + PAGE)
    page.fill("#calc-1-intensity", "1,5")
    wait_for_texts(page, expected("roofline", intensity=1.5), "#calc-1")
    page.fill("#calc-1-intensity", "1,400")  # a comma between thousands
    wait_for_texts(page, expected("roofline", intensity=1400), "#calc-1")


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("1,2,3", "Write the decimals after a point, such as 1.5; a comma only groups thousands, as in 1,400"),
        ("1.400,5", "Write the decimals after a point, such as 1.5; a comma only groups thousands, as in 1,400"),
        ("1e-400", "This number is too small to tell from 0: type 0, or a larger number"),
    ],
)
def test_a_number_that_would_be_misread_is_refused_next_to_its_field(
    page: Page, base_url: str, typed: str, message: str
) -> None:
    open_page(page, base_url + PAGE)
    page.fill("#calc-1-intensity", typed)
    expect(page.locator("#calc-1-intensity-error")).to_have_text(
        f"{message} (you typed {typed}).", timeout=BOOT_TIMEOUT
    )


def test_a_shared_link_with_a_decimal_comma(page: Page, base_url: str) -> None:
    open_page(page, base_url + PAGE + "?calc-1.intensity=1%2C5")
    expect(page.locator("#calc-1-intensity")).to_have_value("1,5")
    wait_for_texts(page, expected("roofline", intensity=1.5), "#calc-1")
