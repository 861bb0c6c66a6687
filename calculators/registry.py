"""Every calculator by name."""

from __future__ import annotations

from calckit.spec import Calculator

from .communication import ALLREDUCE
from .comparison import COMPARISON
from .energy import ENERGY
from .inference import INFERENCE
from .matmul import MATMUL
from .roofline import ROOFLINE
from .serving import SERVING
from .systolic import SYSTOLIC
from .training import TRAINING
from .utilization import UTILIZATION

__all__ = ["CALCULATORS"]


def _by_name(*calculators: Calculator) -> dict[str, Calculator]:
    """The calculators by name; a name used twice is refused (one would silently hide the other)."""
    by_name: dict[str, Calculator] = {}
    for calculator in calculators:
        if calculator.name in by_name:
            raise ValueError(f"two calculators are named '{calculator.name}': give each a name of its own")
        by_name[calculator.name] = calculator
    return by_name


CALCULATORS: dict[str, Calculator] = _by_name(
    ROOFLINE, UTILIZATION, COMPARISON, INFERENCE, ENERGY, TRAINING, MATMUL, ALLREDUCE, SERVING, SYSTOLIC
)
