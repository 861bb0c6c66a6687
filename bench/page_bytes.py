"""T5: what a visit to a page has the server send, by kind of file (the plugin's own front end, Pyodide, Vega, the
wheels, the editor, the page and theme), and the plugin's always-loaded files compressed."""

from __future__ import annotations

import gzip
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import urlsplit

from playwright.sync_api import Request

from bench.figures import Figure, editor_figures, is_editor
from bench.lab import BOOT_TIMEOUT_MS, COLD_VALUE, EXERCISES, PLUGIN_ASSETS, ROOFLINE, SERVICE_WORKER, Lab

__all__ = ["measure_bytes"]

RUNTIME_KINDS = ("pyodide", "vega", "wheel", "other runtime")
QUIET_MS = 1_500  # how long a page is watched for late requests, after the network is idle

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


def kind(path: str) -> str:
    """What a requested file is, for the byte counts: the plugin's own front end, a part of the runtime, or the rest."""
    if path == SERVICE_WORKER:
        return "plugin"
    if is_editor(path):
        return "editor"  # the exercises' CodeMirror and its entry module
    if not path.startswith(PLUGIN_ASSETS):
        return "page+theme"
    name = path.removeprefix(PLUGIN_ASSETS)
    if name.startswith("pyodide/") or (name.endswith(".bin") and "snapshot-" in name):
        return "pyodide"  # Pyodide's core files and its memory snapshots (snapshot_bytes.js is the plugin's own)
    if name.startswith("katex/"):
        return "math"  # KaTeX's stylesheet and fonts, for the formulas typeset at build
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
    # The page asked for this file, whoever fetched it: the page itself, or its service worker on the page's behalf
    # (a page the worker controls gets its answer from the worker, which fetched and kept it).
    asked_by_page: bool


def page_bytes(lab: Lab, path: str, *, recompute: bool = False, reach: str = "") -> list[Download]:
    """Every response a fresh visit to `path` had the server send.

    After a recompute (with `recompute`), or after reaching for the first element that `reach` selects (scrolled to,
    then the pointer over it, as a reader reaches for an exercise, which then loads its editor), or else after a quiet
    wait; in each case once the network is
    idle and the page's service worker, if it registered one, is active (it has precached what it precaches at
    install).
    """
    with lab.visit() as visit:
        if recompute:
            visit.open_calculators(path)
            visit.change_intensity(COLD_VALUE, BOOT_TIMEOUT_MS)
        else:
            visit.page.goto(lab.base_url + path)
        if reach:
            # Once the page's script has made it live (a pointer already over it before then is not seen arriving:
            # make bench's T5 once found no editor file), scrolled into view, then the pointer over it.
            target = visit.page.locator(f"{reach}[data-mounted]").first
            target.wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)
            target.hover()
        visit.page.wait_for_load_state("networkidle")
        visit.page.evaluate(SERVICE_WORKER_SETTLED, [BOOT_TIMEOUT_MS, QUIET_MS])
        asked = {urlsplit(request.url).path for request in visit.finished if request.service_worker is None}
        downloads = []
        for request in visit.finished:
            size = _network_bytes(request)
            if size is not None:
                where = urlsplit(request.url).path
                downloads.append(Download(where, size, request.service_worker is not None, where in asked))
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


def measure_bytes(lab: Lab, site: Path, raw: dict[str, Any]) -> list[Figure]:
    home = page_bytes(lab, "/")
    roofline = page_bytes(lab, ROOFLINE, recompute=True)
    exercises = page_bytes(lab, EXERCISES, reach="[data-exercise]")  # the editor loads as it is reached for
    print(f"T5 bytes by kind, home: {by_kind(home)}", flush=True)
    print(f"T5 bytes by kind, roofline after a recompute: {by_kind(roofline)}", flush=True)
    print(f"T5 bytes by kind, exercises, one reached: {by_kind(exercises)}", flush=True)
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
        list({d.path: d.bytes for d in exercises if d.asked_by_page}.items()),  # once each, whoever fetched it
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
