"""Playwright driving Debian's Chromium against the real site, built strictly and served on 127.0.0.1.

Every request to any other host is recorded and fails; each test ends by checking that there were none (R3). The
browser itself resolves no host name but 127.0.0.1 (`--host-resolver-rules`), so such a request fails without a
round trip through Python; the tests record requests from the browser's events. A test that counts what reached
the server (the service worker's tests) routes every request through Python instead: `new_context(..., routed=True)`.

Most tests are not about a first visit: `warm_page` is a new tab in a context shared by the tests of a module, its
service worker installed and its caches filled by the tests before it, and its localStorage emptied for each test.
`page` (and `context`) stay fresh for each test, as a first visit.

Outside CI the layer skips, saying why, when there is no Chromium; with CI=true that is a failure instead.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit
from weakref import WeakKeyDictionary

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Request, Response, Route, expect

from tests.support import ROOT, build_site, serve

# expect() waits for what the page reaches by itself; on a busy machine that can take longer than its default 5 s.
expect.set_options(timeout=30_000)

# The browser readers run: Debian's Chromium, or CHROMIUM. The tests drive its headless shell where it is installed
# (Debian's chromium-headless-shell, built from the same source: Blink and V8 without the browser's own interface, as
# Playwright itself runs headless tests), which costs a third less CPU per page load; a test about how the browser
# itself lays a page out or builds its accessibility tree launches CHROMIUM (make bench and Lighthouse use it too).
CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
TEST_CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium-headless-shell") or CHROMIUM
# Chromium as a reader's runs the site, headless and without its own background traffic: what make bench measures.
READER_CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    # No host name resolves but the test server's address: a request to another host fails in the browser, at once.
    # (The tests still record each one and fail for it: see Network.)
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
]
# The tests' Chromium: Pyodide's WebAssembly runs as V8's baseline compiler (Liftoff) makes it, without recompiling
# its hot functions with the optimising one in the background: a test page computes little, and that recompiling was
# a tenth of a page load's CPU (measured: 2.25 to 1.92 CPU-s per load of the roofline lesson, its Python booted). A
# reader's browser does recompile them, so make bench, which times Python's calls, leaves this out.
CHROMIUM_ARGS = [*READER_CHROMIUM_ARGS, "--js-flags=--no-wasm-tier-up"]


def _need_chromium() -> None:
    if Path(TEST_CHROMIUM).is_file():
        return
    reason = f"no Chromium at {TEST_CHROMIUM} (install Debian's chromium, or set CHROMIUM)"
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
        browser = playwright.chromium.launch(executable_path=TEST_CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield browser
        browser.close()


class Network:
    """What a context asked for: every URL, and those to other hosts (`foreign`: each fails, and fails the test).

    Recorded from the context's request events, which Chromium also sends for the requests that the site's service
    worker makes itself, such as its precaching: a page served from the service worker's cache cannot hide a request
    to another host. With `routed` (see new_context) every request goes through `route` instead, which records it,
    continues it or fails it if it is for another host: then `requests` are what reached the network (routing turns
    Chromium's HTTP cache off, and a page's request that its service worker answers never reaches a route).
    """

    def __init__(self, local: str) -> None:
        self.local = urlsplit(local).netloc
        self.requests: list[str] = []
        self.foreign: list[str] = []
        self.open: dict[Request, str] = {}  # asked for, neither finished nor failed: how a page that waits says why
        self.asked: list[Request] = []  # every request, for `downloads`
        self.console: list[str] = []  # what the context's pages and workers wrote on the console
        self.failed: list[str] = []  # the requests that failed or were answered with an HTTP error, and why
        self.routed = False
        self._listeners: dict[BrowserContext, list[tuple[str, Callable[[Any], None]]]] = {}  # by context watched

    def watch(self, context: BrowserContext, *, routed: bool = False) -> None:
        """Record the context's requests (from its events, or with `routed` from `route`), keep track of those that
        have not ended (`unfinished`) and of what the context writes on the console, for `waiting_for`."""
        self.routed = routed
        self._listeners[context] = [
            ("request", self._asked),
            ("requestfinished", self._ended),
            ("requestfailed", self._failed),
            ("response", self._answered),
            ("console", lambda message: self.console.append(f"{message.type}: {message.text}")),
        ]
        for event, listener in self._listeners[context]:
            context.on(event, listener)  # type: ignore[call-overload]
        NETWORKS[context] = self

    def unwatch(self, context: BrowserContext) -> None:
        """Stop recording `context` (which another test's Network then watches)."""
        for event, listener in self._listeners.pop(context, []):
            context.remove_listener(event, listener)

    def _record(self, url: str) -> bool:
        """Record a request; whether it is for another host."""
        self.requests.append(url)
        scheme, netloc = urlsplit(url)[:2]
        foreign = scheme in ("http", "https", "ws", "wss") and netloc != self.local
        if foreign:
            self.foreign.append(url)
        return foreign

    def _asked(self, request: Request) -> None:
        self.open[request] = request.url
        self.asked.append(request)
        if not self.routed:
            self._record(request.url)

    def _ended(self, request: Request) -> None:
        self.open.pop(request, None)

    def _failed(self, request: Request) -> None:
        self._ended(request)
        self.failed.append(f"{request.url} ({request.failure})")

    def _answered(self, response: Response) -> None:
        if response.status >= 400:
            self.failed.append(f"{response.url} (HTTP {response.status})")

    def unfinished(self) -> list[str]:
        """The URLs asked for that have neither finished nor failed yet."""
        return list(self.open.values())

    def route(self, route: Route) -> None:
        if self._record(route.request.url):
            route.abort()
        else:
            route.continue_()

    def count(self, suffix: str) -> int:
        return sum(1 for url in self.requests if urlsplit(url).path.endswith(suffix))

    def downloads(self, suffix: str) -> list[str]:
        """The URLs ending in `suffix` that the network answered: one per download. Counted from the answers, not the
        requests: when a page's worker asks for a file while the service worker is already downloading it for the
        offline copy, Chromium reports two requests (the worker's, answered by the service worker, and the service
        worker's own) for one download."""
        found = []
        for request in self.asked:
            if urlsplit(request.url).path.endswith(suffix):
                response = request.response()
                if response is not None and not response.from_service_worker:
                    found.append(request.url)
        return found

    def assert_stayed_local(self) -> None:
        """R3: no request left 127.0.0.1."""
        assert self.foreign == [], f"requests left 127.0.0.1: {self.foreign}"


@pytest.fixture
def network(base_url: str) -> Network:
    return Network(base_url)


# Each context's Network, for a test helper that has only a page and must say what the page is still waiting for.
NETWORKS: WeakKeyDictionary[BrowserContext, Network] = WeakKeyDictionary()


def new_context(browser: Browser, network: Network, *, routed: bool = False, **options: Any) -> BrowserContext:
    """A context of `browser` whose requests `network` records. With `routed`, every request goes through Python
    (Network.route): for a test that counts what reached the network; it turns Chromium's HTTP cache off."""
    context = browser.new_context(**options)
    if routed:
        context.route("**/*", network.route)
    network.watch(context, routed=routed)
    return context


def waiting_for(page: Page) -> str:
    """What the page is waiting for, for a failing test's message: its requests that have not ended, the last that
    failed, its workers, and the last lines its context wrote on the console."""
    network = NETWORKS.get(page.context)
    if network is None:
        return "requests not tracked"
    unfinished = network.unfinished()
    workers = [worker.url for worker in page.workers]
    return (
        f"unfinished requests: {unfinished}" if unfinished else "no request unfinished"
    ) + f"; failed: {network.failed[-10:]}; workers: {workers}; console: {network.console[-20:]}"


@pytest.fixture
def context(browser: Browser, network: Network) -> Iterator[BrowserContext]:
    context = new_context(browser, network)
    yield context
    context.close()
    network.assert_stayed_local()


@contextmanager
def errors_of(page: Page) -> Iterator[None]:
    """Fails, on leaving, if the page threw or logged an error meanwhile."""
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    yield
    assert errors == [], f"errors in the page: {errors}"


@pytest.fixture
def fresh_page(context: BrowserContext) -> Iterator[Page]:
    """A page in a fresh context of its own: a first visit (no service worker yet, empty caches and storage)."""
    page = context.new_page()
    with errors_of(page):
        yield page


@pytest.fixture
def page(fresh_page: Page) -> Page:
    """`fresh_page`; a module whose tests are not about a first visit makes its `page` the `warm_page` instead, and
    its tests that are about one ask for `fresh_page`."""
    return fresh_page


# The module's warm contexts, by their options: see warm_contexts.
WarmContexts = Callable[..., BrowserContext]


@pytest.fixture(scope="module")
def warm_contexts(browser: Browser, base_url: str) -> Iterator[WarmContexts]:
    """The module's warm contexts, by their options (a phone's viewport, a colour scheme): each is made at the first
    test that asks for it and kept for the module's other tests, its service worker and caches, the HTTP cache and
    Chromium's compiled code with it, as for a reader who has been here before. Between tests a Network of the
    context's own records what its service worker asks for by itself (precaching), and none of it may leave."""
    made: dict[str, tuple[BrowserContext, Network]] = {}

    def warm(**options: Any) -> BrowserContext:
        key = json.dumps(options, sort_keys=True)
        if key not in made:
            between = Network(base_url)
            made[key] = (new_context(browser, between, **options), between)
        return made[key][0]

    yield warm
    for context, between in made.values():
        context.close()
        between.assert_stayed_local()


@pytest.fixture(scope="module")
def warm_context(warm_contexts: WarmContexts) -> BrowserContext:
    """The module's warm context with the default options (see warm_contexts)."""
    return warm_contexts()


@contextmanager
def warm_tab(context: BrowserContext, network: Network, base_url: str) -> Iterator[Page]:
    """A new tab in a warm context, for a test that is not about a first visit, going offline, the service worker or
    what is stored: the site's localStorage is emptied first (quiz progress, exercise passes, Material's settings)
    and each tab has a sessionStorage of its own, so that no test sees what another left. `network` records the
    context's requests meanwhile, and none may leave 127.0.0.1; the page must log no error."""
    with recording(context, network):
        page = context.new_page()
        session = context.new_cdp_session(page)
        session.send("Storage.clearDataForOrigin", {"origin": base_url, "storageTypes": "local_storage"})
        session.detach()
        try:
            with errors_of(page):
                yield page
        finally:
            page.close()
            context.unroute_all(behavior="ignoreErrors")
    network.assert_stayed_local()


@pytest.fixture
def warm_page(warm_context: BrowserContext, network: Network, base_url: str) -> Iterator[Page]:
    """A new tab in the module's warm context (see warm_tab)."""
    with warm_tab(warm_context, network, base_url) as page:
        yield page


@contextmanager
def recording(context: BrowserContext, network: Network) -> Iterator[None]:
    """`network` records the context's requests meanwhile, in place of the Network that did (and does again after)."""
    before = NETWORKS.get(context)
    if before is not None:
        before.unwatch(context)
    network.watch(context)
    try:
        yield
    finally:
        network.unwatch(context)
        if before is not None:
            before.watch(context)


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
    network.assert_stayed_local()
    assert errors == []
