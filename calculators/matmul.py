"""A matrix multiply of a batch of tokens by a weight matrix: its arithmetic intensity, and the critical batch.

Y = X W with X of B x D (a batch of B token vectors), W of D x F (the weights) and Y of B x F does 2 B D F FLOPs. At
best it reads X and W once and writes Y once: sx B D + sw D F + sx B F bytes, for sx bytes per activation and sw per
weight. When B is much smaller than D and F the weights dominate the bytes and the intensity is about 2 B / sw: about
B FLOP per byte with 16-bit weights. The critical batch is the B at which the intensity reaches the chip's ridge
point, peak / bandwidth; solving 2 B D F = ridge x bytes for B gives

    B* = ridge sw D F / (2 D F - ridge sx (D + F)),

about ridge x sw / 2 when D and F are large. Below it the multiply is memory-bound; above it, compute-bound. When the
denominator is not positive, no batch reaches the ridge: the activations' own bytes cap the intensity at
2 D F / (sx (D + F)).
"""

from __future__ import annotations

from collections.abc import Mapping

from calckit.spec import Calculator, Choice, Input, Output, Result, Value, number, text
from calckit.units import format_number

from .hardware import bandwidth_input, chip_input, figures_as_of, fill_from_chip, peak_input, precision_input
from .roofline import NO_FIGURE, limit

__all__ = ["MATMUL"]

TERA = 1e12


def critical_batch(ridge: float, d: float, f: float, weight_bytes: float, activation_bytes: float) -> float | None:
    """The batch at which a B x D by D x F multiply reaches `ridge` FLOP per byte; None if no batch does."""
    denominator = 2 * d * f - ridge * activation_bytes * (d + f)
    return ridge * weight_bytes * d * f / denominator if denominator > 0 else None


NO_CRITICAL_BATCH = "The activations' bytes keep it below the ridge at any batch."


def _text(key: str, value: Value) -> str:
    """An output's value as the form shows it: the summary writes each figure the same way."""
    return MATMUL.output(key).text(value)


def _compute(inputs: Mapping[str, Value]) -> Result:
    peak = number(inputs, "peak_tflops") * TERA
    bandwidth = number(inputs, "bandwidth_tbs") * TERA
    b, d, f = number(inputs, "batch"), number(inputs, "d_model"), number(inputs, "d_ff")
    sw, sx = float(text(inputs, "weight_bytes")), float(text(inputs, "activation_bytes"))
    flops = 2 * b * d * f
    moved = sx * b * d + sw * d * f + sx * b * f
    intensity = flops / moved
    ridge = peak / bandwidth
    attainable = min(peak, intensity * bandwidth)
    bound = limit(intensity, ridge)
    exact = critical_batch(ridge, d, f, sw, sx)
    critical: Value = exact if exact is not None else NO_FIGURE
    summary = (
        f"{bound}: a batch of {format_number(b)} does {_text('intensity', intensity)} against a ridge of "
        f"{_text('ridge', ridge)}, "
        + (
            "and no batch reaches the ridge"
            if exact is None
            else f"so it needs a batch of at least {_text('critical_batch', exact)} to reach the compute roof"
            if intensity < ridge
            else f"above the critical batch of {_text('critical_batch', exact)}"
        )
        + f"; it runs at {_text('fraction', attainable / peak)} of peak at best."
        + figures_as_of(inputs)
    )
    return Result(
        {
            "intensity": intensity,
            "ridge": ridge,
            "critical_batch": critical,
            "critical_batch_approx": ridge * sw / 2,
            "bound": bound,
            "fraction": attainable / peak,
            "time": flops / attainable,
        },
        summary,
        notes={}
        if exact is not None
        else {"critical_batch": "The activations' bytes keep it below the ridge at any batch."},
    )


_BYTES = (Choice("2", "2 (BF16 / FP16)"), Choice("1", "1 (FP8 / INT8)"), Choice("0.5", "0.5 (4-bit)"))

MATMUL = Calculator(
    name="matmul",
    title="Matrix multiply and the critical batch",
    description=(
        "The arithmetic intensity of a batch of tokens times a weight matrix, and the batch at which it turns "
        "compute-bound on a chip."
    ),
    inputs=(
        chip_input("h100-sxm"),
        precision_input(),
        peak_input(989.4),
        bandwidth_input(3.35),
        # Defaults: one MLP matrix of Llama 3 70B (hidden 8,192, intermediate 28,672; Meta's config.json).
        Input("batch", "Batch (tokens)", kind="integer", default=64, min=1, max=1e8, help="B: rows of X."),
        Input("d_model", "Model width D", kind="integer", default=8192, min=1, max=1e7),
        Input("d_ff", "Output width F", kind="integer", default=28672, min=1, max=1e7),
        Input("weight_bytes", "Bytes per weight", kind="choice", default="2", choices=_BYTES),
        Input(
            "activation_bytes",
            "Bytes per activation",
            kind="choice",
            default="2",
            choices=_BYTES[:2],
            help="For X, read once, and Y, written once.",
        ),
    ),
    outputs=(
        Output("intensity", "Arithmetic intensity", unit="FLOP/byte"),
        Output("ridge", "Ridge point", unit="FLOP/byte"),
        Output("critical_batch", "Critical batch", help="The batch at which the intensity reaches the ridge."),
        Output(
            "critical_batch_approx",
            "Critical batch, large-matrix estimate",
            help="Ridge × bytes per weight / 2: the limit when D and F are much larger than the batch.",
        ),
        Output("bound", "Limited by", format="text"),
        Output("fraction", "Share of peak compute, at best", format="percent"),
        Output("time", "Time at best", unit="s", format="si"),
    ),
    compute=_compute,
    resolve=fill_from_chip("peak_tflops", "bandwidth_tbs"),
)
