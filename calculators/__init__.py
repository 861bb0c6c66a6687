"""Calculators for a course book on AI accelerators, and its chip database: this book's package for calckit.

It keeps calckit's contract (`calckit.book`): CALCULATORS, __version__ and TABLE, the chip database as a data table.
Standard library and calckit only: it runs at build (CPython) and in the reader's browser (Pyodide) alike.
"""

from .chip_table import TABLE
from .registry import CALCULATORS

__all__ = ["CALCULATORS", "TABLE"]
__version__ = "0.1.0"
