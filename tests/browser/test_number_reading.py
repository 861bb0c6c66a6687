"""Numbers as readers type them, in a calculator's form and in a shared link: one reader (calckit.numbers) for both,
so that `1,5` is 1.5 (it was read as 15, with no warning), `1,400.0` is 1400, and `1,400` (a thousand and four
hundred, or one point four?), `1,2,3` or `1e-400` get a message next to the field rather than a wrong reading. The
page's own scripts that read a field (a slider, the stepper) read it with the package's twin (grading.js), not a rule
of their own."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.calculator_page import BOOT_TIMEOUT, expected, open_page, wait_for_texts, wait_mounted
from tests.browser.test_math_and_figures import CHAPTER, systolic

pytestmark = pytest.mark.browser

PAGE = "/lessons/roofline/"


@pytest.fixture
def page(warm_page: Page) -> Page:
    """Reading a typed number is not about a first visit: each test is a new tab
    in the module's warm context (conftest's warm_page)."""
    return warm_page


def test_a_decimal_comma_is_read_as_a_point(page: Page, base_url: str) -> None:
    open_page(page, base_url + PAGE)
    page.fill("#calc-1-intensity", "1,5")
    wait_for_texts(page, expected("roofline", intensity=1.5), "#calc-1")
    page.fill("#calc-1-intensity", "1,400.0")  # a comma between thousands
    wait_for_texts(page, expected("roofline", intensity=1400), "#calc-1")


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("1,2,3", "Write the decimals after a point, such as 1.5; a comma only groups thousands, as in 1,400,000"),
        ("1.400,5", "Write the decimals after a point, such as 1.5; a comma only groups thousands, as in 1,400,000"),
        ("1,400", "1,400 could be 1400 or 1.400: write 1400, or 1.400 with a point"),
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


def test_the_slider_follows_the_field_as_the_package_reads_it(page: Page, base_url: str) -> None:
    """`1,5` moves the intensity's logarithmic slider to log10(1.5); the slider read the field by a rule of its own
    (every comma dropped) and went to 15 while the results were for 1.5."""
    open_page(page, base_url + PAGE)
    slider = page.locator('#calc-1 .calc-slider[data-for="intensity"]')
    page.fill("#calc-1-intensity", "1,5")
    wait_for_texts(page, expected("roofline", intensity=1.5), "#calc-1")
    expect(slider).to_have_value("0.18")  # log10(1.5) = 0.176, on the slider's 0.01 steps
    page.fill("#calc-1-intensity", "1,400.0")
    wait_for_texts(page, expected("roofline", intensity=1400), "#calc-1")
    expect(slider).to_have_value("3.15")  # log10(1400) = 3.146


def test_the_stepper_reads_a_typed_cycle_as_the_package_does(page: Page, base_url: str) -> None:
    """A cycle typed as `1,000.0` is a thousand (past the last cycle, so the field says so), and Previous steps back
    from there to the last cycle; the stepper read it as 1.0 (a comma taken for a point) and went to 0."""
    page.goto(base_url + CHAPTER)
    calc = systolic(page)
    wait_mounted(page, calc)
    field = page.locator(f"{calc} [data-input=cycle] input[type=text]")
    player = page.locator(f"{calc} .calc-player")
    expect(player).to_be_visible()
    last = player.get_attribute("data-max")
    field.fill("1,000.0")
    expect(player.get_by_role("button", name="Next")).to_be_disabled()
    player.get_by_role("button", name="Previous").click()
    expect(field).to_have_value(str(last))
