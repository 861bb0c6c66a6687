"""Budgets at build (extras/budgets.py, runtime/snapshot.py): a calculator whose chart has 50,000 points is warned of
at its block
(and so is the page it swells), and the memory snapshot it grows past what Pyodide can restore stops the strict build
with the reason, found by restoring it under Node as the reader's browser would; without Node, a book that asks for a
snapshot does not quietly ship a plain boot either."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from mkdocs_calculators.extras.budgets import CHART_POINTS, PAGE_BYTES, chart_points
from tests.build.test_own_book_guide import guide_files
from tests.build.test_runtime_build import private_node_modules
from tests.support import NODE_MODULES, build_env

SWEEP = '''"""A resistor's current at each of many voltages, drawn point by point."""

from __future__ import annotations

from collections.abc import Mapping

from calckit.charts import layered
from calckit.spec import Calculator, Input, Output, Result, Value, number


def _compute(inputs: Mapping[str, Value]) -> Result:
    ohms, points = number(inputs, "ohms"), int(number(inputs, "points"))
    values = [{"volts": i / 100, "amps": i / 100 / ohms} for i in range(points)]
    line = {
        "data": {"values": values},
        "mark": "line",
        "encoding": {"x": {"field": "volts", "type": "quantitative"}, "y": {"field": "amps", "type": "quantitative"}},
    }
    return Result({"top": values[-1]["amps"]}, f"{points} points.", chart=layered("Current against voltage", [line]))


SWEEP = Calculator(
    name="sweep",
    title="Current sweep",
    description="The current through a resistor at each of many voltages.",
    inputs=(
        Input("ohms", "Resistance", unit="Ω", default=100.0, min=1, max=1e9),
        Input("points", "Points", default=POINTS, min=2, max=100000),
    ),
    outputs=(Output("top", "Current at the top", unit="A", digits=3),),
    compute=_compute,
)
'''
INIT = '''"""Calculators for a book on electrical circuits."""

from .ohm import OHMS_LAW
from .sweep import SWEEP

CALCULATORS = {OHMS_LAW.name: OHMS_LAW, SWEEP.name: SWEEP}
__version__ = "0.1.0"
'''


def _book(root: Path, points: int, node_modules: Path = NODE_MODULES) -> Path:
    """The own-book guide's book with a second calculator whose chart has `points` points on its defaults, on a page
    of its own."""
    for path, text in guide_files().items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text, encoding="utf-8")
    (root / "circuits/sweep.py").write_text(SWEEP.replace("POINTS", str(points)), encoding="utf-8")
    (root / "circuits/__init__.py").write_text(INIT, encoding="utf-8")
    (root / "docs/sweep.md").write_text("# A sweep\n\nMany voltages:\n\n```calculator\nuse: sweep\n```\n")
    config = root / "mkdocs.yml"
    text = config.read_text(encoding="utf-8").replace(
        "  - Home: index.md\n", "  - Home: index.md\n  - Sweep: sweep.md\n"
    )
    config.write_text(text, encoding="utf-8")
    _add_options(root, f"node_modules: {node_modules}")
    return root


def _add_options(root: Path, *options: str) -> None:
    """Lines added to the plugin's options in the book's mkdocs.yml."""
    config = root / "mkdocs.yml"
    added = "".join(f"      {option}\n" for option in options)
    text = config.read_text(encoding="utf-8").replace("      package: circuits\n", f"      package: circuits\n{added}")
    config.write_text(text, encoding="utf-8")


def _build(root: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """`mkdocs build` as the guide runs it (its mkdocs.yml is strict), the book's package importable from `root`."""
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--site-dir", str(root / "site")],
        cwd=root,
        env=build_env(PYTHONPATH=os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")]), **env),
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def test_the_budgets_sit_above_this_books_largest() -> None:
    """Measured on this book (extras/budgets.py): its largest chart has 117 points, its largest page 0.42 MB of blocks.
    """
    assert CHART_POINTS == 5_000
    assert PAGE_BYTES == 1_000_000
    assert chart_points({"layer": [{"data": {"values": [{}] * 3}}, {"data": {"values": [{}] * 4}}]}) == 7
    assert chart_points({"datasets": {"a": [{}] * 5}, "data": {"name": "a"}}) == 5


def test_a_chart_over_its_budget_is_warned_of_at_its_block(tmp_path: Path) -> None:
    root = _book(tmp_path, 50_000)
    _add_options(root, "snapshot: false")
    result = _build(root)
    warnings = re.findall(r"^WARNING\s+-\s+(.*)$", result.stderr, re.M)
    assert result.returncode == 1, result.stderr
    chart = "docs/sweep.md:5: calculator 'sweep': its chart has 50,000 data points, over the budget of 5,000 a chart: "
    assert [line for line in warnings if line.startswith(chart)], result.stderr
    page = [line for line in warnings if line.startswith("docs/sweep.md:5: this page inlines ")]
    assert page, result.stderr
    megabytes = float(re.search(r"inlines (\d+\.\d+) MB", page[0])[1])  # type: ignore[index]
    assert 2.0 < megabytes < 3.5  # 50,000 rows of two numbers, JSON in an attribute
    assert not [line for line in warnings if line.startswith("docs/index.md")]  # the guide's own page is small

    small = _book(tmp_path / "small", 4_000)
    _add_options(small, "snapshot: false")
    within = _build(small)
    assert within.returncode == 0, within.stderr
    assert "WARNING" not in within.stderr


def test_a_snapshot_that_cannot_be_restored_stops_the_strict_build(tmp_path: Path) -> None:
    """A package that holds 10 MB after its import grows the snapshot past what Pyodide restores: restored under Node
    at build, it fails with Pyodide's reason, and the strict build stops on that error alone. (Its charts are within
    the budget: a build that has already warned makes no snapshot, as strict mode will abort it anyway, and whether
    the pages' warnings come before the snapshot is decided depends on the machine's load.)"""
    node_modules = private_node_modules(tmp_path)
    root = _book(tmp_path / "book", 4_000, node_modules)
    sweep = root / "circuits/sweep.py"
    sweep.write_text(sweep.read_text(encoding="utf-8") + "\nTABLE = bytearray(10_000_000)\n", encoding="utf-8")
    result = _build(root)
    errors = re.findall(r"^ERROR\s+-\s+(.*)$", result.stderr, re.M)
    assert result.returncode == 1, result.stderr
    assert "WARNING" not in result.stderr  # the snapshot's error is what stops it
    unrestorable = (
        r"calculators: the memory snapshot this build made \(\d+ MB\) cannot be restored: (?P<reason>[^(]*) \("
    )
    reasons = [match["reason"] for line in errors if (match := re.match(unrestorable, line))]
    assert reasons == ["offset is out of bounds"], result.stderr
    assert not list((node_modules / ".cache/mkdocs-calculators").glob("**/snapshot-*.bin"))  # nothing unrestorable kept
