"""What the build adds for reading offline and starting fast: the service worker's manifest, the memory snapshot.

The snapshot tests that make one from nothing use a private node_modules (links to the project's Pyodide and Vega) so
that its cache starts empty; every other build shares the project's cache, so only the first one of a session pays
for a snapshot.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import re
import struct
from pathlib import Path

import pytest
import yaml

from calckit import book
from mkdocs_calculators.runtime.layout import NODE_CACHE, PAGES_CACHE_PREFIX, RUNTIME_CACHE_PREFIX, WORKER_FETCHES
from mkdocs_calculators.runtime.service_worker import write_service_worker
from mkdocs_calculators.runtime.site import EDITOR_MODULES, editor_file, write_runtime
from mkdocs_calculators.runtime.snapshot import pyodide_version, snapshot_key
from tests.build.sites import Build, build_fixture, site_config
from tests.support import NODE_MODULES, build_site

ASSETS = "assets/calculators"
SNAPSHOT_MAGIC = 1886286592  # the first 32-bit word of a Pyodide memory snapshot (pyodide.asm.mjs)
RUNTIME = [
    f"{ASSETS}/pyodide/{name}"
    for name in ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
] + [f"{ASSETS}/vega/{name}" for name in ("vega.min.js", "vega-lite.min.js", "vega-embed.min.js")]
# The exercises' editor: cached on use, like the rest of the runtime, never at install.
EDITOR = [f"{ASSETS}/editor.js", *(f"{ASSETS}/{editor_file(package)}" for package in EDITOR_MODULES)]
PAGE = "# Home\n\n```calculator\nuse: roofline\n```\n"


def manifest(site: Path) -> dict[str, object]:
    """The manifest written into sw.js (a JSON string literal on the line that declares MANIFEST)."""
    text = (site / "sw.js").read_text(encoding="utf-8")
    match = re.search(r"^const MANIFEST = .*?JSON\.parse\((\".*\")\)\);$", text, re.MULTILINE)
    assert match, "no manifest in sw.js"
    found: dict[str, object] = json.loads(json.loads(match.group(1)))
    return found


def entries(site: Path, group: str) -> dict[str, str]:
    listed = manifest(site)[group]
    assert isinstance(listed, list), f"{group} is not a list of [file, hash] pairs in the manifest"
    return dict(listed)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


def build_info(site: Path) -> dict[str, object]:
    """The values the build wrote into build-info.js (one `export const name = JSON;` a line), by name."""
    text = (site / ASSETS / "build-info.js").read_text(encoding="utf-8")
    found = {match[1]: json.loads(match[2]) for match in re.finditer(r"^export const (\w+) = (.*);$", text, re.M)}
    assert found, "no values in build-info.js"
    return found


def private_node_modules(root: Path) -> Path:
    """A node_modules of links to the project's runtime, with a cache of its own."""
    node_modules = root / "node_modules"
    node_modules.mkdir(parents=True)
    editor = dict.fromkeys(package.split("/")[0] for package in EDITOR_MODULES)  # @codemirror holds several
    for package in ("pyodide", "vega", "vega-lite", "vega-embed", *editor):
        (node_modules / package).symlink_to(NODE_MODULES / package, target_is_directory=True)
    return node_modules


def snapshot_from(node_modules: Path) -> dict[str, object]:
    """The plugin's options for a build that makes (or reuses) a memory snapshot, with the runtime at
    `node_modules`."""
    return {"node_modules": str(node_modules), "snapshot": True}


@pytest.fixture(scope="module")
def site(good_site: Build) -> Path:
    assert good_site.returncode == 0, good_site.output
    return good_site.site


class TestServiceWorker:
    def test_manifest_lists_every_page_with_its_hash(self, site: Path) -> None:
        """Every page of the site is precached at install, under the address a reader opens, with its content hash."""
        pages = entries(site, "pages")
        for html in site.rglob("*.html"):
            relative = html.relative_to(site).as_posix()
            address = "" if relative == "index.html" else relative.removesuffix("index.html")
            assert pages.get(address) == digest(html), relative
        assert {"", "guide/", "forms/", "404.html", "sitemap.xml"} <= set(pages)
        assert pages[f"{ASSETS}/entry.js"] == digest(site / ASSETS / "entry.js")

    def test_manifest_lists_the_runtime_with_hashes_and_leaves_it_out_of_install(self, site: Path) -> None:
        """Pyodide, Vega, the editor, the wheels and the snapshots are runtime files, hashed, not fetched at install."""
        runtime = entries(site, "runtime")
        wheels = {path.relative_to(site).as_posix() for path in (site / ASSETS).glob("*.whl")}
        assert {Path(wheel).name.split("-")[0] for wheel in wheels} == {"calckit", "calculators"}
        snapshots = {path.relative_to(site).as_posix() for path in (site / ASSETS).glob("*snapshot-*.bin")}
        assert {Path(snapshot).name.split("-")[0] for snapshot in snapshots} == {"snapshot", "exercise"}
        assert set(runtime) == {*RUNTIME, *EDITOR, *wheels, *snapshots}
        for path, hash_ in runtime.items():
            assert hash_ == digest(site / path), path
        assert not set(runtime) & set(entries(site, "pages"))

    def test_source_maps_and_the_service_worker_itself_are_left_out(self, site: Path) -> None:
        listed = {path for group in ("pages", "runtime", "onUse") for path in entries(site, group)}
        assert "sw.js" not in listed
        assert not [path for path in listed if path.endswith((".map", ".gz"))]

    def test_version_is_the_hash_of_the_manifest(self, site: Path) -> None:
        found = manifest(site)
        body = json.dumps({key: found[key] for key in ("onUse", "pages", "runtime")}, separators=(",", ":"))
        assert found["version"] == hashlib.sha256(body.encode()).hexdigest()[:16]

    def test_worker_knows_the_hashes_of_what_it_fetches(self, site: Path) -> None:
        """worker.js caches its own downloads under the same keys as sw.js: it must be given the same hashes."""
        cached = build_info(site)["cached"]
        assert isinstance(cached, dict)
        runtime = entries(site, "runtime")
        assert cached and all(runtime[f"{ASSETS}/{name}"] == hash_ for name, hash_ in cached.items())
        assert "pyodide/pyodide.asm.wasm" in cached

    def test_the_scripts_are_given_the_caches_names_and_the_files_pyodide_fetches(self, site: Path) -> None:
        """worker.js and sw.js spell no cache's name and no Pyodide file (tests/unit/test_runtime_layout.py): the build
        gives them runtime/layout.py's, in build-info.js and in sw.js's manifest, and the files are in the site."""
        info = build_info(site)
        assert info["pyodideFiles"] == list(WORKER_FETCHES)
        assert all((site / ASSETS / name).is_file() for name in WORKER_FETCHES)
        assert info["runtimeCache"] == RUNTIME_CACHE_PREFIX
        found = manifest(site)
        assert (found["pagesCache"], found["runtimeCache"]) == (PAGES_CACHE_PREFIX, RUNTIME_CACHE_PREFIX)

    def test_entry_registers_the_service_worker(self, site: Path) -> None:
        assert build_info(site)["serviceWorker"] == "sw.js"
        assert (site / "sw.js").is_file()

    def test_serve_registers_no_service_worker_and_retires_an_old_one(self, tmp_path: Path) -> None:
        """Under `mkdocs serve` entry.js registers none, the worker caches nothing, and sw.js only removes itself."""
        write_runtime(tmp_path, NODE_MODULES, book.current(), snapshot=False, serving=True)
        assert write_service_worker(tmp_path, serving=True) is None
        assert build_info(tmp_path)["serviceWorker"] == ""
        assert build_info(tmp_path)["cached"] == {}
        assert build_info(tmp_path)["pyodideFiles"] == list(WORKER_FETCHES)  # the worker fetches them all the same
        retired = (tmp_path / "sw.js").read_text(encoding="utf-8")
        assert "registration.unregister()" in retired
        assert "fetch" not in retired


class TestSnapshot:
    def test_snapshot_is_named_for_this_runtime_and_wheel(self, site: Path) -> None:
        """One snapshot, whose name is the key over Pyodide, the wheels (calckit's, then the book's) and the package;
        build-info.js names it for worker.js, what it is for, the wheels it installs and the package it uses."""
        (snapshot,) = (site / ASSETS).glob("snapshot-*.bin")
        wheels = [next((site / ASSETS).glob(f"{name}-*.whl")).name for name in ("calckit", "calculators")]
        pyodide = NODE_MODULES / "pyodide"
        assert snapshot.name == f"snapshot-{snapshot_key(pyodide, wheels, 'calculators')}.bin"
        info = build_info(site)
        assert info["snapshot"] == snapshot.name
        assert info["snapshotFor"] == " ".join([pyodide_version(pyodide), *wheels])
        assert info["bookPackage"] == "calculators"
        assert info["wheels"] == wheels

    def test_snapshot_is_a_gzipped_pyodide_memory_snapshot(self, site: Path) -> None:
        (snapshot,) = (site / ASSETS).glob("snapshot-*.bin")
        compressed = snapshot.read_bytes()
        assert compressed[:2] == b"\x1f\x8b"
        raw = gzip.decompress(compressed)
        assert struct.unpack_from("<I", raw)[0] == SNAPSHOT_MAGIC
        assert len(raw) > 4 * len(compressed)

    def test_second_build_reuses_the_cached_snapshot(self, tmp_path: Path) -> None:
        """The first build makes the snapshot and caches it under node_modules/.cache; the next one copies it."""
        node_modules = private_node_modules(tmp_path)
        first = build_fixture(tmp_path / "first", {"docs/index.md": PAGE}, plugin=snapshot_from(node_modules))
        assert first.returncode == 0, first.output
        assert "made a memory snapshot" in first.output
        (cached,) = (node_modules / NODE_CACHE / "calculators").glob("snapshot-*.bin")
        second = build_fixture(tmp_path / "second", {"docs/index.md": PAGE}, plugin=snapshot_from(node_modules))
        assert second.returncode == 0, second.output
        assert "made a memory snapshot" not in second.output
        (copied,) = (second.site / ASSETS).glob("snapshot-*.bin")
        assert copied.name == cached.name
        assert copied.read_bytes() == cached.read_bytes() == (first.site / ASSETS / cached.name).read_bytes()

    def test_without_node_a_strict_build_that_asks_for_a_snapshot_stops(self, tmp_path: Path) -> None:
        """No Node on PATH and `snapshot` on: a plain boot ships only by the author's choice (`snapshot: false`), so
        the strict build stops with an error that says to install Node or to choose that."""
        node_modules = private_node_modules(tmp_path)
        empty = tmp_path / "bin"
        empty.mkdir()
        root = tmp_path / "site_root"
        (root / "docs").mkdir(parents=True)
        (root / "docs/index.md").write_text(PAGE, encoding="utf-8")
        config = site_config(plugin=snapshot_from(node_modules))
        (root / "mkdocs.yml").write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
        result = build_site(root / "mkdocs.yml", root / "site", PATH=str(empty))
        build = Build(root, result.returncode, result.stdout + result.stderr)
        assert build.returncode == 1, build.output
        assert build.errors() == [
            "calculators: Node.js not found, so no memory snapshot can be made (the plugin's option 'snapshot' is on): "
            "install Node.js 22 or 24, or set 'snapshot: false' to ship a plain boot of Python (each page's first "
            "calculation then waits seconds longer)"
        ], build.output

    def test_snapshot_can_be_switched_off(self, tmp_path: Path) -> None:
        build = build_fixture(tmp_path, {"docs/index.md": PAGE}, plugin={"snapshot": False})
        assert build.returncode == 0, build.output
        assert not list((build.site / ASSETS).glob("snapshot-*.bin"))
        assert build_info(build.site)["snapshot"] == ""
        assert not [path for path in entries(build.site, "runtime") if path.endswith(".bin")]
