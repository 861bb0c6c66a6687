"""The chip database: published figures of AI accelerators, every one with its source.

The figures live in `chips.toml` next to this module (its header documents the schema). Peaks are dense: where a
vendor's headline counts structured sparsity, the dense figure is stored, `headline_sparse` is set and the
headline kept beside it. The data classes are in chip_model, the reading and checking of the file in chip_schema;
this module loads the package's file once and is what the calculators and tables use.

Standard library only (`tomllib`, `importlib.resources`): it runs at build time and in Pyodide alike.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Iterable
from importlib import resources
from typing import Final

from calckit.table import Source, newest_date

from .chip_lines import ChipDataError
from .chip_model import PRECISION_LABELS, PRECISION_UNITS, PRECISIONS, Chip, ChipDatabase, Figure
from .chip_schema import DATABASE_FILE, PLAUSIBLE, PRICE_CLASSES, parse_chips, parse_database

__all__ = [
    "PLAUSIBLE",
    "PRECISIONS",
    "PRECISION_LABELS",
    "PRECISION_UNITS",
    "PRICE_CLASSES",
    "Chip",
    "ChipDataError",
    "ChipDatabase",
    "Figure",
    "Source",
    "as_of",
    "get_chip",
    "load_chips",
    "load_sources",
    "parse_chips",
    "parse_database",
]


def load_chips() -> dict[str, Chip]:
    """Every chip in the package's chips.toml by id, in file order (parsed once, then cached)."""
    return dict(_database().chips)


def load_sources() -> dict[str, Source]:
    """Every source in the package's chips.toml by id, in file order."""
    return dict(_database().sources)


def get_chip(chip_id: str) -> Chip:
    """The chip with this id; KeyError listing the known ids otherwise."""
    chips = _database().chips
    try:
        return chips[chip_id]
    except KeyError:
        raise KeyError(f"no chip {chip_id!r}; known chips: {', '.join(chips)}") from None


def as_of(chips: Iterable[Chip]) -> str:
    """The newest date among the sources of these chips' figures (calckit.table.newest_date); "" if none is dated."""
    return newest_date(figure.source for chip in chips for figure in chip.figures())


# In the reader's browser (Pyodide) the file is the one the build already checked, and the reader's clock may be
# wrong: a clock set a month back must not turn the book's sources into "future" ones and stop every calculator.
_IN_BROWSER: Final = sys.platform == "emscripten"


@functools.cache
def _database() -> ChipDatabase:
    package = __package__ or "calculators"
    text = resources.files(package).joinpath(DATABASE_FILE).read_text(encoding="utf-8")
    return parse_database(text, check_dates=not _IN_BROWSER)
