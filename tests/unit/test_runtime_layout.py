"""The runtime's layout is said once (mkdocs_calculators/layout.py); the few names the browser scripts repeat agree
with it, and every build value a script waits for is one that the build fills in."""

from __future__ import annotations

import json
import re
from pathlib import Path

import mkdocs_calculators
from mkdocs_calculators.layout import (
    PAGES_CACHE_PREFIX,
    PLACEHOLDERS,
    RUNTIME_CACHE_PREFIX,
    SNAPSHOT_INPUTS,
    VENDORED,
    WORKER_FETCHES,
)

PLUGIN = Path(mkdocs_calculators.__file__).parent
# Every script that layout gives placeholders to (the browser's assets, and sw.js from service_worker.js).
SCRIPTS = {name: PLUGIN / "assets" / name for name in PLACEHOLDERS if name != "sw.js"}
SCRIPTS |= {"worker.js": PLUGIN / "assets/worker.js", "sw.js": PLUGIN / "service_worker.js"}


def test_the_worker_fetches_the_files_layout_names() -> None:
    text = SCRIPTS["worker.js"].read_text(encoding="utf-8")
    match = re.search(r"^const PYODIDE_FILES = (\[.*?\]);", text, re.MULTILINE)
    assert match, "worker.js has no PYODIDE_FILES"
    assert tuple(json.loads(match[1])) == WORKER_FETCHES
    assert {name.removeprefix("pyodide/") for name in WORKER_FETCHES} <= set(VENDORED["pyodide"])
    assert set(SNAPSHOT_INPUTS) <= set(VENDORED["pyodide"])


def test_the_caches_names_are_layouts() -> None:
    worker = SCRIPTS["worker.js"].read_text(encoding="utf-8")
    service_worker = SCRIPTS["sw.js"].read_text(encoding="utf-8")
    assert f"`{RUNTIME_CACHE_PREFIX}${{" in worker
    assert f"`{RUNTIME_CACHE_PREFIX}${{SCOPE}}`" in service_worker
    assert f"`{PAGES_CACHE_PREFIX}${{SCOPE}}:`" in service_worker


def test_every_placeholder_is_in_its_script_and_none_other_waits_unfilled() -> None:
    for script, values in PLACEHOLDERS.items():
        text = SCRIPTS[script].read_text(encoding="utf-8")
        assert [placeholder for placeholder in values.values() if placeholder not in text] == [], script
        waiting = set(re.findall(r"__CALCULATORS_[A-Z_]+__", text))
        assert waiting == {placeholder.strip('"') for placeholder in values.values()}, script
    for asset in (PLUGIN / "assets").iterdir():
        if asset.name not in SCRIPTS:
            assert "__CALCULATORS_" not in asset.read_text(encoding="utf-8"), asset.name
