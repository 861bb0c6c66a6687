"""A measured figure next to its target, a measurement that broke, and the table that lists them."""

from __future__ import annotations

import math
import statistics
import sys
import traceback
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = [
    "EDITOR_PATHS",
    "BenchError",
    "Figure",
    "editor_figures",
    "guarded",
    "is_editor",
    "median",
    "percentile",
    "table",
]

# The exercises' code editor in the built site: its entry module and the CodeMirror modules it imports.
EDITOR_PATHS = ("/assets/calculators/editor/", "/assets/calculators/editor.js")


class BenchError(Exception):
    """A measurement that could not be made: there is no figure to report."""


@dataclass(frozen=True)
class Figure:
    """One row of the table. Targets are upper bounds (`measured <= target`) unless `exact` or `at_least`.

    A row whose measurement broke has no target or value, and says why in `error`.
    """

    id: str
    what: str
    target: float | None
    measured: float | None
    unit: str = ""  # "x" (a ratio of times), "ms", "kB", "B", or "" (a count)
    detail: str = ""
    exact: bool = False
    at_least: bool = False  # a lower bound: a score, say
    error: str = ""

    @classmethod
    def broken(cls, id: str, what: str, error: BaseException) -> Figure:
        return cls(id, what, None, None, error=f"{type(error).__name__}: {error}".strip())

    @property
    def ratio(self) -> float | None:
        """measured / target; None for a target of zero (then any amount misses it), or when there is no figure."""
        if self.measured is None or not self.target:
            return None
        return self.measured / self.target

    @property
    def met(self) -> bool:
        if self.measured is None or self.target is None:
            return False
        if self.exact:
            return self.measured == self.target
        return self.measured >= self.target if self.at_least else self.measured <= self.target

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "what": self.what,
            "target": self.target,
            "exact": self.exact,
            "at_least": self.at_least,
            "measured": self.measured,
            "unit": self.unit,
            "ratio": self.ratio,
            "met": self.met,
            "detail": self.detail,
            "error": self.error or None,
        }


def guarded(id: str, what: str, measure: Callable[[], list[Figure]]) -> list[Figure]:
    """The figures `measure` returns, or one broken row if it raises: one broken measurement spares the others."""
    try:
        return measure()
    except Exception as error:  # a figure that cannot be measured is reported, then the run goes on
        if not isinstance(error, BenchError):
            traceback.print_exc()
        print(f"{id}: BROKEN: {error}", file=sys.stderr, flush=True)
        return [Figure.broken(id, what, error)]


def is_editor(path: str) -> bool:
    """Whether a requested path (from the site's root, such as /assets/calculators/editor.js) is the editor's."""
    return path.startswith(EDITOR_PATHS)


def editor_figures(
    without: Sequence[tuple[str, int]], with_exercise: Sequence[tuple[str, int]], gzipped: Mapping[str, int]
) -> list[Figure]:
    """T5 for the exercises' editor, from (path, bytes) downloads: a page without an exercise downloads none of it
    (target: none), and a page with one downloads it all; its size is reported, as sent and at gzip -9 (`gzipped`:
    the size of each editor file of the site, compressed)."""
    on_without = [(path, size) for path, size in without if is_editor(path)]
    loaded = sorted({path for path, _ in with_exercise if is_editor(path)})
    if not loaded:
        raise BenchError("the page with an exercise downloaded no editor file")
    missing = sorted(set(gzipped) - set(loaded))
    sent = sum(size for path, size in with_exercise if is_editor(path))
    detail = f"{len(loaded)} files, {sent:,} B as sent" + (f"; not loaded: {', '.join(missing)}" if missing else "")
    return [
        Figure(
            "T5",
            "editor bytes, page without an exercise",
            0,
            sum(size for _, size in on_without),
            "B",
            f"{len(on_without)} request{'s' if len(on_without) != 1 else ''}" if on_without else "no request",
        ),
        Figure(
            "T5",
            "editor, page with an exercise, gzip -9",
            None,
            sum(gzipped[path] for path in loaded) / 1000,
            "kB",
            detail,
        ),
    ]


def median(values: Sequence[float]) -> float:
    if not values:
        raise BenchError("no samples")
    return statistics.median(values)


def percentile(values: Sequence[float], p: float) -> float:
    """The nearest-rank percentile: the smallest sample with at least p% of the samples at or below it."""
    if not values:
        raise BenchError("no samples")
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def amount(value: float, unit: str) -> str:
    if unit == "x":
        return f"{value:.2f}x"
    if unit == "ms":
        return f"{value:.1f} ms" if value < 100 else f"{value:,.0f} ms"
    if unit == "kB":
        return f"{value:.1f} kB"
    if unit == "B":
        return f"{value:,.0f} B"
    return f"{value:g}"


def _target(figure: Figure) -> str:
    if figure.target is None:
        return "-"
    if not figure.target:
        return "none"
    return ("= " if figure.exact else ">= " if figure.at_least else "<= ") + amount(figure.target, figure.unit)


def _detail(figure: Figure, width: int = 110) -> str:
    if not figure.error:
        return figure.detail
    first = " ".join(figure.error.split())
    return first if len(first) <= width else first[: width - 1] + "…"


def table(figures: Sequence[Figure]) -> str:
    """The figures as an aligned plain-text table."""
    header = ("id", "figure", "target", "measured", "ratio", "met", "detail")
    rows = [
        (
            figure.id,
            figure.what,
            _target(figure),
            "BROKEN" if figure.measured is None else amount(figure.measured, figure.unit),
            "-" if figure.ratio is None else f"{figure.ratio:.2f}",
            "yes" if figure.met else "-" if figure.target is None and figure.measured is not None else "NO",
            _detail(figure),
        )
        for figure in figures
    ]
    widths = [max(len(row[column]) for row in (header, *rows)) for column in range(len(header))]
    right = {2, 3, 4}  # numbers line up on the right

    def line(row: Sequence[str]) -> str:
        cells = [
            cell.rjust(width) if i in right else cell.ljust(width)
            for i, (cell, width) in enumerate(zip(row, widths, strict=True))
        ]
        return "  ".join(cells).rstrip()

    rule = "  ".join("-" * width for width in widths)
    return "\n".join([line(header), rule, *(line(row) for row in rows)])
