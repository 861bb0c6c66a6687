"""The runtime's layout is said once (mkdocs_calculators/runtime/layout.py): the browser scripts take what they need
of it from what the build writes rather than repeat it, and every build value a script imports is one that the build
writes into build-info.js."""

from __future__ import annotations

import json
import re
from pathlib import Path

import mkdocs_calculators
from mkdocs_calculators.runtime.layout import (
    BUILD_INFO,
    PAGES_CACHE_PREFIX,
    RUNTIME_CACHE_PREFIX,
    SNAPSHOT_INPUTS,
    VENDORED,
    WORKER_FETCHES,
    BuildInfo,
)

PLUGIN = Path(mkdocs_calculators.__file__).parent
# The browser's scripts: the shared ones, and each built-in kind's in its folder (blocks/quiz/quiz.js).
BROWSER_FILES = sorted([*(PLUGIN / "assets").iterdir(), *(PLUGIN / "blocks").glob("*/*.js")])
SCRIPTS = {"worker.js": PLUGIN / "assets/worker.js", "sw.js": PLUGIN / "runtime/service_worker.js"}
# `import {a, b as c} from "./build-info.js"` in a module; in entry.js, a classic script, `buildInfo()`, which is
# `import(new URL("build-info.js", base).href)`, then `.then(async ({a}) =>`.
IMPORTED = re.compile(
    rf'import\s*\{{([^}}]*)\}}\s*from\s*"\./{re.escape(BUILD_INFO)}"|buildInfo\(\)\s*\.then\(async \(\{{([^}}]*)\}}\)'
)
ENTRY_IMPORT = f'const buildInfo = () => import(new URL("{BUILD_INFO}", base).href);'


def test_the_worker_takes_the_files_pyodide_fetches_from_the_build() -> None:
    """worker.js takes the files Pyodide fetches from build-info.js (tests/build/test_runtime_build.py checks the
    values written there), the wasm first, which it compiles while the rest downloads: it names none itself. Each is a
    file the build vendors, as is each that a snapshot's key covers."""
    assert WORKER_FETCHES[0] == "pyodide/pyodide.asm.wasm"
    assert {name.removeprefix("pyodide/") for name in WORKER_FETCHES} <= set(VENDORED["pyodide"])
    assert set(SNAPSHOT_INPUTS) <= set(VENDORED["pyodide"])
    worker = SCRIPTS["worker.js"].read_text(encoding="utf-8")
    assert "const [WASM] = PYODIDE_FILES;" in worker
    for name in VENDORED["pyodide"]:
        assert f'"pyodide/{name}"' not in worker, f"worker.js names {name}: take it from build-info.js"


def test_the_caches_names_come_from_the_build() -> None:
    """The worker and the service worker share the runtime's cache, and the service worker drops the pages' caches of
    other builds by their prefix: both scripts take the names from what the build writes (build-info.js, sw.js's
    manifest: tests/build/test_runtime_build.py), and neither spells one."""
    assert PAGES_CACHE_PREFIX != RUNTIME_CACHE_PREFIX and not RUNTIME_CACHE_PREFIX.startswith(PAGES_CACHE_PREFIX)
    for script in SCRIPTS.values():
        text = script.read_text(encoding="utf-8")
        for prefix in (PAGES_CACHE_PREFIX, RUNTIME_CACHE_PREFIX):
            assert prefix not in text, f"{script.name} spells {prefix!r}: take it from what the build writes"
    assert "MANIFEST.runtimeCache + SCOPE" in SCRIPTS["sw.js"].read_text(encoding="utf-8")
    assert "runtimeCache + new URL(" in SCRIPTS["worker.js"].read_text(encoding="utf-8")


def imported_values() -> dict[str, set[str]]:
    """The build values each script imports, by script."""
    found: dict[str, set[str]] = {}
    for script in (path for path in BROWSER_FILES if path.suffix == ".js"):
        for match in IMPORTED.finditer(script.read_text(encoding="utf-8")):
            names = (match[1] or match[2]).split(",")
            found.setdefault(script.name, set()).update(name.split(" as ")[0].strip() for name in names if name.strip())
    return found


def test_every_build_value_a_script_imports_is_written_and_each_is_used() -> None:
    """Each script takes only values BuildInfo has (a name it lacks would stop the module from loading), every value
    is taken by some script, and the type check's declaration of build-info.js names the same ones; no script waits
    for a value to be written into its text."""
    imported = imported_values()
    assert set(imported) == {"worker.js", "exercise_worker.js", "runtime.js", "offline.js", "entry.js"}
    assert imported["exercise_worker.js"] == {"wheels", "exerciseSnapshot", "exerciseSnapshotFor"}
    assert imported["entry.js"] == {"serviceWorker"}
    assert ENTRY_IMPORT in (PLUGIN / "assets/entry.js").read_text(encoding="utf-8")
    assert set().union(*imported.values()) == set(BuildInfo.__annotations__)
    declared = (PLUGIN.parent / "types" / BUILD_INFO.replace(".js", ".d.ts")).read_text(encoding="utf-8")
    assert re.findall(r"^export const (\w+):", declared, re.MULTILINE) == list(BuildInfo.__annotations__)
    for script in (*BROWSER_FILES, SCRIPTS["sw.js"]):
        assert not re.search(r"__[A-Z]+_[A-Z_]+__", script.read_text(encoding="utf-8")), script.name


def test_entry_js_lists_no_kind_the_build_writes_its_mount_table_from_the_kinds() -> None:
    """entry.js mounts each kind's browser half from kinds.js, which the build writes from the registered kinds' own
    declarations (`browser`); it names no kind's module or mount function itself, and the type check's declaration
    of kinds.js has the table's fields."""
    from mkdocs_calculators.blocks import kinds
    from mkdocs_calculators.runtime.site import kind_files, kinds_module, mount_table

    entry = (PLUGIN / "assets/entry.js").read_text(encoding="utf-8")
    table = mount_table(kinds())
    assert [(row["module"], row["mount"], row["near"]) for row in table] == [
        ("calculator.js", "mountCalculators", True),
        ("quiz.js", "mountQuizzes", True),
        ("exercise.js", "mountExercises", False),
        ("sortable.js", "mountSortable", False),
    ]
    for row in table:
        assert f'"{row["module"]}"' not in entry and row["mount"] not in entry
    written = kinds_module(kinds())
    assert json.loads(written.split("export const kinds = ", 1)[1].strip().removesuffix(";")) == table
    declared = (PLUGIN.parent / "types" / "kinds.d.ts").read_text(encoding="utf-8")
    assert re.findall(r"^  (\w+):", declared, re.MULTILINE) == list(table[0])
    files = kind_files(kinds())
    assert {row["module"] for row in table} <= set(files)
    assert {path.parent.name for path in files.values()} == {"calculator", "quiz", "exercise", "table"}
