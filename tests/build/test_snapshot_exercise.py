"""The readers' exercise interpreter's memory snapshot: made, checked, named and shipped beside the calculators'.

It holds calckit's exercise runner and never the book's package (readers' code must not reach it): each test restores
it under Node with the pinned Pyodide, as exercise_worker.js does, and looks at what the restored Python holds.
"""

from __future__ import annotations

import gzip
import json
import logging
import struct
import subprocess
from pathlib import Path

import pytest

from mkdocs_calculators.runtime.snapshot import (
    CHECK_SCRIPT,
    exercise_snapshot_key,
    provide_exercise_snapshot,
    pyodide_version,
)
from tests.build.sites import Build, build_fixture
from tests.build.test_runtime_build import ASSETS, PAGE, SNAPSHOT_MAGIC, build_info, digest, entries
from tests.support import NODE_MODULES

PYODIDE = NODE_MODULES / "pyodide"

# Restores SNAPSHOT with Python's `js` an object of its own, puts WHEEL alone on sys.path as exercise_worker.js does,
# and prints what the restored Python holds: the modules of PACKAGE, whether the exercise runner is there, what
# importing PACKAGE does, and whether `js` is the object given now.
RESTORE = """
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
const [pyodideDir, snapshot, packageName, wheel] = process.argv.slice(2);
const { loadPyodide } = await import(`${pyodideDir}/pyodide.mjs`);
const jsglobals = Object.assign(Object.create(null), { givenAtRestore: 1 });
const pyodide = await loadPyodide({ _loadSnapshot: new Uint8Array(gunzipSync(readFileSync(snapshot))), jsglobals });
const path = `/lib/wheels/${wheel.split("/").pop()}`;
pyodide.FS.mkdirTree("/lib/wheels");
pyodide.FS.writeFile(path, new Uint8Array(readFileSync(wheel)));
process.stdout.write(pyodide.runPython(`
import json, sys, js
if ${JSON.stringify(path)} not in sys.path: sys.path.insert(0, ${JSON.stringify(path)})
package = ${JSON.stringify(packageName)}
try:
    __import__(package)
    imported = "imported"
except ImportError as error:
    imported = type(error).__name__
json.dumps({
    "held": sorted(name for name in sys.modules if name == package or name.startswith(package + ".")),
    "runner": "calckit.exercise_run" in sys.modules,
    "limit": sys.getrecursionlimit(),
    "import": imported,
    "js": getattr(js, "givenAtRestore", None),
})
`));
"""


@pytest.fixture(scope="module")
def site(good_site: Build) -> Path:
    assert good_site.returncode == 0, good_site.output
    return good_site.site


def calckit_wheel(site: Path) -> Path:
    (wheel,) = (site / ASSETS).glob("calckit-*.whl")
    return wheel


def exercise_snapshot(site: Path) -> Path:
    (snapshot,) = (site / ASSETS).glob("exercise-snapshot-*.bin")
    return snapshot


def restored(tmp_path: Path, snapshot: Path, wheel: Path) -> dict[str, object]:
    script = tmp_path / "restore.mjs"
    script.write_text(RESTORE, encoding="utf-8")
    result = subprocess.run(
        ["node", str(script), str(PYODIDE), str(snapshot), "calculators", str(wheel)],
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    found: dict[str, object] = json.loads(result.stdout)
    return found


def test_the_exercise_snapshot_is_named_for_the_runtime_and_calckits_wheel(site: Path) -> None:
    """One file, keyed on Pyodide and calckit's wheel alone, named in build-info.js with what it was made for."""
    snapshot = exercise_snapshot(site)
    wheel = calckit_wheel(site).name
    assert snapshot.name == f"exercise-snapshot-{exercise_snapshot_key(PYODIDE, wheel)}.bin"
    info = build_info(site)
    assert info["exerciseSnapshot"] == snapshot.name
    assert info["exerciseSnapshotFor"] == f"{pyodide_version(PYODIDE)} {wheel}"
    assert info["exerciseSnapshot"] != info["snapshot"]
    raw = gzip.decompress(snapshot.read_bytes())
    assert struct.unpack_from("<I", raw)[0] == SNAPSHOT_MAGIC


def test_the_exercise_snapshot_is_a_runtime_file_of_the_service_worker(site: Path) -> None:
    """Cached for offline reading as the calculators' snapshot is: listed with its hash among the runtime files."""
    snapshot = exercise_snapshot(site)
    runtime = entries(site, "runtime")
    assert runtime[f"{ASSETS}/{snapshot.name}"] == digest(snapshot)
    assert runtime[f"{ASSETS}/{build_info(site)['snapshot']}"]  # beside the calculators' one


def test_the_exercise_snapshot_holds_the_runner_and_not_the_books_package(site: Path, tmp_path: Path) -> None:
    """Restored with calckit's wheel alone, Python has the exercise runner and the recursion limit, `js` is the object
    given at restore, and the book's package is neither imported nor importable; the calculators' snapshot, restored
    the same way, holds that package (which is why readers' code must never run in it)."""
    wheel = calckit_wheel(site)
    exercise = restored(tmp_path, exercise_snapshot(site), wheel)
    assert exercise == {"held": [], "runner": True, "limit": 400, "import": "ModuleNotFoundError", "js": 1}
    book = restored(tmp_path, site / ASSETS / str(build_info(site)["snapshot"]), wheel)
    assert "calculators" in book["held"]  # type: ignore[operator]
    assert book["import"] == "imported"


def test_the_builds_check_refuses_a_snapshot_that_holds_the_books_package(site: Path) -> None:
    """snapshot_check.mjs --exercise, which the build runs on each exercise snapshot it makes, passes this build's and
    fails the calculators' snapshot with the reason."""
    wheel = str(calckit_wheel(site))

    def check(snapshot: Path) -> subprocess.CompletedProcess[str]:
        command = ["node", str(CHECK_SCRIPT), "--exercise", str(PYODIDE), str(snapshot), "calculators", wheel]
        return subprocess.run(command, capture_output=True, text=True, timeout=180, check=False)

    passed = check(exercise_snapshot(site))
    assert (passed.returncode, passed.stdout) == (0, "restored\n"), passed.stderr
    refused = check(site / ASSETS / str(build_info(site)["snapshot"]))
    assert refused.returncode == 1
    assert "RuntimeError: the restored Python does not hold this build's calckit.exercise_run" in refused.stderr


def test_without_the_snapshot_option_there_is_no_exercise_snapshot(tmp_path: Path) -> None:
    """`snapshot: false`: the exercise worker boots plainly, as the calculators' does."""
    build = build_fixture(tmp_path, {"docs/index.md": PAGE}, plugin={"snapshot": False})
    assert build.returncode == 0, build.output
    assert not list((build.site / ASSETS).glob("*.bin"))
    assert (build_info(build.site)["exerciseSnapshot"], build_info(build.site)["exerciseSnapshotFor"]) == ("", "")


def test_a_snapshot_node_cannot_make_is_said_and_neither_shipped_nor_cached(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Node fails to make the exercise snapshot (here calckit's wheel is not a zip): the build warns with Node's
    last line, and ships and caches none, so the exercise worker boots Python plainly."""
    from calckit.book import load

    wheel = tmp_path / "calckit-0.0.0+broken-py3-none-any.whl"
    wheel.write_text("not a zip", encoding="utf-8")
    out = tmp_path / "assets"
    out.mkdir()
    with caplog.at_level(logging.WARNING, logger="mkdocs.plugins.calculators"):
        made = provide_exercise_snapshot(NODE_MODULES, wheel, load("calculators"), out)
    assert made is None
    assert list(out.iterdir()) == []
    said = [record.getMessage() for record in caplog.records if "exercises' memory snapshot" in record.getMessage()]
    assert len(said) == 1, said
    assert said[0].startswith("calculators: could not make the exercises' memory snapshot (")
    assert "()" not in said[0]  # Node's own reason is quoted
    key = exercise_snapshot_key(PYODIDE, wheel.name)
    assert not list(NODE_MODULES.glob(f".cache/mkdocs-calculators/**/*{key}*"))
