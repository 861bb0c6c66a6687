"""Reading offline (R4): after one visit, with the network off, every page reloads and every calculator recomputes.

Each test serves a site on a server of its own, because it takes the network away (the context goes offline and the
server is shut down, so nothing can slip through) or rebuilds the site under the reader's feet. The book is built
once for the module, for a port kept for it, and each test that reads it starts its own server on that port (the
build's site_url names it). The context's request events also show the requests that the service worker makes
itself (Chromium), so the check that nothing leaves 127.0.0.1 covers precaching too:
`test_service_worker_requests_are_recorded` makes sure of it. The tests that count downloads route every request
through Python (`routed=True`): what reaches the route is what reached the network.
"""

from __future__ import annotations

import functools
import json
import re
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any, ClassVar

import pytest
from playwright.sync_api import Browser, Page, Route

from calckit.api import run
from calculators import CALCULATORS
from mkdocs_calculators.runtime.service_worker import write_service_worker
from tests.browser.calculator_page import expected, follow_instantly, present, texts, wait_mounted
from tests.browser.conftest import Network, new_context
from tests.support import (
    NODE_MODULES,
    ROOT,
    QueueingHTTPServer,
    _Handler,
    build_site,
    free_port,
    serve,
    service_worker_manifest,
)

pytestmark = pytest.mark.browser

TIMEOUT = 90_000  # a cold boot and a background download of 20 MB on a busy 2-core machine
CALCULATOR_PAGE = "lessons/roofline/"
EVERY_CALCULATOR_PAGE = "reference/calculators/"


@contextmanager
def serve_on(site: Path, port: int, handler: type[_Handler] = _Handler) -> Iterator[str]:
    """Serve `site` on 127.0.0.1:`port` (the one its build was made for) until leaving; yields the base URL."""
    server = QueueingHTTPServer(("127.0.0.1", port), functools.partial(handler, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.shutdown()
        server.server_close()


class Served:
    """A site served on 127.0.0.1 until `stop`: on a free port, or on `port` (the one its build was made for)."""

    def __init__(self, stack: ExitStack, site: Path, port: int | None = None) -> None:
        self.site = site
        self._stack = stack
        self.url = stack.enter_context(serve(site) if port is None else serve_on(site, port))

    def stop(self) -> None:
        self._stack.close()

    def manifest(self) -> dict[str, Any]:
        return service_worker_manifest(self.site)

    def pages(self) -> list[str]:
        """Every page's address relative to the root ('' for the home page), from the service worker's manifest."""
        return [path for path, _ in self.manifest()["pages"] if path == "" or path.endswith("/")]


@pytest.fixture(scope="module")
def built_book(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int]:
    """The book, built strictly once for the module's tests, for a server on a port kept for them: (site, port)."""
    site = tmp_path_factory.mktemp("offline") / "site"
    port = free_port()
    result = build_site(ROOT / "mkdocs.yml", site, SITE_URL=f"http://127.0.0.1:{port}/")
    assert result.returncode == 0, result.stderr
    return site, port


@pytest.fixture
def book(built_book: tuple[Path, int]) -> Iterator[Served]:
    """The book, on a server of the test's own (which the test may stop), on the port its build was made for."""
    with ExitStack() as stack:
        yield Served(stack, *built_book)


def cache_sizes(page: Page) -> dict[str, int]:
    """Entries in each of the origin's caches, by cache name."""
    sizes: dict[str, int] = page.evaluate(
        """async () => Object.fromEntries(await Promise.all((await caches.keys()).map(
            async (name) => [name, (await (await caches.open(name)).keys()).length])))"""
    )
    return sizes


def poll(page: Page, script: str, arg: object, what: str) -> None:
    """Evaluate the async `script` until it is true (wait_for_function would take its promise for a true value)."""
    deadline = time.monotonic() + TIMEOUT / 1000
    while not page.evaluate(script, arg):
        assert time.monotonic() < deadline, f"timed out waiting until {what}: {page.evaluate(STATE)}"
        page.wait_for_timeout(250)


# What the origin holds, for a failure's message: its caches (with their sizes) and service workers.
STATE = """async () => ({
    caches: Object.fromEntries(await Promise.all((await caches.keys()).map(
        async (name) => [name, (await (await caches.open(name)).keys()).length]))),
    workers: (await navigator.serviceWorker.getRegistrations()).map((found) =>
        [found.scope, found.active?.state, found.waiting?.state, found.installing?.state]),
    controller: navigator.serviceWorker.controller?.scriptURL ?? null,
})"""


def wait_until_cached(page: Page, site: Path, *, runtime: bool = True) -> None:
    """The service worker of the build in `site` controls the page; its pages cache is complete and the only one,
    and (with `runtime`) the runtime cache holds the whole runtime."""
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=TIMEOUT)
    manifest = service_worker_manifest(site)
    poll(
        page,
        """async ([version, pages, runtime]) => {
            const sizes = {};
            for (const name of await caches.keys()) sizes[name] = (await (await caches.open(name)).keys()).length;
            const names = Object.keys(sizes);
            const ours = names.filter((name) => name.startsWith("calculators-pages:"));
            const files = names.find((name) => name.startsWith("calculators-runtime:"));
            return ours.length === 1 && ours[0].endsWith(`:${version}`) && sizes[ours[0]] === pages
                && (runtime === 0 || (files !== undefined && sizes[files] >= runtime));
        }""",
        [manifest["version"], len(manifest["pages"]), len(manifest["runtime"]) if runtime else 0],
        "the service worker has cached the site",
    )


# The runtime module's URL, from the entry script's: importing it gives the very module the page's calculators use.
RUNTIME_JS = (
    "document.querySelector('script[src*=\"assets/calculators/entry.js\"]').src.replace('entry.js', 'runtime.js')"
)


def start_calculators(page: Page) -> dict[str, Any]:
    """Touch the page's first calculator (they boot on first interaction), wait until the runtime is ready and say
    how it started ({mode: "snapshot" | "plain", ms})."""
    first = page.get_attribute("[data-calculator]", "id")
    wait_mounted(page, f"#{first}")
    page.focus(f"#{first} .calc-form input:not([type=hidden])")
    page.evaluate("async (url) => { await (await import(url)).bootRuntime(); }", page.evaluate(RUNTIME_JS))
    worker = next(worker for worker in page.workers if worker.url.endswith("/assets/calculators/worker.js"))
    started: dict[str, Any] = worker.evaluate("self.calculatorsBoot")
    return started


def run_every_calculator(page: Page) -> list[str]:
    """Run each calculator on the page in the page's worker on its default inputs, asserting CPython's outputs; the
    names run."""
    names = sorted(set(page.eval_on_selector_all("[data-calculator]", "els => els.map(e => e.dataset.calculator)")))
    for name in names:
        result = page.evaluate(
            "async ([url, name]) => (await import(url)).runCalculator(name, {})", [page.evaluate(RUNTIME_JS), name]
        )
        assert result["outputs"] == run(name, {})["outputs"], name
    return names


def recompute_roofline(page: Page) -> None:
    """Type a new intensity into the roofline calculator and wait for CPython's values."""
    page.fill("#calc-1-intensity", "1000")
    want = expected("roofline", intensity=1000)
    page.wait_for_function(
        """(wanted) => Object.entries(wanted).every(([key, text]) =>
            document.querySelector(`#calc-1 [data-output="${key}"] output`)?.textContent === text)""",
        arg=want,
        timeout=TIMEOUT,
    )
    assert texts(page, "#calc-1") == want


class TestOffline:
    def test_after_one_visit_every_page_reloads_and_calculators_recompute(self, browser: Browser, book: Served) -> None:
        network = Network(book.url)
        context = new_context(browser, network, routed=True)  # counts what reached the network
        page = context.new_page()
        # One visit: the home page, then a calculator started; the service worker caches every other page itself.
        page.goto(f"{book.url}/")
        page.goto(f"{book.url}/{CALCULATOR_PAGE}")
        assert start_calculators(page)["mode"] == "snapshot"
        # A runtime started before the service worker took control stores its own downloads once it is ready;
        # leaving the page sooner cancels that, and the next page downloads them again.
        kept = "async (url) => { await (await import(url)).runtimeDownloadsKept(); }"
        page.evaluate(kept, page.evaluate(RUNTIME_JS))
        wait_until_cached(page, book.site)
        assert network.count("pyodide.asm.wasm") == 1, "the runtime was downloaded twice"
        assert network.foreign == []

        context.set_offline(True)
        book.stop()  # no server at all: whatever still loads comes from the service worker's caches
        errors: list[str] = []
        page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
        calculator_pages = []
        for address in book.pages():
            page.goto(f"{book.url}/{address}")
            assert page.locator("article h1").count() == 1, f"{address or 'home'} did not load offline"
            if page.query_selector("[data-calculator]"):
                calculator_pages.append(address)
                wait_mounted(page, f"#{page.get_attribute('[data-calculator]', 'id')}")  # its scripts, cached too
        assert CALCULATOR_PAGE in calculator_pages and EVERY_CALCULATOR_PAGE in calculator_pages
        # Python booted offline from the cached snapshot (every page boots the same files), on the page that holds
        # every calculator of the book: each gives CPython's outputs.
        page.goto(f"{book.url}/{EVERY_CALCULATOR_PAGE}")
        assert start_calculators(page)["mode"] == "snapshot"
        assert run_every_calculator(page) == sorted(CALCULATORS)
        page.goto(f"{book.url}/{CALCULATOR_PAGE}")
        wait_mounted(page, "#calc-1")
        recompute_roofline(page)
        assert errors == [], errors
        context.close()
        assert network.foreign == [], f"requests left 127.0.0.1: {network.foreign}"

    def test_instant_navigation_works_offline(self, browser: Browser, book: Served) -> None:
        """Material fetches the next page and the sitemap itself: the service worker answers those too."""
        context = new_context(browser, Network(book.url))
        page = context.new_page()
        page.goto(f"{book.url}/")
        wait_until_cached(page, book.site, runtime=False)
        context.set_offline(True)
        book.stop()
        follow_instantly(
            page, f"article a[href$='{CALCULATOR_PAGE.rstrip('/').split('/')[-1]}/']", f"{book.url}/{CALCULATOR_PAGE}"
        )
        wait_mounted(page, "#calc-1")
        assert page.evaluate("performance.getEntriesByType('navigation').length") == 1
        context.close()

    def test_service_worker_requests_are_recorded(self, browser: Browser, book: Served) -> None:
        """Pages the reader never opened are fetched by the service worker alone, and the context's request events
        showed them (R3)."""
        network = Network(book.url)
        context = new_context(browser, network)
        page = context.new_page()
        page.goto(f"{book.url}/")
        wait_until_cached(page, book.site, runtime=False)
        assert network.count("/404.html") == 1
        assert network.count("/sitemap.xml") >= 1
        context.close()
        assert network.foreign == []

    def test_a_page_without_calculators_downloads_no_runtime(self, browser: Browser, book: Served) -> None:
        """T5: the home page, its service worker's install included, asks for no Pyodide, Vega or snapshot bytes."""
        network = Network(book.url)
        context = new_context(browser, network)
        page = context.new_page()
        page.goto(f"{book.url}/")
        wait_until_cached(page, book.site, runtime=False)
        runtime = [url for url in network.requests if re.search(r"/pyodide/|/vega/|\.whl$|snapshot-.*\.bin$", url)]
        assert runtime == []
        context.close()


class TestNewBuild:
    PAGE = "# Edition\n\nThis is the {edition} edition.\n\n```calculator\nuse: roofline\n```\n"

    def build(self, root: Path, url: str, edition: str) -> None:
        (root / "docs").mkdir(parents=True, exist_ok=True)
        (root / "docs/index.md").write_text(self.PAGE.format(edition=edition), encoding="utf-8")
        (root / "docs/other.md").write_text(f"# Other\n\nThe {edition} edition's other page.\n", encoding="utf-8")
        config = {
            "site_name": "Editions",
            "site_url": url + "/",
            "theme": {"name": "material", "font": False, "features": ["navigation.instant"]},
            "plugins": [{"calculators": {"node_modules": str(NODE_MODULES)}}],
        }
        (root / "mkdocs.yml").write_text(json.dumps(config), encoding="utf-8")  # JSON is YAML
        result = build_site(root / "mkdocs.yml", root / "site")
        assert result.returncode == 0, result.stderr

    def test_a_new_build_replaces_the_caches(self, browser: Browser, tmp_path: Path) -> None:
        """A reader of the first build comes back after a second one: the old pages cache is gone, the new one is
        complete, the unchanged runtime entries stayed, and offline the page is the new edition's."""
        with ExitStack() as stack:
            (tmp_path / "site").mkdir()
            served = Served(stack, tmp_path / "site")
            self.build(tmp_path, served.url, "first")
            first = served.manifest()
            network = Network(served.url)
            context = new_context(browser, network, routed=True)  # counts what reached the network
            page = context.new_page()
            page.goto(f"{served.url}/")
            wait_mounted(page, "#calc-1")
            start_calculators(page)
            wait_until_cached(page, served.site)
            before = cache_sizes(page)

            self.build(tmp_path, served.url, "second")
            second = served.manifest()
            assert second["version"] != first["version"]
            assert dict(second["runtime"]) == dict(first["runtime"])
            page.reload()  # the browser checks sw.js, finds the new build, installs and activates it
            wait_until_cached(page, served.site)
            after = cache_sizes(page)
            pages_caches = [name for name in after if name.startswith("calculators-pages:")]
            assert pages_caches == [next(n for n in pages_caches if n.endswith(second["version"]))]
            assert not any(name.endswith(first["version"]) for name in after)
            runtime = next(name for name in after if name.startswith("calculators-runtime:"))
            assert after[runtime] == before[runtime]
            assert network.count("pyodide.asm.wasm") == 1, "an unchanged runtime was downloaded again"

            context.set_offline(True)
            served.stop()
            page.reload()
            assert "This is the second edition." in present(page.text_content("article"))
            page.goto(f"{served.url}/other/")
            assert "The second edition's other page." in present(page.text_content("article"))
            context.close()
            assert network.foreign == []

    def test_mkdocs_serve_retires_the_service_worker_of_a_built_site(self, browser: Browser, tmp_path: Path) -> None:
        """A reader of the built site on an address that `mkdocs serve` later uses: the next visit removes the old
        service worker and its caches, so that live reload is not served from them."""
        with ExitStack() as stack:
            (tmp_path / "site").mkdir()
            served = Served(stack, tmp_path / "site")
            self.build(tmp_path, served.url, "first")
            context = new_context(browser, Network(served.url))
            page = context.new_page()
            page.goto(f"{served.url}/other/")
            wait_until_cached(page, served.site, runtime=False)

            # What a `mkdocs serve` build writes: the retiring sw.js, and build values that name no service worker
            # (entry.js then registers none).
            write_service_worker(served.site, serving=True)
            info = served.site / "assets/calculators/build-info.js"
            built = info.read_text(encoding="utf-8")
            info.write_text(built.replace('serviceWorker = "sw.js";', 'serviceWorker = "";'), encoding="utf-8")
            assert info.read_text(encoding="utf-8") != built
            page.reload()  # the old worker serves it, and the browser finds the new sw.js, which empties the caches
            poll(page, "async () => (await caches.keys()).length === 0", None, "the old caches are gone")
            # This page may have had the built build-info.js from the old cache, whose naming sw.js has entry.js
            # register it again and can keep the retired worker registered; the next page comes from the network, and
            # its entry.js removes it.
            page.reload()
            poll(
                page,
                """async () => (await caches.keys()).length === 0
                    && (await navigator.serviceWorker.getRegistrations()).length === 0""",
                None,
                "the old service worker and its caches are gone",
            )
            context.close()


class TestStalledNetwork:
    def test_a_stalled_network_gets_the_cached_page_within_seconds(self, browser: Browser, book: Served) -> None:
        """R9: after one visit, a connection that neither answers nor fails (lie-fi) gets each page from the cache
        within a few seconds, never a tab that hangs."""
        network = Network(book.url)
        context = new_context(browser, network)
        page = context.new_page()
        page.goto(f"{book.url}/")
        wait_until_cached(page, book.site, runtime=False)
        stalled: list[str] = []

        def stall(route: Route) -> None:  # never answered: the request hangs, as on lie-fi
            stalled.append(route.request.url)

        context.route("**/*.html", stall)
        context.route(re.compile(r".*/$"), stall)
        for address in ("lessons/roofline/", "chapters/27-asics-and-accelerators/"):
            started = time.monotonic()
            page.goto(f"{book.url}/{address}", wait_until="domcontentloaded", timeout=20_000)
            seconds = time.monotonic() - started
            assert page.locator("article h1").count() == 1, address
            assert seconds < 10, f"{address} took {seconds:.1f} s on a stalled network"
        assert any(url.endswith("/lessons/roofline/") for url in stalled), "the page request was not stalled"
        context.unroute_all(behavior="ignoreErrors")
        context.close()
        assert network.foreign == []


class _Counting(_Handler):
    """A static host that counts the requests for each path, conditional ones included, and is slow to send sw.js,
    so that a first visit boots its runtime before the service worker controls the page."""

    asked: ClassVar[list[str]] = []

    def do_GET(self) -> None:
        path = self.path.split("?")[0]
        type(self).asked.append(path)
        if path == "/sw.js":
            time.sleep(4)
        super().do_GET()


class TestFirstVisitDownloads:
    def test_a_runtime_booted_before_the_service_worker_is_downloaded_once(
        self, browser: Browser, built_book: tuple[Path, int]
    ) -> None:
        """R4's first visit: the calculators boot before the service worker takes control, then the service worker
        caches the whole runtime for offline reading. Each file of the runtime reaches the server once: the service
        worker takes what the page already has from the browser's cache, Pyodide's module and Vega included. (The
        context is not routed: Playwright's routing would turn that cache off.)"""
        site, port = built_book
        _Counting.asked = []
        with serve_on(site, port, _Counting) as url:
            context = browser.new_context()
            page = context.new_page()
            page.goto(f"{url}/{CALCULATOR_PAGE}")
            assert start_calculators(page)["mode"] in ("snapshot", "plain")
            # Booted before the control: what the runtime saw as it started (the control itself comes some seconds
            # later, once sw.js arrives, and a boot on a busy machine can take longer than that).
            started = page.evaluate(
                "async (url) => (await import(url)).startedUnderServiceWorker()", page.evaluate(RUNTIME_JS)
            )
            assert started is False
            recompute_roofline(page)  # draws the chart: Vega is loaded
            wait_until_cached(page, site)
            context.close()
        runtime = [path for path, _ in service_worker_manifest(site)["runtime"]]
        assert [path for path in runtime if path.endswith("pyodide.asm.mjs")] and [p for p in runtime if "vega" in p]
        counts = {path: _Counting.asked.count("/" + path) for path in runtime}
        assert counts == dict.fromkeys(runtime, 1)


class _SlowSnapshot(_Handler):
    """A static host that notes when it began and ended each answer, and takes SNAPSHOT_DELAY seconds over the memory
    snapshot: a first visit's boot that lasts seconds after the page has loaded."""

    SNAPSHOT_DELAY = 3.0
    events: ClassVar[list[tuple[str, str, float]]] = []

    def do_GET(self) -> None:
        path = self.path.split("?")[0]
        type(self).events.append(("began", path, time.monotonic()))
        if self.slow(path):
            time.sleep(self.SNAPSHOT_DELAY)
        super().do_GET()
        type(self).events.append(("ended", path, time.monotonic()))

    @staticmethod
    def slow(path: str) -> bool:
        """The calculators' snapshot (not the exercises': the service worker fetches that one for offline use)."""
        return re.search(r"/snapshot-\w+\.bin$", path) is not None


class TestServiceWorkerAfterTheBoot:
    def test_a_first_visit_registers_the_service_worker_once_python_has_booted(
        self, browser: Browser, built_book: tuple[Path, int]
    ) -> None:
        """T2: the service worker's first install copies every page of the site into its cache; beside a first
        visit's boot, on two cores, the first result took 850 ms against 526 without it. On a page with a
        calculator, sw.js is asked for only once the boot has settled (seconds after the load here: the snapshot is
        slow), and the page is then kept for offline reading as before; on a page without one, at its load."""
        site, port = built_book
        _SlowSnapshot.events = []
        with serve_on(site, port, _SlowSnapshot) as url:
            context = browser.new_context()
            page = context.new_page()
            page.goto(f"{url}/{CALCULATOR_PAGE}")
            loaded = time.monotonic()
            assert start_calculators(page)["mode"] == "snapshot"
            wait_until_cached(page, site)  # registered after all, and the runtime kept
            context.close()
        events = _SlowSnapshot.events
        snapshot_ended = min(at for what, path, at in events if what == "ended" and _SlowSnapshot.slow(path))
        sw_asked = min(at for what, path, at in events if what == "began" and path == "/sw.js")
        assert snapshot_ended - loaded > _SlowSnapshot.SNAPSHOT_DELAY / 2  # the boot outlasted the load
        assert sw_asked > snapshot_ended, f"sw.js asked {snapshot_ended - sw_asked:.2f} s before the boot's snapshot"

        _SlowSnapshot.events = []
        with serve_on(site, port, _SlowSnapshot) as url:
            context = browser.new_context()
            page = context.new_page()
            page.goto(f"{url}/")  # the home page: nothing boots Python
            page.wait_for_function("navigator.serviceWorker.getRegistration().then(Boolean)", timeout=TIMEOUT)
            context.close()
        assert [path for what, path, _ in _SlowSnapshot.events if _SlowSnapshot.slow(path)] == []
