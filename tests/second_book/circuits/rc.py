"""An RC low-pass filter: its time constant and the frequency where its output falls by 3 dB."""

from __future__ import annotations

import math
from collections.abc import Mapping

from calckit.spec import Calculator, Input, Output, Result, Value, number
from calckit.units import format_number


def _compute(inputs: Mapping[str, Value]) -> Result:
    tau = number(inputs, "kilohms") * 1e3 * number(inputs, "nanofarads") * 1e-9
    cutoff = 1 / (2 * math.pi * tau)
    summary = f"Signals above about {format_number(cutoff, 'Hz')} are attenuated by more than 3 dB."
    return Result({"tau_ms": tau * 1e3, "cutoff_hz": cutoff}, summary)


RC_FILTER = Calculator(
    name="rc-filter",
    title="RC low-pass filter",
    description="The time constant RC and the cut-off frequency 1 / (2πRC) of a resistor and a capacitor.",
    inputs=(
        Input("kilohms", "Resistance", unit="kΩ", default=10.0, min=0.001, max=10_000, slider="log"),
        Input("nanofarads", "Capacitance", unit="nF", default=100.0, min=0.001, max=1e6, slider="log"),
    ),
    outputs=(
        Output("tau_ms", "Time constant", unit="ms"),
        Output("cutoff_hz", "Cut-off frequency", unit="Hz"),
    ),
    compute=_compute,
)
