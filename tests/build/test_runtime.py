"""The built site carries the browser runtime: the plugin's assets, Pyodide, Vega and the content-hashed wheel."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.build.sites import Build, build_fixture

ASSETS = "assets/calculators"
RUNTIME_FILES = [
    "entry.js",
    "worker.js",
    "calculator.js",
    "runtime.js",
    "build-info.js",
    "kinds.js",
    "vega.js",
    "calculators.css",
    "pyodide/pyodide.mjs",
    "pyodide/pyodide.asm.mjs",
    "pyodide/pyodide.asm.wasm",
    "pyodide/python_stdlib.zip",
    "pyodide/pyodide-lock.json",
    "vega/vega.min.js",
    "vega/vega-lite.min.js",
    "vega/vega-embed.min.js",
]
WHEEL_NAME = re.compile(r"calculators-\d+\.\d+\.\d+\+[0-9a-f]{12}-py3-none-any\.whl")


@pytest.fixture(scope="module")
def assets(good_site: Build) -> Path:
    assert good_site.returncode == 0, good_site.output
    return good_site.site / ASSETS


@pytest.mark.parametrize("name", RUNTIME_FILES)
def test_site_contains_the_runtime_file(name: str, assets: Path) -> None:
    """Every file the browser loads is in the built site, and none is empty."""
    path = assets / name
    assert path.is_file(), f"{path} is missing"
    assert path.stat().st_size > 0


def test_site_has_exactly_one_wheel_and_the_worker_names_it(assets: Path) -> None:
    """One content-hashed calculators wheel is in the site, and the build values worker.js imports name that very
    file, last (calckit's first)."""
    wheels = sorted(path.name for path in assets.glob("calculators-*.whl"))
    assert len(wheels) == 1, wheels
    assert WHEEL_NAME.fullmatch(wheels[0]), wheels[0]
    match = re.search(r"^export const wheels = (.*);$", (assets / "build-info.js").read_text(encoding="utf-8"), re.M)
    assert match, "no wheels in build-info.js"
    named = json.loads(match[1])
    assert named[-1] == wheels[0]
    assert named[0].startswith("calckit-")
    assert 'from "./build-info.js"' in (assets / "worker.js").read_text(encoding="utf-8")


def test_missing_node_modules_stops_the_build_and_says_to_run_npm_ci(tmp_path: Path) -> None:
    """With the plugin pointed at an empty folder, the build stops before writing any page and its error names the
    missing file and says to run `npm ci`."""
    empty = tmp_path / "no_node_modules"
    empty.mkdir()
    build = build_fixture(
        tmp_path / "site_root",
        {"docs/index.md": "# Home\n\n```calculator\nuse: roofline\n```\n"},
        plugin={"node_modules": str(empty)},
    )
    assert build.returncode != 0
    assert build.errors() == [
        f"calculators: the browser runtime is not installed ({empty / 'pyodide/pyodide.mjs'} is missing); "
        "run `npm ci` in the folder of mkdocs.yml, which installs the versions its package-lock.json pins"
    ], build.output
    assert not (build.site / "index.html").exists()
