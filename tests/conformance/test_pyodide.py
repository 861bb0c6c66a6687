"""The same package in Pyodide (under Node, from the pinned npm package) gives output identical to CPython's."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from mkdocs_calculators.wheel import build_wheel

import calculators
from calculators import CALCULATORS
from calculators.api import run_json
from tests.conformance.cases import golden_cases
from tests.support import NODE_MODULES, ROOT

pytestmark = pytest.mark.conformance


@pytest.fixture(scope="module")
def pyodide_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[dict[str, object]], dict[str, object]]:
    node = shutil.which("node")
    assert node, "Node.js is needed for the conformance layer"
    assert (NODE_MODULES / "pyodide/pyodide.mjs").is_file(), "run `npm ci` first (make test does)"
    work = tmp_path_factory.mktemp("conformance")
    wheel = build_wheel(Path(calculators.__file__).parent, calculators.__version__, work)
    cases = golden_cases()
    (work / "cases.json").write_text(json.dumps(cases))
    script = ROOT / "tests/conformance/run_in_pyodide.mjs"
    result = subprocess.run(
        [node, str(script), str(wheel), str(work / "cases.json")],
        capture_output=True,
        text=True,
        cwd=ROOT,  # so that `import "pyodide"` resolves in the project's node_modules
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr
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
        assert output == run_json(str(case["name"]), json.dumps(case["inputs"])), case


def test_cases_cover_every_calculator_and_both_outcomes() -> None:
    cases = golden_cases()
    assert {case["name"] for case in cases} == set(CALCULATORS)
    outcomes = {json.loads(run_json(str(c["name"]), json.dumps(c["inputs"])))["ok"] for c in cases}
    assert outcomes == {True, False}
