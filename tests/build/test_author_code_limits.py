"""R10: the book's code that hangs or returns the wrong kind of value stops the strict build with one located line,
within its time limit, never a traceback or a hang; `mkdocs serve` keeps answering and picks up the fix.

Each build runs under a timeout it must beat by far (TIMEOUT, against a limit of LIMIT seconds).
"""

from __future__ import annotations

import functools
import json
import re
import shutil
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.build.sites import Build
from tests.build.test_author_code import PACKAGE, ROOFLINE_TEXT, _compute_line, build_with_package
from tests.build.test_runtime_build import build_info
from tests.support import NODE_MODULES, Together, build_env, free_port, started_together

LIMIT = 2  # seconds: the fixtures' time_limit
TIMEOUT = 90  # seconds a build may take before the test fails as hung (a plain one takes about 10 on a busy machine)
PAGE = "# Roofline\n\n```calculator\nuse: roofline\nintensity: 13\n```\n\n```calculator\nuse: roofline\n```\n"
INPUTS = (
    "chip=h100-sxm, precision=bf16, peak_tflops=989.4, bandwidth_tbs=3.35, workload=intensity, intensity=13, m=4096, "
    "n=4096, k=4096, params_b=7, tokens=2048, batch=1"
)
# What hangs, first in the compute function, and the line of it where the build finds the code stuck (from the first).
HANGS = {
    "a Python loop": ('    while inputs["intensity"] == 13: pass', 0),
    "a sleep in C": ('    if inputs["intensity"] == 13:\n        import time\n        time.sleep(10**6)', 2),
    "arithmetic in C": ('    if inputs["intensity"] == 13:\n        return 10**10**8', 1),
}


def roofline_with(statements: str) -> str:
    """roofline.py with `statements` first in its compute function."""
    lines = ROOFLINE_TEXT.split("\n")
    lines.insert(_compute_line() - 1, statements)
    return "\n".join(lines)


def assert_clean(build_output: str) -> None:
    assert "Traceback" not in build_output
    assert len(build_output) < 5000, build_output[:5000]


# Each hang is met at an intensity of its own (13, 14, ...), by one calculator block each on one page, followed by a
# block on roofline's defaults, which must be computed as usual.
HANG_AT = {name: 13 + number for number, name in enumerate(HANGS)}
HANGS_PAGE = (
    "# Roofline\n"
    + "".join(f"\n```calculator\nuse: roofline\nintensity: {at}\n```\n" for at in HANG_AT.values())
    + "\n```calculator\nuse: roofline\n```\n"
)


@pytest.fixture(scope="module")
def hangs(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, float, Build]:
    """roofline.py with every hang in its compute, each at its intensity; one strict build of HANGS_PAGE with it, and
    how long that build took."""
    statements = "\n".join(
        statement.replace('inputs["intensity"] == 13', f'inputs["intensity"] == {HANG_AT[name]}')
        for name, (statement, _) in HANGS.items()
    )
    root = tmp_path_factory.mktemp("hangs")
    started = time.monotonic()
    text = roofline_with(statements)
    build = build_with_package(
        root, {"roofline.py": text}, HANGS_PAGE, timeout=2 * TIMEOUT, plugin={"time_limit": LIMIT}
    )
    return text, time.monotonic() - started, build


@pytest.mark.parametrize("name", HANGS)
def test_a_compute_that_never_returns_is_stopped_at_its_limit(hangs: tuple[str, float, Build], name: str) -> None:
    """The build names the page's line, the calculator, the inputs and the line the code was stuck on, and the
    page's other calculators are computed as usual (their blocks have no error): one build meets every hang, each
    stopped at its limit, within a third of TIMEOUT for each (one build for one hang had half of it)."""
    text, took, build = hangs
    number = list(HANGS).index(name)
    statement, stuck = HANGS[name]
    first = statement.replace('inputs["intensity"] == 13', f'inputs["intensity"] == {HANG_AT[name]}').split("\n")[0]
    line = text[: text.index(first)].count("\n") + 1 + stuck
    inputs = INPUTS.replace("intensity=13", f"intensity={HANG_AT[name]}")
    assert took < TIMEOUT / 3 * len(HANGS)
    assert build.returncode != 0, build.output
    errors = build.errors()
    assert len(errors) == len(HANGS), build.output
    assert errors[number] == (
        f"docs/index.md:{_fence_line(number)}: calculator 'roofline' did not finish within {LIMIT} s for these inputs "
        f"({inputs}) (calculators/roofline.py:{line})"
    ), build.output
    assert_clean(build.output)


def _fence_line(number: int) -> int:
    """The line of a page's block `number` (from 0), on HANGS_PAGE and WRONG_PAGE: each block takes five lines after
    the title's two."""
    return 3 + 5 * number


# Every output right but 'attainable' (ROOFLINE is the module's calculator, defined below its compute function).
RIGHT = '**{o.key: "memory" if o.format == "text" else 1.0 for o in ROOFLINE.outputs}'
WRONG = {
    "None": (f'Result({{{RIGHT}, "attainable": None}}, "")', "output 'attainable' is None"),
    "a bool": (f'Result({{{RIGHT}, "attainable": True}}, "")', "output 'attainable' is True, not a number"),
    "text": (
        f'Result({{{RIGHT}, "attainable": "twelve"}}, "")',
        "output 'attainable' is the text 'twelve', not a number (a text stands for a number only with a note saying "
        "why)",
    ),
    "a list": (f'Result({{{RIGHT}, "attainable": [1.0]}}, "")', "output 'attainable' is a list, not a number"),
    "a dict": (
        '{"attainable": 1.0}',
        "returned a dict, not a calckit.spec.Result (return Result(values, summary) from compute)",
    ),
}


# Each wrong kind is returned for an intensity of its own (13, 14, ...), by one calculator block each on one page.
WRONG_AT = {name: 13 + number for number, name in enumerate(WRONG)}
WRONG_PAGE = "# Roofline\n" + "".join(
    f"\n```calculator\nuse: roofline\nintensity: {at}\n```\n" for at in WRONG_AT.values()
)


@pytest.fixture(scope="module")
def wrong_outputs(tmp_path_factory: pytest.TempPathFactory) -> Build:
    """One strict build of a page whose blocks each get one wrong kind of output from roofline's compute."""
    statements = "\n".join(
        f'    if inputs["intensity"] == {WRONG_AT[name]}:\n        return {returned}'
        for name, (returned, _) in WRONG.items()
    )
    return build_with_package(
        tmp_path_factory.mktemp("wrong-outputs"),
        {"roofline.py": roofline_with(statements)},
        WRONG_PAGE,
        timeout=TIMEOUT,
        plugin={"time_limit": LIMIT},
    )


@pytest.mark.parametrize("name", WRONG)
def test_an_output_of_the_wrong_kind_is_one_located_line(wrong_outputs: Build, name: str) -> None:
    """`docs/page.md:LINE: calculator 'NAME' output 'KEY' is None for these inputs (...) (calculators/x.py:LINE)`,
    the line being the compute function's: one line for its block, and no other error but the other blocks' own."""
    number = list(WRONG).index(name)
    inputs = INPUTS.replace("intensity=13", f"intensity={WRONG_AT[name]}")
    assert wrong_outputs.returncode != 0, wrong_outputs.output
    errors = wrong_outputs.errors()
    assert len(errors) == len(WRONG), wrong_outputs.output
    assert errors[number] == (
        f"docs/index.md:{_fence_line(number)}: calculator 'roofline' {WRONG[name][1]} for these inputs ({inputs}) "
        f"(calculators/roofline.py:{_compute_line() - 1})"
    ), wrong_outputs.output
    assert "Traceback" not in wrong_outputs.output
    assert len(wrong_outputs.output) < 5000, wrong_outputs.output[:5000]


# Code at a module's top level that never returns: in Python, in C letting other threads run, in C holding the
# interpreter (which hung the build when it imported the package beside its compute process).
IMPORT_HANGS = {
    "a Python loop": "while True: pass",
    "a sleep in C": "import time; time.sleep(10**6)",
    "a wait in C": "import select; select.select([], [], [])",
    "arithmetic in C": "x = 10**10**8",
}


def _import_hang_build(root: Path, statement: str) -> tuple[Build, int]:
    """A build whose package's training.py runs `statement` at its top level, and that line."""
    training = (PACKAGE / "training.py").read_text(encoding="utf-8")
    hanging = training.replace("\n__all__", f"\n{statement}\n__all__", 1)
    line = hanging[: hanging.index(statement)].count("\n") + 1
    build = build_with_package(
        root, {"training.py": hanging}, "# Empty\n", timeout=TIMEOUT, plugin={"time_limit": LIMIT}
    )
    return build, line


@pytest.fixture(scope="module")
def import_hangs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Together]:
    """The builds of each import that hangs, started together: each waits out the import's limit (12 s), two of them
    spending a core meanwhile; each test reads its own."""
    runs = {
        name: functools.partial(_import_hang_build, tmp_path_factory.mktemp("import"), statement)
        for name, statement in IMPORT_HANGS.items()
    }
    with started_together(**runs) as results:
        yield results


@pytest.mark.parametrize("hang", IMPORT_HANGS)
def test_a_package_whose_import_hangs_is_stopped(import_hangs: Together, hang: str) -> None:
    """The build stops at that line, within seconds of the import's limit (the bound says it did not hang)."""
    (build, line), took = import_hangs[hang]()
    assert took < 60
    assert build.returncode != 0, build.output
    # The import may take longer than a compute: six limits, and at least ten seconds.
    assert build.errors() == [
        f"calculators/training.py:{line}: calculators: importing the package 'calculators' did not finish within 12 s"
    ], build.output
    assert_clean(build.output)


QUIZ = """# Quiz

```quiz
id: q
questions:
  - id: speed
    kind: numeric
    text: A kernel does {intensity} FLOPs per byte. How many TFLOP/s can it reach?
    inputs:
      intensity: 13
    answer:
      calculator: roofline
      output: attainable
    unit: TFLOP/s
    tolerance: 2%
```
"""


def test_a_quiz_whose_calculator_hangs_is_stopped(tmp_path: Path) -> None:
    build = build_with_package(
        tmp_path,
        {"roofline.py": roofline_with(HANGS["a Python loop"][0])},
        QUIZ,
        timeout=TIMEOUT,
        plugin={"time_limit": LIMIT},
    )
    assert build.returncode != 0, build.output
    (error,) = build.errors()
    assert re.fullmatch(
        rf"docs/index\.md:3: calculator 'roofline' did not finish within {LIMIT} s for these inputs \(.*intensity=13, "
        rf".*\) \(calculators/roofline\.py:{_compute_line()}\)",
        error,
    ), build.output
    assert_clean(build.output)


def _get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=5) as response:
        return str(response.read().decode("utf-8"))


def _wait_for(url: str, text: str, seconds: float) -> str:
    deadline, page = time.monotonic() + seconds, ""
    while time.monotonic() < deadline:
        try:
            page = _get(url)
        except OSError:
            page = ""
        if text in page:
            return page
        time.sleep(0.3)
    raise AssertionError(f"{url} never showed {text!r} within {seconds} s:\n{page[-2000:]}")


def test_serve_keeps_answering_and_picks_up_the_fix(tmp_path: Path) -> None:
    """`mkdocs serve` with a compute that hangs: the page says why, the server answers, and a fixed file is built."""
    hanging = roofline_with(HANGS["arithmetic in C"][0])
    build_with_package(tmp_path, {"roofline.py": hanging}, PAGE, timeout=TIMEOUT, plugin={"time_limit": LIMIT})
    shutil.rmtree(tmp_path / "site")
    port = free_port()
    serve = subprocess.Popen(
        [sys.executable, "-m", "mkdocs", "serve", "--no-strict", "--dev-addr", f"127.0.0.1:{port}"],
        cwd=tmp_path,
        env=build_env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        page = _wait_for(f"http://127.0.0.1:{port}/", "did not finish within", TIMEOUT)
        assert "This calculator block has problems" in page
        assert page.count('data-calculator="roofline"') == 1  # the page's other calculator, computed
        (tmp_path / "calculators/roofline.py").write_text(ROOFLINE_TEXT, encoding="utf-8")
        page = _wait_for(f"http://127.0.0.1:{port}/", 'id="calc-1"', TIMEOUT)
        assert "did not finish" not in page
    finally:
        serve.terminate()
        try:
            _, errors = serve.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            serve.kill()
            pytest.fail("mkdocs serve did not stop")
    assert f"docs/index.md:3: calculator 'roofline' did not finish within {LIMIT} s for these inputs" in errors
    assert "Traceback" not in errors


def test_a_compute_that_hangs_only_in_pyodide_is_stopped_in_the_snapshot(tmp_path: Path) -> None:
    """The memory snapshot runs each calculator on its defaults in Pyodide under Node, each within the limit."""
    statements = '    import sys\n    while sys.platform == "emscripten": pass'
    build = build_with_package(
        tmp_path,
        {"roofline.py": roofline_with(statements)},
        "# Empty\n",
        timeout=300,
        plugin={"time_limit": LIMIT, "snapshot": True},
    )
    assert build.returncode != 0, build.output
    assert build.errors() == [
        f"calculators/roofline.py:{_compute_line() - 1}: calculator 'roofline' did not finish within {LIMIT} s on its "
        "defaults in Pyodide (run by Node to make the memory snapshot; the build's Python computed them in time: "
        "look for code that behaves differently in the browser)"
    ], build.output
    assert_clean(build.output)


HOW_TO_SHIP = (
    "the reader's browser has the standard library, calckit and the book's package; to ship a pure-Python "
    "distribution installed here, list it under the plugin's 'browser_dependencies' (docs/own-book.md)"
)
IMPORTS_ATTRS = ROOFLINE_TEXT.replace("\n__all__", "\nimport attrs\n__all__", 1)
ATTRS_LINE = IMPORTS_ATTRS[: IMPORTS_ATTRS.index("import attrs")].count("\n") + 1


@pytest.mark.parametrize("snapshot", [True, False], ids=["snapshot", "no snapshot"])
def test_an_import_the_browser_lacks_is_refused_at_every_build(tmp_path: Path, snapshot: bool) -> None:
    """attrs is installed here, so CPython imports it; the browser has no attrs. `snapshot: false` as well."""
    build = build_with_package(tmp_path, {"roofline.py": IMPORTS_ATTRS}, timeout=TIMEOUT, plugin={"snapshot": snapshot})
    assert build.returncode != 0, build.output
    assert build.errors() == [
        f"calculators/roofline.py:{ATTRS_LINE}: ModuleNotFoundError: No module named 'attrs' ({HOW_TO_SHIP})"
    ], build.output
    assert_clean(build.output)


def test_what_the_browser_lacks_but_may_be_imported_in_other_ways_passes(tmp_path: Path) -> None:
    """Under TYPE_CHECKING, or guarded by `except ImportError`, an import is meant to be missing at run time; the
    standard library (json, math, tomllib) and calckit are in the browser."""
    guarded = (
        "\nfrom typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import attrs\n"
        "try:\n    import yaml\nexcept ImportError:\n    yaml = None\nimport json, tomllib\n"
    )
    text = ROOFLINE_TEXT.replace("\n__all__", guarded + "__all__", 1)
    build = build_with_package(tmp_path, {"roofline.py": text}, timeout=TIMEOUT, plugin={"snapshot": False})
    assert build.returncode == 0, build.output


def test_a_pure_python_dependency_is_shipped_in_a_wheel_of_its_own(tmp_path: Path) -> None:
    """`browser_dependencies: [attrs]`: the build passes, a content-hashed attrs wheel is shipped before the book's,
    and the memory snapshot (the package imported in Pyodide under Node) shows that Pyodide imports it."""
    build = build_with_package(
        tmp_path,
        {"roofline.py": IMPORTS_ATTRS},
        timeout=300,
        plugin={"browser_dependencies": ["attrs"], "snapshot": True},
    )
    assert build.returncode == 0, build.output
    wheels = sorted(path.name.split("-")[0] for path in (build.site / "assets/calculators").glob("*.whl"))
    assert wheels == ["attrs", "calckit", "calculators"]
    order = build_info(build.site)["wheels"]
    assert isinstance(order, list) and [name.split("-")[0] for name in order] == [
        "calckit",
        "attrs",
        "calculators",
    ]
    # A snapshot made from exactly these wheels (its name hashes them) is only there if Pyodide imported the package
    # with attrs under Node: made by this build, or by an earlier one and kept in the runtime's cache.
    assert len(list((build.site / "assets/calculators").glob("snapshot-*.bin"))) == 1, build.output


def test_a_dependency_with_compiled_code_is_refused(tmp_path: Path) -> None:
    build = build_with_package(tmp_path, {}, timeout=TIMEOUT, plugin={"browser_dependencies": ["PyYAML"]})
    assert build.returncode != 0, build.output
    (error,) = build.errors()
    assert re.fullmatch(
        r"calculators: 'browser_dependencies' names 'PyYAML', which is not pure Python \(yaml/_yaml\.\S+ is "
        r"compiled code\): only pure-Python distributions can be shipped to the browser",
        error,
    ), build.output


def test_a_chart_vega_lite_refuses_is_one_located_line(tmp_path: Path) -> None:
    """A mark type 'lyne' in the chart drawn for a page's inputs: the build names the page's line, the place in the
    spec and what Vega-Lite allows there."""
    statements = "\n".join(
        [
            '    if inputs["intensity"] == 13 and "again" not in inputs:',
            "        import dataclasses",
            '        good = _compute({**inputs, "again": 1})',
            "        assert good.chart is not None",
            '        layer = {**good.chart["layer"][0], "mark": "lyne"}',
            '        return dataclasses.replace(good, chart={**good.chart, "layer": [layer]})',
        ]
    )
    build = build_with_package(
        tmp_path, {"roofline.py": roofline_with(statements)}, PAGE, timeout=TIMEOUT, plugin={"snapshot": False}
    )
    assert build.returncode != 0, build.output
    (error,) = build.errors()
    version = json.loads((NODE_MODULES / "vega-lite/package.json").read_text(encoding="utf-8"))["version"]
    assert error.startswith(
        f"docs/index.md:3: calculator 'roofline' draws a chart that Vega-Lite {version} refuses: at layer[0].mark: "
        "'lyne' is not one of ['arc', 'area', 'bar', "
    ), build.output
    assert error.endswith(f"(for these inputs: {INPUTS})")
    assert_clean(build.output)


EXERCISE = """# Exercise

```exercise
id: attainable
title: Attainable throughput
prompt: Return the throughput the kernel can reach, in TFLOP/s.
function: attainable(peak_tflops, bandwidth_tbs, intensity)
starter: |
  def attainable(peak_tflops, bandwidth_tbs, intensity):
      ...
solution: |
  def attainable(peak_tflops, bandwidth_tbs, intensity):
      while intensity > 0: pass
check:
  calculator: roofline
  output: attainable
  unit: TFLOP/s
  cases: 3
  tolerance: 1e-6 relative
```
"""


def test_an_exercise_whose_solution_never_returns_is_stopped(tmp_path: Path) -> None:
    build = build_with_package(tmp_path, {}, EXERCISE, timeout=TIMEOUT, plugin={"time_limit": LIMIT, "snapshot": False})
    assert build.returncode != 0, build.output
    assert build.errors() == [
        f"docs/index.md:3: exercise block: the solution did not finish within {LIMIT} s (line 2 of the solution)"
    ], build.output
    assert_clean(build.output)


def test_a_quiz_whose_calculator_raises_is_one_located_line(tmp_path: Path) -> None:
    """Not in the issue: a numeric question whose calculator raises for its inputs gave a traceback."""
    statements = '    if inputs["intensity"] == 13:\n        return 1 / (inputs["intensity"] - 13)'
    build = build_with_package(
        tmp_path, {"roofline.py": roofline_with(statements)}, QUIZ, timeout=TIMEOUT, plugin={"snapshot": False}
    )
    assert build.returncode != 0, build.output
    (error,) = build.errors()
    assert re.fullmatch(
        r"docs/index\.md:3: calculator 'roofline' failed for these inputs \(.*intensity=13, .*\): ZeroDivisionError: "
        rf"float division by zero \(calculators/roofline\.py:{_compute_line() + 1}\)",
        error,
    ), build.output
    assert_clean(build.output)


def test_a_compute_that_returns_what_cannot_be_sent_is_one_located_line(tmp_path: Path) -> None:
    """Not in the issue: a generator (a `yield` left in compute) cannot leave the compute process."""
    statements = '    if inputs["intensity"] == 13:\n        return (x for x in [1])'
    build = build_with_package(
        tmp_path, {"roofline.py": roofline_with(statements)}, PAGE, timeout=TIMEOUT, plugin={"snapshot": False}
    )
    assert build.returncode != 0, build.output
    (error,) = build.errors()
    assert error.startswith(
        f"docs/index.md:3: calculator 'roofline' failed for these inputs ({INPUTS}): TypeError: compute returned a "
        "generator, not a calckit.spec.Result ("
    ), build.output
    assert_clean(build.output)
