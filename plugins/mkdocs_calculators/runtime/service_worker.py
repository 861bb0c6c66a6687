"""Reading offline: the service worker written at build, and the hashes worker.js caches its downloads under.

`write_service_worker` lists every file of the built site with a hash of its content and writes `sw.js` at the site's
root (so that its scope is the whole site, wherever it is published): a first line that declares that manifest
(MANIFEST), then the code of `service_worker.js`. The files fall into three groups:

- pages: every page, the theme's assets, the search index, the sitemap (instant navigation reads it) and the plugin's
  own scripts and stylesheets (a few KB); precached when the service worker installs;
- runtime: Pyodide, Vega, the exercises' editor, the wheels and the two memory snapshots, the calculators' and the
  exercises' (about 28 MB); cached when first used, and all of it in the background once a page with a calculator or
  an exercise is visited;
- on use: lunr's language packs, which Material loads only for books in other languages than English; cached when
  used.

Source maps, the gzipped sitemap and sw.js itself are left out. The manifest's hash is the cache version: any change
to any file (build-info.js, with the build's values for the other scripts, among them) makes a new sw.js, which
browsers pick up and which replaces the caches of the build before it. The service worker stays a classic script, with
its manifest in its own text rather than imported: browsers compare sw.js's bytes to find an update, and module
service workers are not yet in every browser.

`mkdocs serve` gets no service worker: its pages change with every edit and live reload must show them. entry.js then
registers none, and the sw.js written there retires any worker left by an earlier visit to a built site on the same
address (see RETIRED).
"""

from __future__ import annotations

import hashlib
import json
from importlib import resources
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from .digests import file_digest, keep_digests
from .layout import (
    ASSETS,
    EDITOR_DIR,
    PAGES_CACHE_PREFIX,
    RUNTIME_CACHE_PREFIX,
    SERVICE_WORKER,
    WORKER_FETCHES,
)
from .snapshot import Snapshot

if TYPE_CHECKING:
    from calckit.contracts import Manifest

__all__ = [
    "SERVICE_WORKER",
    "build_manifest",
    "worker_cached",
    "write_service_worker",
]

RUNTIME_DIRS = (f"{ASSETS}/pyodide/", f"{ASSETS}/vega/", f"{ASSETS}/{EDITOR_DIR}/")  # editor: for exercises
RUNTIME_SUFFIXES = (".whl", ".bin")  # the wheels and the memory snapshots, next to worker.js
RUNTIME_FILES = (f"{ASSETS}/editor.js",)  # the editor's entry, beside the modules in editor/ that it imports
ON_USE = ("assets/javascripts/lunr/",)
LEFT_OUT_SUFFIXES = (".map", ".gz")

Entry = tuple[str, str]  # (path relative to the site's root, as a page's URL; content hash)


def _url_path(relative: str) -> str:
    """A page's address relative to the root: lessons/x/index.html is lessons/x/, index.html is ''."""
    if relative == "index.html":
        return ""
    if relative.endswith("/index.html"):
        return relative[: -len("index.html")]
    return relative


def build_manifest(site_dir: Path) -> Manifest:
    """Every file that the service worker caches, with its hash, in three groups, and the caches' names (Manifest)."""
    groups: dict[str, list[Entry]] = {"pages": [], "runtime": [], "onUse": []}
    for path in sorted(site_dir.rglob("*")):
        if not path.is_file():
            continue
        relative = PurePosixPath(path.relative_to(site_dir).as_posix())
        name = str(relative)
        if name == SERVICE_WORKER or relative.suffix in LEFT_OUT_SUFFIXES or name.endswith(".partial"):
            continue
        if (
            name.startswith(RUNTIME_DIRS)
            or name in RUNTIME_FILES
            or (str(relative.parent) == ASSETS and relative.suffix in RUNTIME_SUFFIXES)
        ):
            group = "runtime"
        elif name.startswith(ON_USE):
            group = "onUse"
        else:
            group = "pages"
        groups[group].append((_url_path(name), file_digest(path)))
    body = json.dumps(groups, sort_keys=True, separators=(",", ":"))
    version = hashlib.sha256(body.encode()).hexdigest()[:16]
    return {
        "version": version,
        "pages": groups["pages"],
        "runtime": groups["runtime"],
        "onUse": groups["onUse"],
        "pagesCache": PAGES_CACHE_PREFIX,
        "runtimeCache": RUNTIME_CACHE_PREFIX,
    }


# Under `mkdocs serve`: a service worker that removes itself and its caches. entry.js registers none there, but a
# browser that once visited a built site on the same address still runs that site's worker, which checks sw.js on
# each navigation; this one replaces it, so that live reload shows the pages being edited, not cached ones.
RETIRED = f"""// Written by mkdocs_calculators under `mkdocs serve`: removes a built site's service worker and caches.
self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => {{
  const scope = self.registration.scope;
  event.waitUntil((async () => {{
    for (const name of await caches.keys()) {{
      if (name.startsWith(`{PAGES_CACHE_PREFIX}${{scope}}:`) || name === `{RUNTIME_CACHE_PREFIX}${{scope}}`) {{
        await caches.delete(name);
      }}
    }}
    await self.registration.unregister();
  }})());
}});
"""


def write_service_worker(site_dir: Path, *, serving: bool = False) -> Manifest | None:
    """Write sw.js for the site as built and return its manifest; under `mkdocs serve`, the retiring worker."""
    if serving:
        (site_dir / SERVICE_WORKER).write_text(RETIRED, encoding="utf-8")
        return None
    manifest = build_manifest(site_dir)
    keep_digests()
    code = resources.files(__package__).joinpath("service_worker.js").read_text(encoding="utf-8")
    literal = json.dumps(json.dumps(manifest, separators=(",", ":")))  # a JS string literal holding the JSON
    head = (
        f"// Written by mkdocs_calculators for this build (version {manifest['version']}): do not edit.\n"
        f"const MANIFEST = /** @type {{Manifest}} */ (JSON.parse({literal}));\n"
    )
    (site_dir / SERVICE_WORKER).write_text(head + code, encoding="utf-8")
    return manifest


def worker_cached(out_dir: Path, wheels: list[Path], snapshot: Snapshot | None) -> dict[str, str]:
    """{file: content hash} for the files worker.js fetches itself (`out_dir` holds the runtime as written): it caches
    them under the keys sw.js uses (URL?v=hash)."""
    fetched = [*WORKER_FETCHES, *(wheel.name for wheel in wheels), *([snapshot.name] if snapshot else [])]
    return {name: file_digest(out_dir / name) for name in fetched}
