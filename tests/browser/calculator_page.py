"""Reading and driving calculators on a page, and what CPython's package says they should show."""

from __future__ import annotations

from playwright.sync_api import Page

from calckit.api import run

BOOT_TIMEOUT = 60_000  # a cold Pyodide boot on a busy 2-core machine


def texts(page: Page, calculator: str) -> dict[str, str]:
    """The output texts shown by one calculator (a CSS selector such as '#calc-1'), by output key."""
    found: dict[str, str] = page.eval_on_selector_all(
        f"{calculator} [data-output]",
        "els => Object.fromEntries(els.map(e => [e.dataset.output, e.querySelector('output').textContent]))",
    )
    return found


def expected(name: str, **inputs: object) -> dict[str, str]:
    """What CPython's package shows for calculator `name` with these inputs."""
    result = run(name, inputs)
    assert result["ok"], result
    return {out["key"]: out["text"] for out in result["outputs"]}


def wait_mounted(page: Page, selector: str) -> None:
    """Scroll to a calculator, quiz or exercise and wait until its script has made it live: each is mounted as it
    comes near the screen (entry.js), as a reader scrolling to it would find it."""
    page.locator(selector).first.scroll_into_view_if_needed()
    page.wait_for_selector(f"{selector}[data-mounted]", state="attached")


def open_page(page: Page, url: str, calculator: str = "#calc-1") -> None:
    """Go to `url` and wait until `calculator` is live (the component module has mounted it)."""
    page.goto(url)
    wait_mounted(page, calculator)


def wait_for_texts(page: Page, wanted: dict[str, str], calculator: str) -> None:
    page.wait_for_function(
        """([selector, wanted]) => Object.entries(wanted).every(([key, text]) =>
            document.querySelector(`${selector} [data-output="${key}"] output`)?.textContent === text)""",
        arg=[calculator, wanted],
        timeout=BOOT_TIMEOUT,
    )
