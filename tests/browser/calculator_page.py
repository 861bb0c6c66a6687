"""Reading and driving calculators on a page, and what CPython's package says they should show."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TypeVar

from playwright.sync_api import Page

from calckit.api import run

BOOT_TIMEOUT = 60_000  # a cold Pyodide boot on a busy 2-core machine

T = TypeVar("T")


def present(value: T | None, what: str = "a value") -> T:
    """`value`, which the test needs (an element's text, an attribute, a box): None fails the test here, saying what
    was missing, rather than as a TypeError further on."""
    assert value is not None, f"{what} is missing"
    return value


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


def follow_instantly(page: Page, link: str, url: str) -> None:
    """Click `link`, which Material's instant navigation follows, and wait until the page it leads to is in place.
    The address changes at the click, before the next page is fetched, so a test that waited for the address alone
    would read, or click in, the page it is leaving: mark that page's content and wait until it has been replaced."""
    page.evaluate("document.querySelector('[data-md-component=container]').dataset.left = ''")
    page.click(link)
    page.wait_for_url(url)
    page.wait_for_function("() => !document.querySelector('[data-md-component=container][data-left]')")


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


def frames(page: Page, count: int = 2) -> None:
    """Wait for `count` animation frames: what the page had queued for its next renderings (IntersectionObserver
    notices, requestAnimationFrame callbacks, layout shifts) has been delivered."""
    page.evaluate(
        "n => new Promise((done) => { const next = (k) => k ? requestAnimationFrame(() => next(k - 1)) : done(); "
        "next(n); })",
        count,
    )


def scroll_until_laid_out(page: Page, target: str, inside: str, block: str = "center") -> None:
    """Scroll the element `target` (a script expression) to `block` until `inside` it (a selector) is laid out, not
    skipped by content-visibility. One scroll is not enough: the boxes near the screen are then laid out at their own
    heights, not the ones they stood in at, and on a busy machine that can carry the target off the screen again."""
    page.wait_for_function(
        f"""([block, inside]) => {{
            const target = {target};
            target.scrollIntoView({{ block }});
            return target.querySelector(inside).checkVisibility({{ contentVisibilityAuto: true }});
        }}""",
        arg=[block, inside],
        polling=100,
    )


def reach(page: Page, block: str) -> None:
    """Scroll to a calculator below the first until it is live and laid out at its own height: the ones near it
    leave their stand-in heights as they come near the screen, and a click aimed at a box that moved meanwhile misses
    it (in a CI run, 2026-12-07, `uncheck` on a comparison chip clicked, and the box stayed ticked)."""
    wait_mounted(page, block)
    scroll_until_laid_out(page, f"document.querySelector('{block}')", ".calc-fields")


def wait_until(page: Page, condition: Callable[[], object], what: str, timeout: float = BOOT_TIMEOUT) -> None:
    """Let Playwright deliver the page's events (requests, routes, workers) until `condition()` holds."""
    deadline = time.monotonic() + timeout / 1000
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting until {what}"
        page.wait_for_timeout(50)


def eventually(
    page: Page, read: Callable[[], Any], holds: Callable[[Any], bool], what: str, timeout: float = 30_000
) -> Any:
    """Read until `holds(value)`, as Playwright's expect() does for its own matchers, and return that value; fail
    with the last value read when it never holds. For what the page settles on a little after a signal a test can
    wait for (labels placed after the points are drawn, a redraw in the other colour scheme)."""
    deadline = time.monotonic() + timeout / 1000
    while not holds(value := read()):
        assert time.monotonic() < deadline, f"{what}: still {value!r} after {timeout / 1000:g} s"
        page.wait_for_timeout(100)
    return value


class Held:
    """Requests matching `pattern` (a URL glob), held unanswered as a slow network would, until `release`: what a page
    does meanwhile is then a state a test can read without racing the answer. Routed on `where`: a page sees its own
    requests and its workers'; a context sees its service worker's too (which precaches the plugin's scripts). A
    page's route never sees a request that the page's service worker answers: a test that holds a page's request
    blocks service workers (new_context(..., service_workers="block")), or once controlled the page gets it at once."""

    def __init__(self, where: Any, pattern: str) -> None:
        self.pattern = pattern
        self.routes: list[Any] = []
        where.route(pattern, lambda route: self.routes.append(route))  # registered last, so tried first

    def wait_asked(self, page: Page, count: int = 1) -> None:
        wait_until(page, lambda: len(self.routes) >= count, f"the page asked for {self.pattern}")

    def release(self) -> None:
        for route in self.routes:
            route.continue_()
