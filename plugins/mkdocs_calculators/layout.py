"""The runtime's layout in the built site, in one place: where the plugin's files go, which files of the npm packages
are vendored, which the worker fetches itself, what the snapshot's key covers, the caches' names, and the build values
written into the browser scripts.

runtime.py writes the files, service_worker.py lists them for sw.js, snapshot.py keys the memory snapshot on them.
The browser scripts repeat a few of these names (worker.js's PYODIDE_FILES, the caches' prefixes in worker.js and
service_worker.js); each such line says "as in layout.py", and tests/build/test_runtime.py checks that they agree.
"""

from __future__ import annotations

__all__ = [
    "ASSETS",
    "EDITOR_DIR",
    "ENTRY_SCRIPT",
    "PAGES_CACHE_PREFIX",
    "PLACEHOLDERS",
    "RUNTIME_CACHE_PREFIX",
    "SERVICE_WORKER",
    "SNAPSHOT_INPUTS",
    "STYLESHEET",
    "VENDORED",
    "WORKER_FETCHES",
]

ASSETS = "assets/calculators"  # under the site's root: the plugin's scripts, styles, wheels, snapshot and runtime
ENTRY_SCRIPT = f"{ASSETS}/entry.js"  # on every page
STYLESHEET = f"{ASSETS}/calculators.css"  # on every page: calculators' and quizzes' styles, written as one file
SERVICE_WORKER = "sw.js"  # at the site's root, so that its scope is the whole site
EDITOR_DIR = "editor"  # under ASSETS: CodeMirror, for exercises

# Files of the npm packages copied into the site: Pyodide's core into pyodide/, Vega's builds into vega/.
VENDORED = {
    "pyodide": ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"),
    "vega": ("vega/build/vega.min.js", "vega-lite/build/vega-lite.min.js", "vega-embed/build/vega-embed.min.js"),
}
# The ones Pyodide fetches itself in the worker (paths under ASSETS): worker.js checks and caches them.
WORKER_FETCHES = tuple(f"pyodide/{name}" for name in ("pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"))
# The Pyodide files whose identity a snapshot's key covers besides the version and build id (cheap: their sizes).
SNAPSHOT_INPUTS = ("pyodide.asm.wasm", "pyodide.asm.mjs", "python_stdlib.zip", "pyodide.mjs")

# The caches the service worker and worker.js share, each followed by the site's address (its scope).
PAGES_CACHE_PREFIX = "calculators-pages:"  # then the scope, ':' and the manifest's version
RUNTIME_CACHE_PREFIX = "calculators-runtime:"  # then the scope

# Build values written into the browser scripts, by script and value.
PLACEHOLDERS = {
    "worker.js": {
        "wheels": "__CALCULATORS_WHEELS__",  # the wheels to install, in order (calckit, then the book's package)
        "package": "__CALCULATORS_PACKAGE__",  # the book's package, which calckit is told to use
        "snapshot": "__CALCULATORS_SNAPSHOT__",  # the memory snapshot's file name, or ""
        "snapshot_for": "__CALCULATORS_SNAPSHOT_FOR__",  # what it was made with
        "cached": "__CALCULATORS_CACHED__",  # {file: content hash} for the files the worker fetches itself
        "missing": "__CALCULATORS_MISSING__",  # modules the package imports that the browser lacks (not strict)
    },
    # The exercise worker installs calckit alone: readers' code is checked against the book's package elsewhere.
    "exercise_worker.js": {"wheels": "__CALCULATORS_WHEELS__"},  # calckit's wheel, alone in the list
    "entry.js": {"service_worker": "__CALCULATORS_SERVICE_WORKER__"},  # sw.js's path, or "" for none
    "runtime.js": {"time_limit": "__CALCULATORS_TIME_LIMIT__"},  # seconds for one call of the book's code
    "sw.js": {"manifest": '"__CALCULATORS_MANIFEST__"'},  # every file the service worker caches, with its hash
}
