"""The same package in Pyodide (under Node, from the pinned npm package) gives output identical to CPython's."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

import calckit
import calculators
from calckit.api import call_json
from calculators import CALCULATORS
from mkdocs_calculators.problems import python_failure
from mkdocs_calculators.runtime.wheel import build_wheel
from tests.conformance.cases import golden_cases
from tests.support import NODE_MODULES, ROOT

pytestmark = pytest.mark.conformance


@pytest.fixture(scope="module")
def pyodide_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[dict[str, object]], dict[str, object]]:
    node = shutil.which("node")
    assert node, "Node.js is needed for the conformance layer"
    assert (NODE_MODULES / "pyodide/pyodide.mjs").is_file(), "run `npm ci` first (make test does)"
    work = tmp_path_factory.mktemp("conformance")
    wheels = [
        build_wheel(Path(calckit.__file__).parent, calckit.__version__, work),
        build_wheel(Path(calculators.__file__).parent, calculators.__version__, work),
    ]
    cases = golden_cases()
    (work / "cases.json").write_text(json.dumps(cases))
    script = ROOT / "tests/conformance/run_in_pyodide.mjs"
    result = subprocess.run(
        [node, str(script), str(work / "cases.json"), "calculators", *map(str, wheels)],
        capture_output=True,
        text=True,
        cwd=ROOT,  # so that `import "pyodide"` resolves in the project's node_modules
        timeout=300,
        check=False,
    )
    if result.returncode != 0:
        where, frames = python_failure(result.stderr)
        pytest.fail(f"the package did not load in Pyodide: {where}\n{frames}", pytrace=False)
    return cases, json.loads(result.stdout)


def test_runs_a_newer_python(pyodide_run: tuple[list[dict[str, object]], dict[str, object]]) -> None:
    """The browser's interpreter really is Pyodide's (3.14), not this one."""
    _, report = pyodide_run
    assert str(report["python"]).startswith("3.14")


def test_every_case_is_identical(pyodide_run: tuple[list[dict[str, object]], dict[str, object]]) -> None:
    """Each golden case's JSON text is the same, character for character, in Pyodide and in CPython."""
    cases, report = pyodide_run
    outputs = report["outputs"]
    assert isinstance(outputs, list) and len(outputs) == len(cases)
    for case, output in zip(cases, outputs, strict=True):
        if isinstance(output, dict):
            where, frames = python_failure(str(output["raised"]))
            pytest.fail(f"{case} raised in Pyodide: {where}\n{frames}", pytrace=False)
        assert output == call_json(str(case["function"]), json.dumps(case["arguments"])), case


def test_cases_cover_every_calculator_both_outcomes_and_quiz_variants() -> None:
    cases = golden_cases()
    runs = [case["arguments"] for case in cases if case["function"] == "run"]
    assert {run["name"] for run in runs} == set(CALCULATORS)
    outcomes = {json.loads(call_json("run", json.dumps(run)))["ok"] for run in runs}
    assert outcomes == {True, False}
    assert sum(case["function"] == "quiz_variant" for case in cases) >= 20  # the book has at least 4 numeric questions
    draws = [case["arguments"] for case in cases if case["function"] == "exercise_cases"]
    assert len(draws) >= 12  # 4 exercises, 3 seeds each
    for draw in draws:
        drawn = json.loads(call_json("exercise_cases", json.dumps(draw)))["cases"]
        assert len(drawn) == draw["count"] + len(draw["fixed"]) and any(case["expected"] for case in drawn)


def test_a_data_file_beside_the_modules_reaches_the_browser(tmp_path: Path) -> None:
    """A data file that a calculator would read through importlib.resources (as chips.py reads chips.toml) is in the
    wheel and readable in Pyodide, in a sub-folder too."""
    package = tmp_path / "calculators"
    shutil.copytree(Path(calculators.__file__).parent, package, ignore=shutil.ignore_patterns("__pycache__"))
    (package / "tables").mkdir()
    (package / "tables" / "prices.csv").write_text("chip,usd_per_hour\nh100-sxm,2.99\n", encoding="utf-8")
    wheels = [
        build_wheel(Path(calckit.__file__).parent, calckit.__version__, tmp_path / "dist"),
        build_wheel(package, calculators.__version__, tmp_path / "dist"),
    ]
    script = (
        'import { loadPyodide } from "pyodide";'
        "const pyodide = await loadPyodide();"
        "await pyodide.loadPackage(process.argv.slice(1), { messageCallback: () => {} });"
        "process.stdout.write(pyodide.runPython("
        '`from importlib import resources; resources.files("calculators").joinpath("tables/prices.csv").read_text()`'
        "));"
    )
    node = shutil.which("node")
    assert node, "Node.js is needed for the conformance layer"
    command = [node, "--input-type=module", "-e", script, *map(str, wheels)]
    result = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=300, check=False)
    assert result.returncode == 0, python_failure(result.stderr)
    assert result.stdout == "chip,usd_per_hour\nh100-sxm,2.99\n"
