"""T2-T5 and R3 in Chromium: the book, built strictly and served on 127.0.0.1, driven the way a reader would."""

from __future__ import annotations

import os
import random
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from playwright.sync_api import Page, sync_playwright

from bench.figures import BenchError, Figure, guarded, median, percentile
from bench.lab import (
    BARE,
    BOOT_TIMEOUT_MS,
    COLD_VALUE,
    FIRST,
    ROOFLINE,
    WARM_TIMEOUT_MS,
    WASM,
    WORKER_SCRIPT,
    Lab,
    Visit,
    served_book,
)
from bench.lighthouse import book_pages, lighthouse
from bench.page_bytes import measure_bytes
from tests.browser.conftest import CHROMIUM, READER_CHROMIUM_ARGS
from tests.support import service_worker_manifest

__all__ = ["ALL", "measure_browser"]

ALL = frozenset({"T2", "T3", "T4", "T5", "T6", "T7"})  # the figures `make bench` measures (R3 comes with any of them)

COLD_RUNS = 3
REPEAT_RUNS = 3
WARM_INPUTS = 60
FIRST_INPUTS = 15  # a reader's first drag after the boot: V8 has not yet optimised the code it runs (T3)

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


def warm_values(count: int = WARM_INPUTS) -> list[str]:
    """`count` different intensities from 1 to 2000, evenly spread on a log scale, to 3 digits, in a fixed shuffle."""
    values = [f"{float(f'{2000 ** (i / (count - 1)):.3g}'):g}" for i in range(count)]
    if len(set(values)) != count or COLD_VALUE in values:
        raise BenchError(f"warm inputs are not all different: {values}")
    random.Random(0).shuffle(values)
    return values


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


@dataclass(frozen=True)
class Recompute:
    """A calculator with a chart, as T3 times it: its page, its selector there, the field changed and the values put
    in it, one after the other (each gives other outputs than the one before)."""

    name: str
    page: str
    selector: str
    field: str
    values: tuple[str, ...]


def spread(low: float, high: float, count: int, *, whole: bool = False, seed: int = 0) -> tuple[str, ...]:
    """`count` different values from `low` to `high`, evenly spread on a log scale (to 3 digits, or whole numbers),
    in a fixed shuffle."""
    values = [low * (high / low) ** (i / (count - 1)) for i in range(count)]
    texts = [str(round(value)) if whole else f"{float(f'{value:.3g}'):g}" for value in values]
    if len(set(texts)) != count:
        raise BenchError(f"values to put in are not all different: {texts}")
    random.Random(seed).shuffle(texts)
    return tuple(texts)


# The roofline first (its page is the one the cold tab has open, its intensity at COLD_VALUE), then three calculators
# whose charts differ from it: lines over a batch, bars of a cache's size by kind, a collective's time over sizes.
INFERENCE = "/lessons/inference-at-scale/"
RECOMPUTES = (
    Recompute("roofline", ROOFLINE, FIRST, "intensity", tuple(warm_values())),
    Recompute("latency-throughput", INFERENCE, "#calc-1", "batch", spread(10, 300, 30, whole=True)),
    Recompute("kv-cache", INFERENCE, "#calc-3", "layers", spread(10, 200, 30, whole=True)),
    Recompute("collective", "/lessons/parallelism/", "#calc-1", "size_mb", spread(0.01, 10_000, 30)),
)


def recomputes(visit: Visit, calculator: Recompute) -> tuple[list[dict[str, float]], list[dict[str, float]]]:
    """T3 in a booted tab: (the first inputs, the warm ones), one timed input event per value, each awaited before
    the next, with its stages (see `recompute`). On another page than the tab's, the page is opened first and one
    untimed input boots its worker. Then FIRST_INPUTS inputs, as a reader's first drag makes them while V8 is still
    optimising the code they run (the worker's wasm, Vega's dataflow); the warm ones follow, as a reader who keeps
    dragging gets them. (Warming the worker up with calls of its own at boot did not shorten the first inputs: its
    optimising compiles then ran beside them.)"""
    if urlsplit(visit.page.url).path != calculator.page:
        visit.open_calculators(calculator.page, calculator.selector)
        visit.change(
            calculator.selector, calculator.field, "1" if calculator.values[-1] != "1" else "2", BOOT_TIMEOUT_MS
        )
    first = [recompute(visit, calculator, value) for value in calculator.values[: -FIRST_INPUTS - 1 : -1]]
    return first, [recompute(visit, calculator, value) for value in calculator.values]


def recompute(visit: Visit, calculator: Recompute, value: str) -> dict[str, float]:
    """One input event, timed: its stages (ms): input event to the call leaving the page, the worker's round trip,
    Python inside it, the result received to the outputs written, the outputs to the chart drawn, the chart drawn to
    the frame painted; `total`, the input event to outputs and chart; and `frame`, the input event to the frame that
    shows them painted."""
    visit.page.evaluate("window.__benchCalls.length = 0")
    measured = visit.change(calculator.selector, calculator.field, value, WARM_TIMEOUT_MS)
    calls: list[list[Any]] = visit.page.evaluate("window.__benchCalls.splice(0)")
    start = measured["dispatched"]
    sent = next(at for kind, at, *_ in calls if kind == "sent" and at >= start)
    received, python = next((at, rest[0]) for kind, at, *rest in calls if kind == "received" and at >= sent)
    return {
        "total": measured["chart_ms"],
        "outputs": measured["ms"],
        "frame": measured["frame_ms"],
        "calls": sum(1 for kind, *_ in calls if kind == "sent"),
        "input to call sent": sent - start,
        "worker round trip": received - sent,
        "Python in the worker": python,
        "result to outputs written": start + measured["ms"] - received,
        "outputs to chart drawn": measured["chart_ms"] - measured["ms"],
        "chart drawn to frame painted": measured["frame_ms"] - measured["chart_ms"],
    }


def recompute_figures(name: str, first: list[dict[str, float]], samples: list[dict[str, float]]) -> list[Figure]:
    """T3 for one calculator: the input event to outputs and chart drawn, median and 95th percentile, each stage's,
    the input event to the frame painted, and the first inputs after the boot."""
    totals = [sample["total"] for sample in samples]
    frames = [sample["frame"] for sample in samples]
    stages = [stage for stage in samples[0] if stage not in ("total", "outputs", "frame", "calls")]
    by_stage = ", ".join(
        f"{stage} {median([s[stage] for s in samples]):.1f} / {percentile([s[stage] for s in samples], 95):.1f}"
        for stage in stages
    )
    outputs = median([sample["outputs"] for sample in samples])
    return [
        Figure(
            "T3",
            f"{name}: warm recompute to outputs and chart, median",
            8,
            median(totals),
            "ms",
            f"{len(samples)} inputs; outputs alone {outputs:.1f} ms; calls {sum(s['calls'] for s in samples):g}",
        ),
        Figure(
            "T3",
            f"{name}: warm recompute, 95th percentile",
            16.7,
            percentile(totals, 95),
            "ms",
            f"max {max(totals):.1f} ms",
        ),
        Figure("T3", f"{name}: by stage (median / p95 of each)", None, median(totals), "ms", by_stage),
        Figure(
            "T3",
            f"{name}: warm recompute to the frame painted, median",
            None,
            median(frames),
            "ms",
            f"p95 {percentile(frames, 95):.1f} ms; includes the wait for the next frame (up to 16.7 ms at 60 Hz)",
        ),
        Figure(
            "T3",
            f"{name}: the first {len(first)} inputs after the boot, median",
            None,
            median([sample["total"] for sample in first]),
            "ms",
            f"p95 {percentile([sample['total'] for sample in first], 95):.1f} ms; Python in the worker "
            f"{median([s['Python in the worker'] for s in first]):.1f} / "
            f"{percentile([s['Python in the worker'] for s in first], 95):.1f}",
        ),
    ]


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


def boot_spans(sample: dict[str, Any]) -> dict[str, float]:
    """A first interaction's time from the worker's creation to the result, in stages (ms): the worker's start (its
    script loaded, to its first message), the downloads until the last the boot waits for is in (the wasm compiled,
    the snapshot decompressed, the wheels), the work after them (the module instantiated, the memory restored, the
    wheels installed, the package imported), and the first call."""
    page, worker = sample["stages"], sample["boot_stages"]
    downloads = max(worker[name] for name in BOOT_DOWNLOADS if name in worker)
    return {
        "worker start": page["runtime"] - page["created"],
        "downloads and compile": downloads,
        "after them": worker["ready"] - downloads,
        "first call": page["result"] - page["ready"],
    }


# The boot's stages that end its downloads (worker.js's marks): the work after them needs all of them.
BOOT_DOWNLOADS = ("wasm compiled", "snapshot decompressed", "wheels downloaded")


def stage_floors(cold: list[dict[str, Any]], floor: list[dict[str, Any]], repeat: list[dict[str, Any]]) -> Figure:
    """T2 stage by stage against each stage's floor: the downloads and compile against the floor page's (the same
    files, nothing else running), every other stage against a repeat visit's (the runtime from the service worker's
    cache, so that its stages run with nothing to wait for). The measured figure is the boot's floor, the sum of
    the stages' floors, against the cold boot (from the worker's creation to the result), medians of each."""
    spans = [boot_spans(sample) for sample in cold]
    again = [boot_spans(sample) for sample in repeat]
    measured = {stage: median([span[stage] for span in spans]) for stage in spans[0]}
    floors = {stage: median([span[stage] for span in again]) for stage in again[0]}
    floors["downloads and compile"] = median([sample["page_ms"] for sample in floor])
    boot, least = sum(measured.values()), sum(floors.values())
    detail = ", ".join(
        f"{stage} {measured[stage]:,.0f} against {floors[stage]:,.0f} ({measured[stage] / floors[stage]:.2f}x)"
        for stage in measured
    )
    return Figure(
        "T2",
        "cold boot against the floor of each of its stages",
        None,
        boot / least,
        "x",
        f"{boot:,.0f} ms against {least:,.0f} ms: {detail}",
    )


def _repeat(lab: Lab, site: Path, raw: dict[str, Any]) -> list[Figure]:
    repeat = raw["T2 repeat"] = repeat_visits(lab, site)
    bare_ms = median([sample["page_ms"] for sample in repeat["bare"]])
    cold_ms = median([sample["ms"] for sample in repeat["calculator"]])
    cold = raw.get("T2", {})
    floors = (
        [stage_floors(cold["calculator"], cold["download_floor"], repeat["calculator"])]
        if cold.get("calculator") and cold.get("download_floor")
        else []
    )
    return [
        *floors,
        Figure(
            "T2",
            "repeat visit: first interaction / bare Pyodide boot",
            None,
            cold_ms / bare_ms,
            "x",
            f"calculator {cold_ms:,.0f} ms (runtime from the service worker's cache), bare boot {bare_ms:,.0f} ms "
            f"(from the HTTP cache), medians of {REPEAT_RUNS}",
        ),
    ]


def _interaction(lab: Lab, site: Path, raw: dict[str, Any], *, t2: bool = True, t3: bool = True) -> list[Figure]:
    """T2 (alternating bare boots, download floors and cold first interactions) and T3 (in the last cold tab, once
    booted, for each of RECOMPUTES). Without `t2`, one cold first interaction boots the tab for T3, untimed; without
    `t3`, no recompute is timed."""
    if t2:
        raw["T2"] = {"bare_warm_up": bare_boot(lab)}  # untimed: the browser's first worker and first wasm compile
    files = boot_files(site)
    bare: list[dict[str, float]] = []
    floor: list[dict[str, Any]] = []
    cold: list[dict[str, Any]] = []
    warm: dict[str, list[dict[str, float]]] = {}
    first: dict[str, list[dict[str, float]]] = {}
    rounds = COLD_RUNS if t2 else 1
    for round_ in range(rounds):
        if t2:
            bare.append(bare_boot(lab))
            floor.append(download_floor(lab, files))
        with lab.visit() as visit:
            cold.append(first_interaction(visit))
            if t3 and round_ == rounds - 1:
                # Warm: the service worker has also cached the runtime (on a first visit it downloads and stores
                # the rest of it in the background, which on 2 cores competes with everything the page does).
                runtime_cached(visit.page, len(service_worker_manifest(site)["runtime"]))
                for calculator in RECOMPUTES:
                    first[calculator.name], warm[calculator.name] = recomputes(visit, calculator)
                    totals = ", ".join(f"{sample['total']:.1f}" for sample in warm[calculator.name])
                    print(f"T3 {calculator.name} recomputes, ms: {totals}", flush=True)
        if not t2:
            continue
        stages = ", ".join(f"{stage} {at:.0f}" for stage, at in cold[-1]["stages"].items())
        boot = ", ".join(f"{stage} {at:.0f}" for stage, at in cold[-1]["boot_stages"].items())
        print(
            f"T2 round {round_ + 1}: bare boot {bare[-1]['page_ms']:.0f} ms (loadPyodide {bare[-1]['load_ms']:.0f}); "
            f"download floor {floor[-1]['page_ms']:.0f} ms; "
            f"calculator {cold[-1]['ms']:.0f} ms (worker events, ms after the input: {stages}; "
            f"inside the worker, ms after its boot began: {boot})",
            flush=True,
        )
    figures: list[Figure] = []
    if t2:
        raw["T2"].update({"bare": bare, "download_floor": floor, "calculator": cold})
        figures += _cold_figures(bare, floor, cold)
    if t3:
        raw["T3"] = {"samples": warm, "first": first}
        for name, samples in warm.items():
            figures += recompute_figures(name, first[name], samples)
    return figures


def _cold_figures(
    bare: list[dict[str, float]], floor: list[dict[str, Any]], cold: list[dict[str, Any]]
) -> list[Figure]:
    """T2: the cold first interaction against the bare boot, by stage, and the floor."""
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
            "T2",
            "cold first interaction / floor",
            1.03,
            cold_ms / floor_ms,
            "x",
            f"calculator {cold_ms:,.0f} ms, floor {floor_ms:,.0f} ms (medians of {COLD_RUNS})",
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


def _without_snapshot(raw: dict[str, Any]) -> list[Figure]:
    """T2 again on a build with no memory snapshot (CALCULATORS_SNAPSHOT=false): the plain boot it falls back to."""
    with served_book(CALCULATORS_SNAPSHOT="false") as (base_url, _), sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=READER_CHROMIUM_ARGS, headless=True)
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


def measure_browser(only: frozenset[str] = ALL) -> tuple[list[Figure], dict[str, Any]]:
    """T2-T5, T7 and R3 (those of them in `only`; R3 always, over whatever ran) in one browser against one served
    build; raw: every sample, request and page error."""
    # Playwright sees (and routes) a service worker's own requests only when this is set before its driver starts;
    # without it, what a service worker downloads would escape T4's count, T5's bytes and R3's check.
    os.environ["PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS"] = "1"
    raw: dict[str, Any] = {}

    def session() -> list[Figure]:
        with served_book() as (base_url, site), sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=READER_CHROMIUM_ARGS, headless=True)
            lab = Lab(browser, base_url)
            raw["chromium"] = browser.version
            t2, t3 = "T2" in only, "T3" in only
            figures: list[Figure] = []
            if t2 or t3:
                figures += guarded(
                    "T2 T3",
                    "cold first interaction, warm recompute",
                    lambda: _interaction(lab, site, raw, t2=t2, t3=t3),
                )
            if t2:
                figures += guarded("T2", "repeat visit", lambda: _repeat(lab, site, raw))
            if "T4" in only:
                figures += guarded(
                    "T4", "instant navigation roofline -> home -> roofline", lambda: _navigation(lab, raw)
                )
            if "T5" in only:
                figures += guarded("T5", "bytes of the home and roofline pages", lambda: measure_bytes(lab, site, raw))
            if "T7" in only:
                figures += guarded(
                    "T7", "Lighthouse on every page, beside its plugin-free twin", lambda: _pages(base_url, site, raw)
                )
            browser.close()
        if t2:
            figures += guarded("T2", "cold first interaction without the snapshot", lambda: _without_snapshot(raw))
        raw["R3"] = {"foreign_requests": lab.foreign}
        raw["page_errors"] = lab.errors
        print(f"R3 foreign requests: {lab.foreign}; page errors: {lab.errors}", flush=True)
        return [
            *figures,
            Figure("R3", "requests to hosts other than 127.0.0.1", 0, len(lab.foreign), detail="all pages"),
        ]

    return guarded("T2-T5 R3", "the book in Chromium", session), raw
