"""Golden cases for the conformance layer: hand-picked ones, and a seeded sample over each calculator's inputs."""

from __future__ import annotations

import random
from typing import Any

from calculators import CALCULATORS, Calculator

HAND_PICKED: list[tuple[str, dict[str, Any]]] = [
    ("roofline", {}),
    ("roofline", {"peak_tflops": 197, "bandwidth_tbs": 0.819}),  # TPU v5e: ridge about 240
    ("roofline", {"intensity": "1,000"}),
    ("roofline", {"intensity": 295.2238805970149}),  # exactly at the ridge
    ("roofline", {"intensity": "-3", "peak_tflops": "abc"}),
    ("roofline", {"intensity": "nan"}),
    ("roofline", {"intensity": "1e999"}),
    ("roofline", {"bandwidth_tbs": ""}),
    ("roofline", {"peak_tflops": 1e6, "bandwidth_tbs": 0.001, "intensity": 0.01}),
]


def _sample(calculator: Calculator, rng: random.Random) -> dict[str, Any]:
    inputs: dict[str, Any] = {}
    for spec in calculator.inputs:
        roll = rng.random()
        if spec.kind == "choice":
            inputs[spec.key] = rng.choice([*spec.choice_values, "nope"])
        elif roll < 0.8 and spec.min is not None and spec.max is not None:
            low, high = max(spec.min, 1e-3), spec.max
            value = low * (high / low) ** rng.random()  # log-uniform over the declared range
            inputs[spec.key] = value if rng.random() < 0.5 else f"{value:.6g}"
        elif roll < 0.9:
            inputs[spec.key] = rng.choice([0, -1, "", "x", 1e300])
    return inputs


def golden_cases(per_calculator: int = 60, seed: int = 20261129) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    cases = [{"name": name, "inputs": inputs} for name, inputs in HAND_PICKED]
    for name, calculator in CALCULATORS.items():
        cases += [{"name": name, "inputs": _sample(calculator, rng)} for _ in range(per_calculator)]
    return cases
