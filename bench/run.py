"""One bench run: the builds (T6), then the browser (T2-T5, R3); the raw numbers, the table, and the JSON file."""

from __future__ import annotations

import json
import os
import platform
import subprocess
import time
from datetime import UTC, datetime
from typing import Any

from bench.browser import ALL, measure_browser
from bench.build import measure_builds
from bench.figures import Figure, table
from tests.support import NODE_MODULES, ROOT

__all__ = ["RESULTS", "main"]

RESULTS = ROOT / ".bench" / "results.json"
ORDER = ("T2", "T3", "T4", "T5", "T6", "T7", "R3")


def _machine() -> dict[str, Any]:
    commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=False)
    changed = subprocess.run(["git", "status", "--porcelain"], cwd=ROOT, capture_output=True, text=True, check=False)
    pyodide = json.loads((NODE_MODULES / "pyodide" / "package.json").read_text(encoding="utf-8"))["version"]
    return {
        "commit": commit.stdout.strip() or None,
        "uncommitted_changes": bool(changed.stdout.strip()),
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "pyodide": pyodide,
    }


def main(only: frozenset[str] = ALL) -> int:
    """Measure the figures in `only` (all of them by default), print, write; exit status 1 when a measurement broke
    (a missed target is not a failure)."""
    started = time.perf_counter()
    load_at_start = os.getloadavg()[0]  # other work on the machine makes every figure noisier
    build_figures, build_raw = measure_builds() if "T6" in only else ([], {})
    browser_figures, browser_raw = measure_browser(only) if only - {"T6"} else ([], {})
    figures = sorted([*build_figures, *browser_figures], key=_order)
    results: dict[str, Any] = {
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "only": sorted(only),
        "seconds": round(time.perf_counter() - started, 1),
        "machine": {
            **_machine(),
            "chromium": browser_raw.pop("chromium", None),
            "load_average_1min": {"start": load_at_start, "end": os.getloadavg()[0]},
        },
        "figures": [figure.as_dict() for figure in figures],
        "raw": {"T6": build_raw, **browser_raw},
    }
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")

    print(f"\nmachine: {json.dumps(results['machine'])}")
    print(f"raw numbers: above, and all of them in {RESULTS.relative_to(ROOT)}")
    load = results["machine"]["load_average_1min"]
    print(
        f"\nFigures of the design brief ({results['seconds']:.0f} s, {results['when']}; load average over 1 min "
        f"{load['start']:.2f} before, {load['end']:.2f} after, on {results['machine']['cpus']} cores):\n"
    )
    print(table(figures))
    return 1 if any(figure.error for figure in figures) else 0


def _order(figure: Figure) -> int:
    return ORDER.index(figure.id[:2]) if figure.id[:2] in ORDER else len(ORDER)
