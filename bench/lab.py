"""The bench's instruments in Chromium: the book built and served as a static host serves it, a fresh browser context
per visit that fails and keeps every request to another host, and the probe that times one input event to its result
on screen."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from playwright.sync_api import Browser, Page, Request, Route

from bench.build import problems
from bench.figures import BenchError
from calckit.api import run
from tests.support import ROOT, build_site, serve

__all__ = [
    "BARE",
    "BOOT_TIMEOUT_MS",
    "COLD_VALUE",
    "EXERCISES",
    "FIRST",
    "PLUGIN_ASSETS",
    "ROOFLINE",
    "SERVICE_WORKER",
    "WARM_TIMEOUT_MS",
    "WASM",
    "WORKER_SCRIPT",
    "Lab",
    "Visit",
    "served_book",
]

ROOFLINE = "/lessons/roofline/"
EXERCISES = "/lessons/roofline-exercises/"
BARE = "/__bench__/bare.html"
STATIC = Path(__file__).parent / "static"  # served as /__bench__/
FIRST = "#calc-1"
PLUGIN_ASSETS = "/assets/calculators/"
WORKER_SCRIPT = PLUGIN_ASSETS + "worker.js"
WASM = "pyodide.asm.wasm"
SERVICE_WORKER = "/sw.js"  # written by the plugin at the site's root, when it writes one

COLD_VALUE = "1000"  # the first intensity a reader types (the page starts at 100)
BOOT_TIMEOUT_MS = 60_000  # a cold Pyodide boot on a busy 2-core machine
WARM_TIMEOUT_MS = 10_000

# Set a calculator's field (`key`) to `value`, dispatch an input event and resolve, on the page's clock, with {ms:
# until a MutationObserver sees every output and the summary equal to CPython's (`want`), chart_ms: until its chart has
# also been drawn again (vega.js counts each finished draw in data-drawn; 0 for a calculator without a chart),
# frame_ms: until the browser has laid out and painted the frame that shows them (a task queued from the next
# animation frame runs after that frame's rendering), dispatched}.
# Throws if the outputs already show that result (nothing to see).
MEASURE_INPUT = """
async ([selector, key, value, want, timeout]) => {
  const root = document.querySelector(selector);
  const field = root.querySelector(`${selector}-${key}`);
  const outputs = Object.keys(want.outputs).map((key) => root.querySelector(`[data-output="${key}"] output`));
  const summary = root.querySelector(".calc-summary");
  const chart = root.querySelector(".calc-chart-view");
  const shows = () =>
    Object.values(want.outputs).every((text, i) => outputs[i]?.textContent === text) &&
    summary.textContent === want.summary;
  if (shows()) throw new Error(`${selector} already shows the result for ${key} = ${value}`);
  return await new Promise((resolve, reject) => {
    let dispatched = 0;
    let ms = null;
    let drawsBefore = 0;
    const draws = () => Number(chart?.dataset.drawn ?? 0);
    const finish = (chartMs) => {
      observer.disconnect();
      clearTimeout(timer);
      requestAnimationFrame(() => {
        const after = new MessageChannel();
        after.port1.onmessage = () =>
          resolve({ ms, chart_ms: chartMs, frame_ms: performance.now() - dispatched, dispatched });
        after.port2.postMessage(null);
      });
    };
    const observer = new MutationObserver(() => {
      if (ms === null) {
        if (!shows()) return;
        ms = performance.now() - dispatched;
        if (!chart) return finish(ms);
      }
      if (draws() > drawsBefore) finish(performance.now() - dispatched);
    });
    const timer = setTimeout(() => {
      observer.disconnect();
      reject(new Error(`${selector} did not show the result for ${key} = ${value} within ${timeout} ms`));
    }, timeout);
    const watch = { childList: true, characterData: true, subtree: true };
    for (const node of [...outputs, summary]) observer.observe(node, watch);
    if (chart) observer.observe(chart, { attributes: true, attributeFilter: ["data-drawn"] });
    field.value = value;
    drawsBefore = draws();
    dispatched = performance.now();
    field.dispatchEvent(new Event("input", { bubbles: true }));
  });
}
"""


# A calculator's form as the page sends it to Python (calculator_form.js's readInputs): {name, inputs}.
FORM = """
selector => {
  const root = document.querySelector(selector);
  const inputs = {};
  for (const field of root.querySelectorAll("[data-input]")) {
    inputs[field.dataset.input] = field.dataset.kind === "choices"
      ? [...field.querySelectorAll("input[type=checkbox]:checked")].map((box) => box.value).join(",")
      : field.querySelector("input:not(.calc-slider):not(.calc-filter), select")?.value ?? "";
  }
  return { name: root.dataset.calculator, inputs };
}
"""


def expected(name: str, inputs: dict[str, str]) -> dict[str, Any]:
    """What CPython's package shows for calculator `name` on `inputs` (strings, as the form holds them)."""
    result = run(name, inputs)
    if not result["ok"]:
        raise BenchError(f"{name} rejects {inputs}: {result['errors']}")
    return {"outputs": {out["key"]: out["text"] for out in result["outputs"]}, "summary": result["summary"]}


@dataclass
class Visit:
    """One page in a fresh browser context (so an empty HTTP cache), and what it asked for."""

    page: Page
    base_url: str
    urls: list[str] = field(default_factory=list)  # every request, as routed
    finished: list[Request] = field(default_factory=list)
    workers: list[str] = field(default_factory=list)

    def open_calculators(self, path: str = ROOFLINE, selector: str = FIRST) -> None:
        """Go to `path` and wait until its calculator `selector` is mounted (the component module is live)."""
        self.page.goto(self.base_url + path)
        self.page.locator(selector).scroll_into_view_if_needed()  # calculators mount as they near the screen
        self.page.wait_for_selector(f"{selector}[data-mounted]", state="attached")

    def change_intensity(self, value: str, timeout_ms: int) -> dict[str, float]:
        """The first calculator's intensity set to `value` (see change)."""
        return self.change(FIRST, "intensity", value, timeout_ms)

    def change(self, selector: str, key: str, value: str, timeout_ms: int) -> dict[str, float]:
        """Calculator `selector`'s field `key` set to `value`: {ms: from the input event to the new result on screen,
        chart_ms: to its chart drawn again, frame_ms: to the frame that shows them painted, dispatched: when, on the
        page's clock}."""
        form: dict[str, Any] = self.page.evaluate(FORM, selector)
        want = expected(form["name"], {**form["inputs"], key: value})
        result: dict[str, float] = self.page.evaluate(MEASURE_INPUT, [selector, key, value, want, timeout_ms])
        return result

    def count(self, suffix: str) -> int:
        return sum(1 for url in self.urls if urlsplit(url).path.endswith(suffix))


class Lab:
    """The browser and the served site; every request to another host is failed and kept, every page error too."""

    def __init__(self, browser: Browser, base_url: str) -> None:
        self.browser = browser
        self.base_url = base_url
        self.host = urlsplit(base_url).netloc
        self.foreign: list[str] = []
        self.errors: list[str] = []

    def _route(self, route: Route, urls: list[str]) -> None:
        url = route.request.url
        urls.append(url)
        scheme, netloc = urlsplit(url)[:2]
        if scheme in ("http", "https", "ws", "wss") and netloc != self.host:
            self.foreign.append(url)
            route.abort()
        else:
            route.continue_()

    def _failed(self, request: Request) -> None:
        # The service worker asks the HTTP cache first for what the page may already have fetched (cache:
        # "only-if-cached"): a miss is an answer, not a failure, and routing turns that cache off.
        if request.url not in self.foreign and request.failure != "net::ERR_CACHE_MISS":
            self.errors.append(f"request failed: {request.url} ({request.failure})")

    def _seen(self, request: Request, urls: list[str]) -> None:
        urls.append(request.url)
        scheme, netloc = urlsplit(request.url)[:2]
        if scheme in ("http", "https", "ws", "wss") and netloc != self.host:
            self.foreign.append(request.url)

    @contextmanager
    def visit(self, *, routed: bool = True) -> Iterator[Visit]:
        """A fresh context; every request routed (and one to another host failed), or with `routed=False` only
        watched, which keeps Chromium's HTTP cache on (routing turns it off) for a repeat visit."""
        context = self.browser.new_context()
        try:
            urls: list[str] = []
            if routed:
                context.route("**/*", lambda route: self._route(route, urls))
            else:
                context.on("request", lambda request: self._seen(request, urls))
            page = context.new_page()
            visit = Visit(page, self.base_url, urls)
            context.on("requestfinished", lambda request: visit.finished.append(request))
            context.on("requestfailed", self._failed)
            page.on("worker", lambda worker: visit.workers.append(worker.url))
            page.on("pageerror", lambda error: self.errors.append(f"{page.url}: {error}"))
            page.on(
                "console", lambda msg: self.errors.append(f"{page.url}: {msg.text}") if msg.type == "error" else None
            )
            yield visit
        finally:
            context.close()


@contextmanager
def served_book(**env: str) -> Iterator[tuple[str, Path]]:
    """The book built strictly into a temporary folder, with the bare-boot page beside it, served gzip-compressed on
    127.0.0.1.

    The server starts first so that the build's site_url carries its port: Material's instant navigation only
    follows links to the site_url it was built for (T4).
    """
    with tempfile.TemporaryDirectory(prefix="bench-served-") as folder:
        site = Path(folder)
        # gzip and ten minutes' max-age, as GitHub Pages serves (the repeat visits of T2 use the HTTP cache)
        with serve(site, compress=True, max_age=600) as base_url:
            result = build_site(ROOT / "mkdocs.yml", site, timeout=None, SITE_URL=base_url + "/", **env)
            if result.returncode != 0:
                raise BenchError(f"the book's strict build fails: {problems(result.stderr)}")
            shutil.copytree(STATIC, site / "__bench__")
            yield base_url, site
