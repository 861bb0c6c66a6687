"""Training time: how long a model takes to train, from the FLOPs it needs and the FLOPs a cluster delivers.

Training a dense transformer of N parameters on D tokens costs about 6 N D FLOPs (Kaplan et al., "Scaling Laws for
Neural Language Models", 2020). A cluster delivers chips x peak x MFU of them per second.
"""

from __future__ import annotations

from collections.abc import Mapping

from calckit.spec import Calculator, Input, Output, Result, Value, number
from calckit.units import format_si

from .hardware import chip_input, figures_as_of, fill_from_chip, peak_input, precision_input

__all__ = ["TRAINING"]

GIGA, TERA = 1e9, 1e12
DAY = 86_400.0


def _text(key: str, value: Value) -> str:
    """An output's value as the form shows it: the summary writes each figure the same way."""
    return TRAINING.output(key).text(value)


def _compute(inputs: Mapping[str, Value]) -> Result:
    flops = 6 * number(inputs, "params_b") * GIGA * number(inputs, "tokens_t") * TERA
    chips = number(inputs, "chips")
    rate = chips * number(inputs, "peak_tflops") * TERA * number(inputs, "mfu") / 100
    seconds = flops / rate
    summary = (
        f"{_text('flops', flops)} at {format_si(rate, 'FLOP/s')} take {_text('days', seconds / DAY)}, "
        f"or {_text('chip_hours', seconds * chips / 3600)} chip-hours." + figures_as_of(inputs)
    )
    return Result({"flops": flops, "days": seconds / DAY, "chip_hours": seconds * chips / 3600}, summary)


TRAINING = Calculator(
    name="training",
    title="Training time",
    description="How long training takes, from the model's size, the tokens it sees and the cluster's speed.",
    inputs=(
        chip_input("a100-80gb-sxm"),
        precision_input(),
        peak_input(312.0),
        Input("params_b", "Model parameters", unit="billions", default=70.0, min=0.001, max=1e5),
        Input("tokens_t", "Training tokens", unit="trillions", default=2.0, min=1e-6, max=1e4),
        Input("chips", "Chips", kind="integer", default=2048, min=1, max=1e7),
        Input("mfu", "MFU", unit="%", default=40.0, min=0.1, max=100, help="Share of peak compute the job achieves."),
    ),
    outputs=(
        Output("flops", "Training compute", unit="FLOP", format="si"),
        Output("days", "Wall-clock time", unit="days"),
        Output("chip_hours", "Chip-hours"),
    ),
    compute=_compute,
    resolve=fill_from_chip("peak_tflops"),
)
