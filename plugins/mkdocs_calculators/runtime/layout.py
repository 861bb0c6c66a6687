"""The runtime's layout in the built site, in one place: where the plugin's files go, which files of the npm packages
are vendored, which the worker fetches itself, what the snapshot's key covers, the caches' names, and the build values
that the browser scripts import (BuildInfo, written as the module BUILD_INFO).

site.py writes the files, service_worker.py lists them for sw.js, snapshot.py keys the memory snapshot on them.
The browser scripts repeat none of these names: the files Pyodide fetches and the caches' names reach worker.js through
BUILD_INFO, and service_worker.js through the manifest written into sw.js (runtime/service_worker.py).
"""

from __future__ import annotations

from typing import TypedDict

__all__ = [
    "ASSETS",
    "BUILD_INFO",
    "EDITOR_DIR",
    "ENTRY_SCRIPT",
    "KINDS_MODULE",
    "PAGES_CACHE_PREFIX",
    "RUNTIME_CACHE_PREFIX",
    "SERVICE_WORKER",
    "SNAPSHOT_INPUTS",
    "STRINGS_MODULE",
    "STYLESHEET",
    "VENDORED",
    "WORKER_FETCHES",
    "BookStrings",
    "BuildInfo",
]

ASSETS = "assets/calculators"  # under the site's root: the plugin's scripts, styles, wheels, snapshot and runtime
ENTRY_SCRIPT = f"{ASSETS}/entry.js"  # on every page
STYLESHEET = f"{ASSETS}/calculators.css"  # on every page: calculators' and quizzes' styles, written as one file
# Under node_modules: what builds keep for the next one (snapshots, typeset math, checked chart shapes, digests).
NODE_CACHE = ".cache/mkdocs-calculators"
SERVICE_WORKER = "sw.js"  # at the site's root, so that its scope is the whole site
EDITOR_DIR = "editor"  # under ASSETS: CodeMirror, for exercises

# Files of the npm packages copied into the site: Pyodide's core into pyodide/, Vega's builds into vega/.
VENDORED = {
    "pyodide": ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"),
    "vega": ("vega/build/vega.min.js", "vega-lite/build/vega-lite.min.js", "vega-embed/build/vega-embed.min.js"),
}
# The ones Pyodide fetches itself in the worker (paths under ASSETS), the wasm first: worker.js checks and caches them,
# and compiles the wasm while the rest downloads.
WORKER_FETCHES = tuple(f"pyodide/{name}" for name in ("pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"))
# The Pyodide files whose identity a snapshot's key covers besides the version and build id (cheap: their sizes).
SNAPSHOT_INPUTS = ("pyodide.asm.wasm", "pyodide.asm.mjs", "python_stdlib.zip", "pyodide.mjs")

# The caches the service worker and worker.js share, each followed by the site's address (its scope).
PAGES_CACHE_PREFIX = "calculators-pages:"  # then the scope, ':' and the manifest's version
RUNTIME_CACHE_PREFIX = "calculators-runtime:"  # then the scope

# The build's values, in one generated ES module under ASSETS that the browser's scripts import (worker.js,
# exercise_worker.js, runtime.js, offline.js; entry.js, a classic script, with import()). The service worker has its
# own: the manifest written into sw.js (runtime/service_worker.py), which changes sw.js with every build.
BUILD_INFO = "build-info.js"
# The plugin's words for readers in the book's language (BookStrings): a module of their own, which only the blocks'
# scripts import (assets/i18n.js), so that a page without blocks, whose entry.js imports build-info.js, does not
# download them.
STRINGS_MODULE = "strings.js"
# entry.js's mount table, from the registered block kinds (runtime.mount_table): another generated module under ASSETS,
# which changes only with the kinds (build-info.js changes with every build).
KINDS_MODULE = "kinds.js"


class BuildInfo(TypedDict):
    """What BUILD_INFO exports, one `export const` each; assets/build-info.d.ts declares it for the type check."""

    wheels: list[str]  # the wheels the worker installs, in order: calckit's first (the exercises' worker takes it
    # alone), the book's last
    bookPackage: str  # the book's package, which calckit is told to use
    snapshot: str  # the memory snapshot's file name, or "" (runtime/snapshot.py)
    snapshotFor: str  # what it was made with: "<Pyodide version> <wheel> <wheel>"
    exerciseSnapshot: str  # the exercise worker's memory snapshot's file name (calckit's exercise runner alone), or ""
    exerciseSnapshotFor: str  # what it was made with: "<Pyodide version> <calckit's wheel>"
    cached: dict[str, str]  # {file: content hash} for the files the worker fetches itself, {} without a service worker
    missing: list[str]  # modules the package imports that the browser lacks (a build that is not strict)
    serviceWorker: str  # sw.js's path from the site's root, or "" (mkdocs serve: none)
    timeLimit: float  # seconds for one call of the book's code
    pyodideFiles: list[
        str
    ]  # the files Pyodide fetches itself, relative to the scripts, the wasm first (WORKER_FETCHES)
    runtimeCache: str  # the runtime cache's name, less the site's address that follows it (RUNTIME_CACHE_PREFIX)


class BookStrings(TypedDict):
    """What STRINGS_MODULE exports, one `export const` each; assets/strings.d.ts declares it for the type check."""

    language: str  # the book's language, as the host's theme.language gives it (i18n/)
    strings: dict[str, str | dict[str, str]]  # the plugin's words for readers in that language, by key: a text with
    # {name} placeholders, or its plural forms by CLDR category (assets/i18n.js looks them up)
