"""A second book's calculators, from another field: it keeps calckit's contract (calckit/book.py)."""

from calckit import registry

from .ohm import OHMS_LAW
from .rc import RC_FILTER
from .wires import TABLE

CALCULATORS = registry(OHMS_LAW, RC_FILTER)
__all__ = ["CALCULATORS", "TABLE"]
__version__ = "0.1.0"
