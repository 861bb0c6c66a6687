"""Playwright driving Debian's Chromium against the real site, built strictly and served on 127.0.0.1.

Every request to any other host is failed and recorded; each test ends by checking that there were none. Outside
CI the layer skips, saying why, when there is no Chromium; with CI=true that is a failure instead.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit
from weakref import WeakKeyDictionary

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Request, Route, expect

from tests.support import ROOT, build_site, serve

# expect() waits for what the page reaches by itself; on a busy machine that can take longer than its default 5 s.
expect.set_options(timeout=30_000)

CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def _need_chromium() -> None:
    if Path(CHROMIUM).is_file():
        return
    reason = f"no Chromium at {CHROMIUM} (install Debian's chromium, or set CHROMIUM)"
    if os.environ.get("CI") == "true":
        pytest.fail(f"browser tests must run in CI: {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def served_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """The book's own site, built strictly once for the session and served on 127.0.0.1.

    The server starts first so that the build knows its URL: Material's instant navigation only follows links found
    in the sitemap, whose entries carry site_url's port.
    """
    site_dir = tmp_path_factory.mktemp("site")
    with serve(site_dir) as url:
        result = build_site(ROOT / "mkdocs.yml", site_dir, SITE_URL=url + "/")
        assert result.returncode == 0, result.stderr
        yield url, site_dir


@pytest.fixture(scope="session")
def site(served_site: tuple[str, Path]) -> Path:
    return served_site[1]


@pytest.fixture(scope="session")
def base_url(served_site: tuple[str, Path]) -> str:
    return served_site[0]


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    _need_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield browser
        browser.close()


class Network:
    """What a page asked for: every URL, and those to other hosts (which were failed).

    Routed on the context, so that it also sees the requests the site's service worker makes itself (Chromium), such
    as its precaching: a page served from the service worker's cache cannot hide a request to another host.
    """

    def __init__(self, local: str) -> None:
        self.local = urlsplit(local).netloc
        self.requests: list[str] = []
        self.foreign: list[str] = []
        self.open: dict[Request, str] = {}  # asked for, neither finished nor failed: how a page that waits says why
        self.console: list[str] = []  # what the context's pages and workers wrote on the console

    def watch(self, context: BrowserContext) -> None:
        """Keep track of the context's requests that have not ended (`unfinished`) and of what it writes on the console,
        for `waiting_for`."""
        context.on("request", self._asked)
        context.on("requestfinished", self._ended)
        context.on("requestfailed", self._ended)
        context.on("console", lambda message: self.console.append(f"{message.type}: {message.text}"))
        NETWORKS[context] = self

    def _asked(self, request: Request) -> None:
        self.open[request] = request.url

    def _ended(self, request: Request) -> None:
        self.open.pop(request, None)

    def unfinished(self) -> list[str]:
        """The URLs asked for that have neither finished nor failed yet."""
        return list(self.open.values())

    def route(self, route: Route) -> None:
        url = route.request.url
        self.requests.append(url)
        scheme, netloc = urlsplit(url)[:2]
        if scheme in ("http", "https", "ws", "wss") and netloc != self.local:
            self.foreign.append(url)
            route.abort()
        else:
            route.continue_()

    def count(self, suffix: str) -> int:
        return sum(1 for url in self.requests if urlsplit(url).path.endswith(suffix))


@pytest.fixture
def network(base_url: str) -> Network:
    return Network(base_url)


# Each context's Network, for a test helper that has only a page and must say what the page is still waiting for.
NETWORKS: WeakKeyDictionary[BrowserContext, Network] = WeakKeyDictionary()


def new_context(browser: Browser, network: Network, **options: Any) -> BrowserContext:
    context = browser.new_context(**options)
    context.route("**/*", network.route)
    network.watch(context)
    return context


def waiting_for(page: Page) -> str:
    """What the page is waiting for, for a failing test's message: its requests that have not ended, its workers, and
    the last lines its context wrote on the console."""
    network = NETWORKS.get(page.context)
    if network is None:
        return "requests not tracked"
    unfinished = network.unfinished()
    workers = [worker.url for worker in page.workers]
    return (
        f"unfinished requests: {unfinished}" if unfinished else "no request unfinished"
    ) + f"; workers: {workers}; console: {network.console[-20:]}"


@pytest.fixture
def context(browser: Browser, network: Network) -> Iterator[BrowserContext]:
    context = new_context(browser, network)
    yield context
    context.close()
    assert network.foreign == [], f"requests left 127.0.0.1: {network.foreign}"


@pytest.fixture
def page(context: BrowserContext) -> Iterator[Page]:
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    yield page
    assert errors == [], f"errors in the page: {errors}"


@contextmanager
def guarded_page(browser: Browser, site_url: str) -> Iterator[Page]:
    """A page of the site at `site_url` in a context of its own, with every request elsewhere failed; on leaving,
    there must have been no such request and no error in the page."""
    network = Network(site_url)
    context = new_context(browser, network)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert network.foreign == []
    assert errors == []
