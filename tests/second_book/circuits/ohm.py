"""Ohm's law: the current through a resistor and the power it turns into heat."""

from __future__ import annotations

from collections.abc import Mapping

from calckit.spec import Calculator, Input, Output, Result, Value, number
from calckit.units import format_number


def _compute(inputs: Mapping[str, Value]) -> Result:
    volts, ohms = number(inputs, "volts"), number(inputs, "ohms")
    amps = volts / ohms
    watts = volts * amps
    summary = f"{format_number(amps, 'A', digits=3)} flows, and the resistor dissipates {format_number(watts, 'W')}."
    return Result({"amps": amps, "watts": watts}, summary)


OHMS_LAW = Calculator(
    name="ohms-law",
    title="Ohm's law",
    description="The current through a resistor, and the power it dissipates, for a voltage across it.",
    inputs=(
        Input("volts", "Voltage", unit="V", default=12.0, min=0, max=1000),
        Input("ohms", "Resistance", unit="Ω", default=100.0, min=0, min_exclusive=True, max=1e9),
    ),
    outputs=(
        Output("amps", "Current", unit="A", digits=3),
        Output("watts", "Power dissipated", unit="W"),
    ),
    compute=_compute,
)
