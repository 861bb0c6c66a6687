"""Every calculator by name."""

from __future__ import annotations

from .communication import ALLREDUCE
from .comparison import COMPARISON
from .energy import ENERGY
from .inference import INFERENCE
from .matmul import MATMUL
from .roofline import ROOFLINE
from .serving import SERVING
from .spec import Calculator
from .training import TRAINING
from .utilization import UTILIZATION

__all__ = ["CALCULATORS", "get"]

CALCULATORS: dict[str, Calculator] = {
    calculator.name: calculator
    for calculator in (ROOFLINE, UTILIZATION, COMPARISON, INFERENCE, ENERGY, TRAINING, MATMUL, ALLREDUCE, SERVING)
}


def get(name: str) -> Calculator:
    """The calculator called `name`; KeyError naming the known ones otherwise."""
    try:
        return CALCULATORS[name]
    except KeyError:
        raise KeyError(f"unknown calculator '{name}' (expected one of: {', '.join(sorted(CALCULATORS))})") from None
