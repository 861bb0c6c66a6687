"""What one chart and one page may carry before the build warns: the reader's browser downloads, parses and draws
all of it, and a calculator's chart on its defaults also goes into the memory snapshot (runtime/snapshot.py).

This book's largest chart has 117 data points and its largest page inlines 137 kB of blocks (its generated reference
of every calculator, 421 kB); a calculator whose chart had 50,000 points inlined 1.4 MB into each page that showed it
and grew the snapshot from 31 to 38 MB, past what Pyodide could restore. The budgets leave room above the book's
largest and stop well below that:

- a chart's data points: every row of its inline datasets, in every layer, at most CHART_POINTS (a chart a few
  hundred pixels wide cannot show more points than it has pixels: sample the curve);
- a page's blocks: the HTML of its calculators, quizzes, exercises and tables, at most PAGE_BYTES of UTF-8.

Above either, the build warns at the block's line (a strict build stops).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

__all__ = ["CHART_POINTS", "PAGE_BYTES", "chart_points", "over_chart_budget", "over_page_budget"]

CHART_POINTS = 5_000
PAGE_BYTES = 1_000_000


def chart_points(spec: Any) -> int:
    """The rows of every inline dataset of a Vega-Lite spec (`data.values` at any depth, and top-level `datasets`)."""
    if isinstance(spec, list):
        return sum(chart_points(item) for item in spec)
    if not isinstance(spec, dict):
        return 0
    count = 0
    for key, value in spec.items():
        if key == "values" and isinstance(value, list):
            count += len(value)
        elif key == "datasets" and isinstance(value, dict):
            count += sum(len(rows) for rows in value.values() if isinstance(rows, list))
        else:
            count += chart_points(value)
    return count


def over_chart_budget(spec: Any) -> str:
    """What a chart over its budget is told, or ""."""
    points = chart_points(spec)
    if points <= CHART_POINTS:
        return ""
    return (
        f"its chart has {points:,} data points, over the budget of {CHART_POINTS:,} a chart: every one is inlined "
        "into the page and drawn by the reader's browser, and the chart on the calculator's defaults goes into the "
        "memory snapshot too (sample the curve: a chart a few hundred pixels wide shows no more points than that)"
    )


def over_page_budget(sizes: Iterable[tuple[int, str]]) -> tuple[int, str] | None:
    """For a page's blocks (each block's line and HTML), the largest block's line and what the page is told, when the
    blocks' HTML is over the page's budget; else None."""
    blocks = [(len(html.encode()), line) for line, html in sizes]
    total = sum(size for size, _ in blocks)
    if total <= PAGE_BYTES or not blocks:
        return None
    largest, line = max(blocks)
    return line, (
        f"this page inlines {total / 1e6:.2f} MB of blocks (its calculators' forms, results and charts, its quizzes, "
        f"exercises and tables), over the budget of {PAGE_BYTES / 1e6:g} MB a page that readers download before "
        f"the page shows; the largest, this block, is {largest / 1e6:.2f} MB: split the page, or draw fewer points"
    )
