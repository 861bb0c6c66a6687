"""Every calculator by name."""

from __future__ import annotations

from .roofline import ROOFLINE
from .spec import Calculator

__all__ = ["CALCULATORS", "get"]

CALCULATORS: dict[str, Calculator] = {calculator.name: calculator for calculator in (ROOFLINE,)}


def get(name: str) -> Calculator:
    """The calculator called `name`; KeyError naming the known ones otherwise."""
    try:
        return CALCULATORS[name]
    except KeyError:
        raise KeyError(f"unknown calculator '{name}' (expected one of: {', '.join(sorted(CALCULATORS))})") from None
