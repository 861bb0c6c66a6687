"""R3's guard itself: a page that asks another host is caught, in every kind of context the layer uses.

The browser resolves no host name but 127.0.0.1 (conftest's `--host-resolver-rules`), so the request fails at once
without a round trip through Python; the context's request events record it, and the test that made it fails.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from tests.browser.conftest import NETWORKS, Network, new_context, recording

pytestmark = pytest.mark.browser

# A name, an address and another port of 127.0.0.1: none is the test server.
ELSEWHERE = ["http://example.com/x.png", "http://93.184.215.14/y.png", "http://127.0.0.1:9/z.png"]

ASK = """(sources) => Promise.all(sources.map((src) => new Promise((done) => {
    const image = new Image();
    image.onload = image.onerror = () => done();
    image.src = src;
    document.body.append(image);
})))"""


def ask_elsewhere(page: Page, base_url: str) -> list[tuple[str, str | None]]:
    """Open the home page, put images from other hosts in it; the requests that failed, with why."""
    failed: list[tuple[str, str | None]] = []
    page.on("requestfailed", lambda request: failed.append((request.url, request.failure)))
    page.goto(base_url + "/")
    page.evaluate(ASK, ELSEWHERE)
    return sorted(failed)


def assert_caught(network: Network) -> None:
    assert sorted(network.foreign) == sorted(ELSEWHERE)
    with pytest.raises(AssertionError, match=r"requests left 127\.0\.0\.1"):
        network.assert_stayed_local()


def test_a_fresh_context_fails_and_records_a_request_to_another_host(
    browser: Browser, base_url: str, network: Network
) -> None:
    context = new_context(browser, network)
    failed = ask_elsewhere(context.new_page(), base_url)
    context.close()
    assert failed == [
        ("http://127.0.0.1:9/z.png", "net::ERR_UNSAFE_PORT"),  # Chromium's own refusal of a port kept for other uses
        ("http://93.184.215.14/y.png", "net::ERR_NAME_NOT_RESOLVED"),  # an address is refused as a name is
        ("http://example.com/x.png", "net::ERR_NAME_NOT_RESOLVED"),
    ]
    assert_caught(network)


def test_a_routed_context_fails_and_records_a_request_to_another_host(
    browser: Browser, base_url: str, network: Network
) -> None:
    context = new_context(browser, network, routed=True)
    failed = ask_elsewhere(context.new_page(), base_url)
    context.close()
    assert [url for url, _ in failed] == sorted(ELSEWHERE)
    assert_caught(network)
    assert network.count("/") >= 1 and network.count("x.png") == 1  # the route saw the site's requests too


def test_a_warm_page_records_only_its_own_tests_requests(
    warm_context: BrowserContext, base_url: str, network: Network
) -> None:
    """In the warm context, a test's Network records that test's requests (as warm_page has it record them), and the
    context's own Network, which watches it between tests, takes over again after."""
    between = NETWORKS[warm_context]
    with recording(warm_context, network):
        page = warm_context.new_page()
        ask_elsewhere(page, base_url)
        page.close()
    assert_caught(network)
    assert between.foreign == []
    asked = len(network.requests)
    page = warm_context.new_page()
    page.goto(base_url + "/")
    page.close()
    assert len(network.requests) == asked
    assert between.requests and between.foreign == []


def test_a_warm_page_starts_with_no_stored_progress(warm_page: Page, base_url: str) -> None:
    """What a test stored in localStorage is gone for the next (this test stores; run alone or after it, it finds
    nothing: the key carries the test's own name, so it is asked for in both orders)."""
    warm_page.goto(base_url + "/")
    assert warm_page.evaluate("localStorage.getItem('stored-by-a-test')") is None
    warm_page.evaluate("localStorage.setItem('stored-by-a-test', 'yes')")


def test_a_warm_page_starts_with_no_stored_progress_again(warm_page: Page, base_url: str) -> None:
    warm_page.goto(base_url + "/")
    assert warm_page.evaluate("localStorage.getItem('stored-by-a-test')") is None
    warm_page.evaluate("localStorage.setItem('stored-by-a-test', 'yes')")
