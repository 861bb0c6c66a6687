"""Power and energy: what running accelerators for a while costs in kilowatt-hours and money."""

from __future__ import annotations

from collections.abc import Mapping

from calckit.spec import Calculator, Input, Output, Result, Value, number
from calckit.units import format_number

from .hardware import chip_input, figures_as_of, fill_from_chip, power_input

__all__ = ["ENERGY"]


def _text(key: str, value: Value) -> str:
    """An output's value as the form shows it: the summary writes each figure the same way."""
    return ENERGY.output(key).text(value)


def _compute(inputs: Mapping[str, Value]) -> Result:
    draw = number(inputs, "power_w") * number(inputs, "utilization") / 100 * number(inputs, "count")
    facility = draw * number(inputs, "pue")
    energy_kwh = facility * number(inputs, "hours") / 1000
    cost = energy_kwh * number(inputs, "price_per_kwh")
    summary = (
        f"{_text('average_power', facility)} drawn for {format_number(number(inputs, 'hours'), 'h', digits=4)} "
        f"is {_text('energy', energy_kwh)}, costing {_text('cost', cost)}." + figures_as_of(inputs)
    )
    return Result({"average_power": facility, "energy": energy_kwh, "cost": cost}, summary)


ENERGY = Calculator(
    name="energy",
    title="Power and energy",
    description="The energy that accelerators use over a period, and what it costs.",
    inputs=(
        chip_input("h100-sxm", help="Fills in the chip's rated power; pick “Custom figures” to type your own."),
        power_input(700.0, help="The vendor's rated board or chip power (TDP); real draw at full load can differ."),
        Input("utilization", "Average draw, share of that power", unit="%", default=100.0, min=0, max=100),
        Input("count", "Number of chips", kind="integer", default=1, min=1, max=1e7),
        Input("hours", "Hours", unit="h", default=8760.0, min=0, max=1e6, help="8,760 h is a year."),
        Input(
            "pue",
            "PUE",
            default=1.0,
            min=1.0,
            max=5.0,
            help="Power usage effectiveness: the facility's total power over the IT power (1 counts the chips alone).",
        ),
        Input("price_per_kwh", "Electricity price", unit="USD/kWh", default=0.15, min=0, max=100),
    ),
    outputs=(
        Output("average_power", "Average power", unit="W", format="si"),
        Output("energy", "Energy", unit="kWh", digits=4),
        Output("cost", "Cost", unit="USD", format="money"),
    ),
    compute=_compute,
    resolve=fill_from_chip("power_w"),
)
