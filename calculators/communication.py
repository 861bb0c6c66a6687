"""A communication roofline: when does a tensor-parallel all-reduce cost more than the matrix multiply it follows?

Split the second matrix of a transformer MLP, W of F x D, over N chips by rows (Megatron-style tensor parallelism):
each chip multiplies its B x F/N slice of the activations by its F/N x D slice of W, 2 B D F / N FLOPs, and the
partial results are summed across chips with an all-reduce of B x D values of s bytes. A ring all-reduce makes each
chip send 2 (N - 1) / N x B D s bytes. At a peak of C FLOP/s and W bytes per second sent per chip,

    communication / compute = [2 (N - 1) B D s / (N W)] / [2 B D F / (N C)] = (N - 1) s C / (F W),

which does not depend on the batch: the all-reduce costs more than the multiply whenever F < (N - 1) s C / W.
Overlapped perfectly, the step takes the longer of the two; not overlapped, their sum.
"""

from __future__ import annotations

from collections.abc import Mapping

from calckit.spec import Calculator, Choice, Input, Output, Result, Value, number, text
from calckit.units import format_number, format_si

from .hardware import chip_input, figures_as_of, fill_from_chip, peak_input, precision_input

__all__ = ["ALLREDUCE"]

GIGA, TERA = 1e9, 1e12


def _compute(inputs: Mapping[str, Value]) -> Result:
    peak = number(inputs, "peak_tflops") * TERA
    link = number(inputs, "link_gbs") * GIGA
    n, b = number(inputs, "chips"), number(inputs, "batch")
    d, f = number(inputs, "d_model"), number(inputs, "d_ff")
    size = float(text(inputs, "value_bytes"))
    compute = 2 * b * d * f / (n * peak)
    sent = 2 * (n - 1) / n * b * d * size
    communication = sent / link
    ratio = communication / compute
    min_f = (n - 1) * size * peak / link
    bound = "Communication-bound" if communication > compute else "Compute-bound"
    summary = (
        f"{bound}: on {format_number(n)} chips the multiply takes {format_si(compute, 's')} and the all-reduce "
        f"{format_si(communication, 's')} ({format_number(ratio, 'times')} as long); the all-reduce stays shorter "
        f"only while F is above {format_number(min_f)}." + figures_as_of(inputs)
    )
    return Result(
        {
            "compute_time": compute,
            "comm_time": communication,
            "bytes_sent": sent,
            "ratio": ratio,
            "min_d_ff": min_f,
            "bound": bound,
            "overlapped_time": max(compute, communication),
            "serial_time": compute + communication,
        },
        summary,
    )


ALLREDUCE = Calculator(
    name="allreduce",
    title="Tensor-parallel all-reduce against its matmul",
    description=(
        "Whether the all-reduce after a tensor-parallel matrix multiply takes longer than the multiply, over "
        "NVLink, ICI or any link."
    ),
    inputs=(
        chip_input("h100-sxm"),
        precision_input(),
        peak_input(989.4),
        Input(
            "link_gbs",
            "Bandwidth each chip sends",
            unit="GB/s",
            default=450.0,
            min=0.001,
            max=1e6,
            help="Per chip, in one direction, during the all-reduce (an H100's NVLink: 900 GB/s both ways, so 450).",
        ),
        Input("chips", "Chips sharing the matrix", kind="integer", default=8, min=2, max=1e5),
        Input("batch", "Batch (tokens)", kind="integer", default=4096, min=1, max=1e8),
        # Defaults: the MLP of Llama 3 70B (hidden 8,192, intermediate 28,672; Meta's config.json).
        Input("d_model", "Model width D", kind="integer", default=8192, min=1, max=1e7),
        Input("d_ff", "MLP width F", kind="integer", default=28672, min=1, max=1e7),
        Input(
            "value_bytes",
            "Bytes per reduced value",
            kind="choice",
            default="2",
            choices=(Choice("4", "4 (FP32)"), Choice("2", "2 (BF16)"), Choice("1", "1 (FP8)")),
        ),
    ),
    outputs=(
        Output("compute_time", "Matmul time per chip, at peak", unit="s", format="si"),
        Output("comm_time", "All-reduce time", unit="s", format="si"),
        Output("bytes_sent", "Bytes each chip sends", unit="B", format="si"),
        Output("ratio", "All-reduce / matmul"),
        Output(
            "min_d_ff",
            "Smallest F for which the multiply takes longer",
            help="(chips − 1) × bytes × peak / link bandwidth.",
        ),
        Output("bound", "Limited by", format="text"),
        Output("overlapped_time", "Step time, fully overlapped", unit="s", format="si"),
        Output("serial_time", "Step time, not overlapped", unit="s", format="si"),
    ),
    compute=_compute,
    resolve=fill_from_chip("peak_tflops"),
)
