"""T2-T5 and R3 in Chromium: the book, built strictly and served on 127.0.0.1, driven the way a reader would."""

from __future__ import annotations

import gzip
import os
import random
import shutil
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import urlsplit

from playwright.sync_api import Browser, Page, Request, Route, sync_playwright

from bench.build import problems
from bench.figures import BenchError, Figure, editor_figures, guarded, is_editor, median, percentile
from bench.lighthouse import book_pages, lighthouse
from calckit.api import run
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.support import ROOT, build_site, serve, service_worker_manifest

__all__ = ["measure_browser"]

ROOFLINE = "/lessons/roofline/"
EXERCISES = "/lessons/roofline-exercises/"
BARE = "/__bench__/bare.html"
STATIC = Path(__file__).parent / "static"  # served as /__bench__/
FIRST = "#calc-1"
PLUGIN_ASSETS = "/assets/calculators/"
WORKER_SCRIPT = PLUGIN_ASSETS + "worker.js"
WASM = "pyodide.asm.wasm"
SERVICE_WORKER = "/sw.js"  # written by the plugin at the site's root, when it writes one
RUNTIME_KINDS = ("pyodide", "vega", "wheel", "other runtime")

COLD_RUNS = 3
REPEAT_RUNS = 3
WARM_INPUTS = 60
COLD_VALUE = "1000"  # the first intensity a reader types (the page starts at 100)
BOOT_TIMEOUT_MS = 60_000  # a cold Pyodide boot on a busy 2-core machine
WARM_TIMEOUT_MS = 10_000
QUIET_MS = 1_500  # how long a page is watched for late requests, after the network is idle

# Set the first calculator's intensity, dispatch an input event and resolve, on the page's clock, with {ms: until a
# MutationObserver sees every output and the summary equal to CPython's, chart_ms: until its chart has also been
# drawn again (vega.js counts each finished draw in data-drawn; 0 for a calculator without a chart), frame_ms: until
# the browser has laid out and painted the frame that shows them (a task queued from the next animation frame runs
# after that frame's rendering), dispatched}.
# Throws if the outputs already show that result (nothing to see).
MEASURE_INPUT = """
async ([selector, value, want, timeout]) => {
  const root = document.querySelector(selector);
  const field = root.querySelector(`${selector}-intensity`);
  const outputs = Object.keys(want.outputs).map((key) => root.querySelector(`[data-output="${key}"] output`));
  const summary = root.querySelector(".calc-summary");
  const chart = root.querySelector(".calc-chart-view");
  const shows = () =>
    Object.values(want.outputs).every((text, i) => outputs[i]?.textContent === text) &&
    summary.textContent === want.summary;
  if (shows()) throw new Error(`${selector} already shows the result for ${value}`);
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
      reject(new Error(`${selector} did not show the result for ${value} within ${timeout} ms`));
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

# Logs when the page creates the calculators' worker and when each message from it arrives (progress stages, ready,
# the first result), to show where a cold first interaction spends its time. It only listens.
WORKER_SPY = """
(() => {
  const Native = window.Worker;
  window.__benchWorkerLog = [];
  window.Worker = class extends Native {
    constructor(url, options) {
      super(url, options);
      if (!String(url).includes("calculators/worker.js")) return;
      const log = (stage) => window.__benchWorkerLog.push([stage, performance.now()]);
      log("created");
      this.addEventListener("message", ({ data }) => {
        log(data.stage ?? data.type);
        if (data.stages) window.__benchWorkerStages = data.stages; // the worker's own clock, from its boot's start
        if (data.type === "result") window.__benchCalls.push(["received", performance.now(), data.ms]);
      });
      this.calculators = true;
    }
    postMessage(message, ...rest) {
      if (this.calculators && message?.type === "call") window.__benchCalls.push(["sent", performance.now()]);
      return super.postMessage(message, ...rest);
    }
  };
  window.__benchCalls = []; // ["sent", t] as a call leaves the page, ["received", t, ms in Python] as its result comes
})();
"""

# Whether one of the origin's runtime caches (sw.js's and the worker's, "calculators-runtime:...") holds `count` files.
RUNTIME_CACHED = """async (count) => {
  for (const name of await caches.keys()) {
    const kept = name.startsWith("calculators-runtime:") ? (await (await caches.open(name)).keys()).length : 0;
    if (kept >= count) return true;
  }
  return false;
}"""

# Wait until the page's service worker, if it registered one, is active (so its install has finished precaching),
# then a little longer for late requests.
SERVICE_WORKER_SETTLED = """
async ([timeout, quiet]) => {
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  const registered = await navigator.serviceWorker?.getRegistration();
  if (registered) await Promise.race([navigator.serviceWorker.ready, sleep(timeout)]);
  await sleep(quiet);
}
"""


def expected(intensity: str) -> dict[str, Any]:
    """What CPython's package shows for the first roofline calculator (the spec's defaults) at `intensity`."""
    result = run("roofline", {"intensity": intensity})
    if not result["ok"]:
        raise BenchError(f"roofline rejects intensity {intensity}: {result['errors']}")
    return {"outputs": {out["key"]: out["text"] for out in result["outputs"]}, "summary": result["summary"]}


def warm_values(count: int = WARM_INPUTS) -> list[str]:
    """`count` different intensities from 1 to 2000, evenly spread on a log scale, to 3 digits, in a fixed shuffle."""
    values = [f"{float(f'{2000 ** (i / (count - 1)):.3g}'):g}" for i in range(count)]
    if len(set(values)) != count or COLD_VALUE in values:
        raise BenchError(f"warm inputs are not all different: {values}")
    random.Random(0).shuffle(values)
    return values


@dataclass
class Visit:
    """One page in a fresh browser context (so an empty HTTP cache), and what it asked for."""

    page: Page
    base_url: str
    urls: list[str] = field(default_factory=list)  # every request, as routed
    finished: list[Request] = field(default_factory=list)
    workers: list[str] = field(default_factory=list)

    def open_calculators(self, path: str = ROOFLINE) -> None:
        """Go to `path` and wait until its first calculator is mounted (the component module is live)."""
        self.page.goto(self.base_url + path)
        self.page.locator(FIRST).scroll_into_view_if_needed()  # calculators mount as they near the screen
        self.page.wait_for_selector(f"{FIRST}[data-mounted]", state="attached")

    def change_intensity(self, value: str, timeout_ms: int) -> dict[str, float]:
        """{ms: from the input event to the new result on screen, dispatched: when, on the page's clock}."""
        result: dict[str, float] = self.page.evaluate(MEASURE_INPUT, [FIRST, value, expected(value), timeout_ms])
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
            result = build_site(ROOT / "mkdocs.yml", site, SITE_URL=base_url + "/", **env)
            if result.returncode != 0:
                raise BenchError(f"the book's strict build fails: {problems(result.stderr)}")
            shutil.copytree(STATIC, site / "__bench__")
            yield base_url, site


def boot_bare(page: Page) -> dict[str, float]:
    """On the bare-boot page: {page_ms: `new Worker` to the reply, worker_ms: the worker's start to booted, load_ms:
    loadPyodide alone}."""
    result: dict[str, float] = page.evaluate(
        """timeout => Promise.race([bootBare(), new Promise((_, reject) =>
            setTimeout(() => reject(new Error(`no bare boot within ${timeout} ms`)), timeout))])""",
        BOOT_TIMEOUT_MS,
    )
    return result


def boot_files(site: Path) -> list[str]:
    """What the calculators' worker downloads for a cold boot: Pyodide's scripts, wasm, standard library and lock
    file, the snapshot and the wheels."""
    pyodide = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
    assets = site / "assets" / "calculators"
    own = [path.name for path in sorted(assets.iterdir()) if path.name.startswith("snapshot-") or path.suffix == ".whl"]
    return [f"/assets/calculators/pyodide/{name}" for name in pyodide] + [f"/assets/calculators/{n}" for n in own]


def download_floor(lab: Lab, files: list[str]) -> dict[str, Any]:
    """T2's floor in a fresh context: `files` downloaded side by side, the snapshot decompressed as it arrives and the
    wasm compiled as it streams, nothing else; {page_ms: `new Worker` to the reply, ends: {file: ms}}."""
    with lab.visit() as visit:
        visit.page.goto(lab.base_url + BARE)
        result: dict[str, Any] = visit.page.evaluate("files => downloadFloor(files)", files)
        return result


def bare_boot(lab: Lab) -> dict[str, float]:
    """A bare boot in a fresh context (see boot_bare)."""
    with lab.visit() as visit:
        visit.page.goto(lab.base_url + BARE)
        return boot_bare(visit.page)


def first_interaction(visit: Visit) -> dict[str, Any]:
    """T2 on a fresh page: {ms, stages: when the calculators' worker was created and each of its messages arrived}.

    Stages are in ms since the input event, on the page's clock; a negative "created" means the idle boot had
    already started the worker.
    """
    visit.page.add_init_script(WORKER_SPY)
    return interaction_on_load(visit)


def interaction_on_load(visit: Visit) -> dict[str, Any]:
    """First interaction as in first_interaction, on a page that already has WORKER_SPY (a repeat visit)."""
    visit.open_calculators()
    measured = visit.change_intensity(COLD_VALUE, BOOT_TIMEOUT_MS)
    log: list[tuple[str, float]] = visit.page.evaluate("window.__benchWorkerLog")
    stages: dict[str, float] = {}
    for stage, at in log:
        stages.setdefault(stage, at - measured["dispatched"])
    boot: dict[str, float] = visit.page.evaluate("window.__benchWorkerStages ?? {}")
    return {"ms": measured["ms"], "stages": stages, "boot_stages": boot}


def recomputes(visit: Visit) -> list[dict[str, float]]:
    """T3 in a booted tab: one timed input event per warm value, each awaited before the next, with its stages (ms):
    input event to the call leaving the page, the worker's round trip, Python inside it, the result received to the
    outputs written, the outputs to the chart drawn, the chart drawn to the frame painted; `total`, the input event to
    outputs and chart; and `frame`, the input event to the frame that shows them painted."""
    samples = []
    visit.page.evaluate("window.__benchCalls.length = 0")
    for value in warm_values():
        measured = visit.change_intensity(value, WARM_TIMEOUT_MS)
        calls: list[list[float]] = visit.page.evaluate("window.__benchCalls.splice(0)")
        start = measured["dispatched"]
        sent = next(at for kind, at, *_ in calls if kind == "sent" and at >= start)
        received, python = next((at, rest[0]) for kind, at, *rest in calls if kind == "received" and at >= sent)
        samples.append(
            {
                "total": measured["chart_ms"],
                "outputs": measured["ms"],
                "frame": measured["frame_ms"],
                "input to call sent": sent - start,
                "worker round trip": received - sent,
                "Python in the worker": python,
                "result to outputs written": start + measured["ms"] - received,
                "outputs to chart drawn": measured["chart_ms"] - measured["ms"],
                "chart drawn to frame painted": measured["frame_ms"] - measured["chart_ms"],
            }
        )
    return samples


def navigation(lab: Lab) -> dict[str, float]:
    """T4: roofline (recompute) -> home by the logo -> roofline by the lesson's link (recompute)."""
    with lab.visit() as visit:
        page = visit.page
        visit.open_calculators()
        first = visit.change_intensity(COLD_VALUE, BOOT_TIMEOUT_MS)["ms"]
        page.click("a.md-header__button.md-logo")
        page.wait_for_url(lab.base_url + "/")
        page.click("article a[href$='roofline/']")
        page.wait_for_url(lab.base_url + ROOFLINE)
        page.locator(FIRST).scroll_into_view_if_needed()
        page.wait_for_selector(f"{FIRST}[data-mounted]", state="attached")
        back = visit.change_intensity("2", WARM_TIMEOUT_MS)["ms"]
        documents: int = page.evaluate("performance.getEntriesByType('navigation').length")
        workers = sum(1 for url in visit.workers if WORKER_SCRIPT in urlsplit(url).path)
        return {
            "workers": workers,
            "wasm_requests": visit.count(WASM),
            "documents": documents,
            "first_recompute_ms": first,
            "recompute_after_return_ms": back,
        }


def kind(path: str) -> str:
    """What a requested file is, for the byte counts: the plugin's own front end, a part of the runtime, or the rest."""
    if path == SERVICE_WORKER:
        return "plugin"
    if is_editor(path):
        return "editor"  # the exercises' CodeMirror and its entry module
    if not path.startswith(PLUGIN_ASSETS):
        return "page+theme"
    name = path.removeprefix(PLUGIN_ASSETS)
    if name.startswith(("pyodide/", "snapshot")):
        return "pyodide"  # Pyodide's core files and its memory snapshot
    if name.startswith("vega/"):
        return "vega"  # the vendored bundles (vega.js beside them is the plugin's own loader)
    if name.endswith(".whl"):
        return "wheel"
    if "/" not in name and name.endswith((".js", ".mjs", ".css")):
        return "plugin"
    return "other runtime"


def _network_bytes(request: Request) -> int | None:
    """Body bytes that came from the server; None for a response a service worker gave from its cache."""
    response = request.response()
    if response is None or response.from_service_worker:
        return None
    length = response.headers.get("content-length")
    return int(length) if length is not None else request.sizes()["responseBodySize"]


class Download(NamedTuple):
    path: str
    bytes: int
    by_service_worker: bool  # fetched by the page's service worker (precache, runtime cache), not by the page


def page_bytes(lab: Lab, path: str, *, recompute: bool) -> list[Download]:
    """Every response a fresh visit to `path` had the server send.

    After a recompute (with `recompute`), or else a quiet wait; either way once the network is idle and the page's
    service worker, if it registered one, is active (it has precached what it precaches at install).
    """
    with lab.visit() as visit:
        if recompute:
            visit.open_calculators(path)
            visit.change_intensity(COLD_VALUE, BOOT_TIMEOUT_MS)
        else:
            visit.page.goto(lab.base_url + path)
        visit.page.wait_for_load_state("networkidle")
        visit.page.evaluate(SERVICE_WORKER_SETTLED, [BOOT_TIMEOUT_MS, QUIET_MS])
        downloads = []
        for request in visit.finished:
            size = _network_bytes(request)
            if size is not None:
                downloads.append(Download(urlsplit(request.url).path, size, request.service_worker is not None))
        return downloads


def by_kind(downloads: list[Download]) -> dict[str, dict[str, int]]:
    """Bytes by kind of file, for the page's own requests and for its service worker's."""
    totals: dict[str, dict[str, int]] = {"page": {}, "service worker": {}}
    for download in downloads:
        side = totals["service worker" if download.by_service_worker else "page"]
        side[kind(download.path)] = side.get(kind(download.path), 0) + download.bytes
    return totals


def gzipped(site: Path, paths: list[str]) -> dict[str, int]:
    """Each site file's size gzip-compressed at level 9."""
    return {path: len(gzip.compress((site / path.lstrip("/")).read_bytes(), 9, mtime=0)) for path in paths}


def _boot_stages(cold: list[dict[str, Any]]) -> Figure:
    """Where the cold boot's time goes, inside the worker: the median of each stage's end over the rounds, in ms since
    the boot began (downloads run side by side, so stages overlap; the last one is the whole boot)."""
    names = [name for name in cold[-1]["boot_stages"] if all(name in sample["boot_stages"] for sample in cold)]
    ends = {name: median([sample["boot_stages"][name] for sample in cold]) for name in names}
    detail = ", ".join(f"{name} {at:,.0f}" for name, at in sorted(ends.items(), key=lambda item: item[1]))
    return Figure("T2", "cold boot by stage, inside the worker", None, ends.get("ready"), "ms", detail)


def runtime_cached(page: Page, files: int) -> None:
    """Wait until the page's service worker controls it and its runtime cache holds `files` files."""
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=BOOT_TIMEOUT_MS)
    deadline = time.monotonic() + BOOT_TIMEOUT_MS / 1000
    while not page.evaluate(RUNTIME_CACHED, files):
        if time.monotonic() > deadline:
            raise BenchError(f"the service worker did not cache the {files} runtime files within {BOOT_TIMEOUT_MS} ms")
        page.wait_for_timeout(250)


def repeat_visits(lab: Lab, site: Path) -> dict[str, list[Any]]:
    """T2 on a repeat visit, without routing so that Chromium's HTTP cache works as a reader's does. Bare: the
    bare-boot page, booted once, reloaded and booted again (Pyodide from the HTTP cache). Calculators: the roofline
    page, its first interaction, then (once the service worker has cached the runtime) the page opened again and its
    first interaction timed (the runtime from the service worker's cache)."""
    files = len(service_worker_manifest(site)["runtime"])
    bare: list[dict[str, float]] = []
    calculator: list[dict[str, Any]] = []
    for _ in range(REPEAT_RUNS):
        with lab.visit(routed=False) as visit:
            visit.page.goto(lab.base_url + BARE)
            boot_bare(visit.page)
            visit.page.reload()
            bare.append(boot_bare(visit.page))
        with lab.visit(routed=False) as visit:
            first_interaction(visit)
            runtime_cached(visit.page, files)
            calculator.append(interaction_on_load(visit))
        print(
            f"T2 repeat visit: bare boot {bare[-1]['page_ms']:.0f} ms; calculator {calculator[-1]['ms']:.0f} ms "
            f"(inside the worker: {', '.join(f'{k} {v}' for k, v in calculator[-1]['boot_stages'].items())})",
            flush=True,
        )
    return {"bare": bare, "calculator": calculator}


def _repeat(lab: Lab, site: Path, raw: dict[str, Any]) -> list[Figure]:
    repeat = raw["T2 repeat"] = repeat_visits(lab, site)
    bare_ms = median([sample["page_ms"] for sample in repeat["bare"]])
    cold_ms = median([sample["ms"] for sample in repeat["calculator"]])
    return [
        Figure(
            "T2",
            "repeat visit: first interaction / bare Pyodide boot",
            None,
            cold_ms / bare_ms,
            "x",
            f"calculator {cold_ms:,.0f} ms (runtime from the service worker's cache), bare boot {bare_ms:,.0f} ms "
            f"(from the HTTP cache), medians of {REPEAT_RUNS}",
        )
    ]


def _interaction(lab: Lab, site: Path, raw: dict[str, Any]) -> list[Figure]:
    """T2 (alternating bare boots, download floors and cold first interactions) and T3 (in the last cold tab, once
    booted)."""
    warm_up = bare_boot(lab)  # untimed: the browser's first worker and first wasm compile
    files = boot_files(site)
    bare: list[dict[str, float]] = []
    floor: list[dict[str, Any]] = []
    cold: list[dict[str, Any]] = []
    warm: list[dict[str, float]] = []
    for round_ in range(COLD_RUNS):
        bare.append(bare_boot(lab))
        floor.append(download_floor(lab, files))
        with lab.visit() as visit:
            cold.append(first_interaction(visit))
            if round_ == COLD_RUNS - 1:
                # Warm: the service worker has also cached the runtime (on a first visit it downloads and stores
                # the rest of it in the background, which on 2 cores competes with everything the page does).
                runtime_cached(visit.page, len(service_worker_manifest(site)["runtime"]))
                warm = recomputes(visit)
        stages = ", ".join(f"{stage} {at:.0f}" for stage, at in cold[-1]["stages"].items())
        boot = ", ".join(f"{stage} {at:.0f}" for stage, at in cold[-1]["boot_stages"].items())
        print(
            f"T2 round {round_ + 1}: bare boot {bare[-1]['page_ms']:.0f} ms (loadPyodide {bare[-1]['load_ms']:.0f}); "
            f"download floor {floor[-1]['page_ms']:.0f} ms; "
            f"calculator {cold[-1]['ms']:.0f} ms (worker events, ms after the input: {stages}; "
            f"inside the worker, ms after its boot began: {boot})",
            flush=True,
        )
    totals = [sample["total"] for sample in warm]
    print(f"T3 recomputes, ms: {', '.join(f'{ms:.1f}' for ms in totals)}", flush=True)
    raw["T2"] = {"bare_warm_up": warm_up, "bare": bare, "download_floor": floor, "calculator": cold}
    raw["T3"] = {"samples": warm}
    by_stage = {stage: [s[stage] for s in warm] for stage in warm[0] if stage not in ("total", "outputs", "frame")}
    frames = [sample["frame"] for sample in warm]
    stages = ", ".join(f"{stage} {median(ms):.1f} / {percentile(ms, 95):.1f}" for stage, ms in by_stage.items())
    bare_ms = median([sample["page_ms"] for sample in bare])
    cold_ms = median([sample["ms"] for sample in cold])
    floor_ms = median([sample["page_ms"] for sample in floor])
    ends = {name: median([sample["ends"][name] for sample in floor]) for name in floor[-1]["ends"]}
    return [
        Figure(
            "T2",
            "cold first interaction / bare Pyodide boot",
            0.25,
            cold_ms / bare_ms,
            "x",
            f"calculator {cold_ms:,.0f} ms, bare boot {bare_ms:,.0f} ms (medians of {COLD_RUNS})",
        ),
        _boot_stages(cold),
        Figure(
            "T2",
            "floor: the boot's downloads and wasm compile alone / bare boot",
            None,
            floor_ms / bare_ms,
            "x",
            f"{floor_ms:,.0f} ms, median of {COLD_RUNS}; each done at (ms): "
            + ", ".join(f"{name} {ms:.0f}" for name, ms in sorted(ends.items(), key=lambda item: item[1])),
        ),
        Figure(
            "T3",
            "warm recompute to outputs and chart, median",
            16,
            median(totals),
            "ms",
            f"{len(warm)} inputs, intensity 1 to 2000; outputs alone {median([s['outputs'] for s in warm]):.1f} ms",
        ),
        Figure("T3", "warm recompute, 95th percentile", 33, percentile(totals, 95), "ms", f"max {max(totals):.1f} ms"),
        Figure("T3", "warm recompute by stage (median / p95 of each)", None, median(totals), "ms", stages),
        Figure(
            "T3",
            "warm recompute to the frame painted, median",
            None,
            median(frames),
            "ms",
            f"p95 {percentile(frames, 95):.1f} ms; includes the wait for the next frame (up to 16.7 ms at 60 Hz)",
        ),
    ]


def _navigation(lab: Lab, raw: dict[str, Any]) -> list[Figure]:
    nav = raw["T4"] = navigation(lab)
    print(f"T4: {nav}", flush=True)
    return [
        Figure(
            "T4",
            "calculator workers, roofline -> home -> roofline",
            1,
            nav["workers"],
            detail=f"documents loaded: {nav['documents']:g} (1 = instant navigation)",
            exact=True,
        ),
        Figure("T4", "pyodide.asm.wasm requests, same navigation", 1, nav["wasm_requests"], exact=True),
    ]


def _bytes(lab: Lab, site: Path, raw: dict[str, Any]) -> list[Figure]:
    home = page_bytes(lab, "/", recompute=False)
    roofline = page_bytes(lab, ROOFLINE, recompute=True)
    exercises = page_bytes(lab, EXERCISES, recompute=False)
    print(f"T5 bytes by kind, home: {by_kind(home)}", flush=True)
    print(f"T5 bytes by kind, roofline after a recompute: {by_kind(roofline)}", flush=True)
    print(f"T5 bytes by kind, exercises: {by_kind(exercises)}", flush=True)
    # What every page costs: the plugin's files the page itself asks for, and the service worker's script.
    own = {d.path for d in home if kind(d.path) == "plugin" and (not d.by_service_worker or d.path == SERVICE_WORKER)}
    always_loaded = gzipped(site, sorted(own))
    runtime_on_home = [d for d in home if kind(d.path) in RUNTIME_KINDS]
    by_worker = sum(d.bytes for d in home if d.by_service_worker)
    raw["T5"] = {
        "always_loaded_gzip_bytes": always_loaded,
        "home": {"by_kind": by_kind(home), "downloads": [d._asdict() for d in home]},
        "roofline_after_recompute": {"by_kind": by_kind(roofline), "downloads": [d._asdict() for d in roofline]},
        "exercises": {"by_kind": by_kind(exercises), "downloads": [d._asdict() for d in exercises]},
    }
    editor_files = sorted(
        "/" + path.relative_to(site).as_posix()
        for path in site.rglob("*.js")
        if is_editor("/" + path.relative_to(site).as_posix())
    )
    editor = editor_figures(
        [(d.path, d.bytes) for d in home],
        [(d.path, d.bytes) for d in exercises if not d.by_service_worker],
        gzipped(site, editor_files),
    )
    return [
        Figure(
            "T5",
            "plugin's always-loaded JS + CSS, gzip -9",
            20,
            sum(always_loaded.values()) / 1000,
            "kB",
            ", ".join(f"{Path(path).name} {size:,} B" for path, size in always_loaded.items()) or "none loaded",
        ),
        Figure(
            "T5",
            "Pyodide and Vega bytes, home page",
            0,
            sum(d.bytes for d in runtime_on_home),
            "B",
            f"{len(runtime_on_home)} requests; home page {sum(d.bytes for d in home):,} B in all, "
            f"{by_worker:,} B of it by its service worker",
        ),
        *editor,
    ]


def _without_snapshot(raw: dict[str, Any]) -> list[Figure]:
    """T2 again on a build with no memory snapshot (CALCULATORS_SNAPSHOT=false): the plain boot it falls back to."""
    with served_book(CALCULATORS_SNAPSHOT="false") as (base_url, _), sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        lab = Lab(browser, base_url)
        bare, cold = [], []
        for _ in range(COLD_RUNS):
            bare.append(bare_boot(lab)["page_ms"])
            with lab.visit() as visit:
                cold.append(first_interaction(visit)["ms"])
        browser.close()
    raw["T2_without_snapshot"] = {"bare_ms": bare, "calculator_ms": cold}
    print(f"T2 without the snapshot: bare {bare}, calculator {cold}", flush=True)
    ratio = median(cold) / median(bare)
    detail = f"calculator {median(cold):,.0f} ms, bare boot {median(bare):,.0f} ms (medians of {COLD_RUNS})"
    return [Figure("T2", "same, built without the memory snapshot", 0.25, ratio, "x", detail)]


def _pages(base_url: str, site: Path, raw: dict[str, Any]) -> list[Figure]:
    """T7 on every page of the book, each beside the same page of the book built without the plugin."""
    with served_book(CALCULATORS_ENABLED="false", MISSING_PAGES="info") as (plain_url, plain_site):
        return lighthouse(base_url, plain_url, book_pages(site), set(book_pages(plain_site)), raw)


def measure_browser() -> tuple[list[Figure], dict[str, Any]]:
    """T2-T5 and R3 in one browser against one served build; raw: every sample, request and page error."""
    # Playwright sees (and routes) a service worker's own requests only when this is set before its driver starts;
    # without it, what a service worker downloads would escape T4's count, T5's bytes and R3's check.
    os.environ["PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS"] = "1"
    raw: dict[str, Any] = {}

    def session() -> list[Figure]:
        with served_book() as (base_url, site), sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
            lab = Lab(browser, base_url)
            raw["chromium"] = browser.version
            figures = [
                *guarded("T2 T3", "cold first interaction, warm recompute", lambda: _interaction(lab, site, raw)),
                *guarded("T2", "repeat visit", lambda: _repeat(lab, site, raw)),
                *guarded("T4", "instant navigation roofline -> home -> roofline", lambda: _navigation(lab, raw)),
                *guarded("T5", "bytes of the home and roofline pages", lambda: _bytes(lab, site, raw)),
                *guarded(
                    "T7", "Lighthouse on every page, beside its plugin-free twin", lambda: _pages(base_url, site, raw)
                ),
            ]
            browser.close()
        figures += guarded("T2", "cold first interaction without the snapshot", lambda: _without_snapshot(raw))
        raw["R3"] = {"foreign_requests": lab.foreign}
        raw["page_errors"] = lab.errors
        print(f"R3 foreign requests: {lab.foreign}; page errors: {lab.errors}", flush=True)
        return [
            *figures,
            Figure("R3", "requests to hosts other than 127.0.0.1", 0, len(lab.foreign), detail="all pages"),
        ]

    return guarded("T2-T5 R3", "the book in Chromium", session), raw
