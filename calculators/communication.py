"""A communication roofline: does a tensor-parallel MLP block compute for longer than its all-reduce takes?

Megatron-style tensor parallelism splits an MLP block over N chips so that its forward pass needs one all-reduce, at
its end (Shoeybi et al., 2019). The block is m matrices of D x F: m = 3 for the SwiGLU MLP of Llama 3 (gate and up
projections split by columns, the down projection by rows), m = 2 for the GELU MLP of GPT and the Megatron paper.
Each chip does 2 m B D F / N FLOPs for a batch of B tokens; the all-reduce then sums N partial results of B x D values
of s bytes. A ring all-reduce sends 2 (N - 1) / N x B D s bytes from each chip in 2 (N - 1) steps (Patarasuk and
Yuan, 2009). At a peak of C FLOP/s, W bytes per second sent per chip and a fixed time a per step,

    all-reduce = 2 (N - 1) a + 2 (N - 1) B D s / (N W),      block = 2 m B D F / (N C),

and while the bandwidth term dominates their ratio is (N - 1) s C / (m F W), whatever the batch. A tree all-reduce
(NCCL's double binary tree, each chip a leaf of one tree and an inner node of the other) reduces up and broadcasts
down in 2 floor(log2 N) steps where the ring takes 2 (N - 1), at 0.92 of the ring's bandwidth: NCCL's own cost model
(`src/graph/tuning.cc`, 2 ((ranks per node - 1) intra + log2i(nodes) inter), here one chip per node) and its tree
bandwidth factor. It only pays where the latency term matters: small batches, many chips. The block then
computes for longer than it communicates while N <= 1 + m F W / (s C): the largest tensor-parallel degree that stays
compute-bound. At a small batch (decode) the block is not compute-bound: each chip reads its m D F s / N bytes of
weights from memory at H bytes per second, and the block takes the longer of that and its FLOPs' time. Overlapped
perfectly, block and all-reduce take the longer of the two; not overlapped, their sum.

Left out: achieved link bandwidth below the data sheet's (set `link_gbs` to a measured bus bandwidth), in-network
reduction (NVLink SHARP, which sends each byte once rather than twice), and the attention block's own all-reduce.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from calckit.spec import Calculator, Choice, Input, Output, Result, Value, number, text
from calckit.units import format_number

from .collectives import TREE_BANDWIDTH
from .hardware import bandwidth_input, chip_input, figures_as_of, fill_from_chip, peak_input, precision_input

__all__ = ["ALLREDUCE"]

GIGA, TERA, MICRO = 1e9, 1e12, 1e-6


def _text(key: str, value: Value) -> str:
    """An output's value as the form shows it: the summary writes each figure the same way."""
    return ALLREDUCE.output(key).text(value)


def _compute(inputs: Mapping[str, Value]) -> Result:
    peak = number(inputs, "peak_tflops") * TERA
    tree = text(inputs, "algorithm") == "tree"
    link = number(inputs, "link_gbs") * GIGA * (TREE_BANDWIDTH if tree else 1.0)  # what the algorithm achieves
    n, b = number(inputs, "chips"), number(inputs, "batch")
    d, f = number(inputs, "d_model"), number(inputs, "d_ff")
    matrices = float(text(inputs, "matrices"))
    size = float(text(inputs, "value_bytes"))
    steps = 2 * int(math.log2(n)) if tree else 2 * (n - 1)
    steps_latency = steps * number(inputs, "latency_us") * MICRO
    compute = 2 * matrices * b * d * f / (n * peak)
    reads = matrices * d * f * size / (n * number(inputs, "bandwidth_tbs") * TERA)  # weights as wide as the values
    block = max(compute, reads)
    message = b * d * size
    sent = 2 * (n - 1) / n * message
    communication = steps_latency + sent / link
    ratio = communication / compute
    # Bandwidth terms only: the rules that do not depend on the batch.
    min_f = (n - 1) * size * peak / (matrices * link)
    most_chips = math.floor(1 + matrices * f * link / (size * peak))
    bound = (
        "Communication-bound"
        if communication > block
        else ("Compute-bound" if compute >= reads else "Memory-bound (weight reads)")
    )
    latency_note = (
        f" The fixed time per step is {format_number(steps_latency / communication * 100)}% of the all-reduce."
        if steps_latency
        else ""
    )
    summary = (
        f"{bound}: on {format_number(n)} chips the MLP block's {format_number(matrices)} matrices take "
        f"{_text('compute_time', compute)} at peak and {_text('block_time', block)} in all, its all-reduce "
        f"{_text('comm_time', communication)} ({_text('ratio', ratio)} times the time at peak). Counting bandwidth "
        f"only, the block computes for longer than it communicates while F is above {_text('min_d_ff', min_f)}, "
        f"or on up to {_text('max_chips', most_chips)} chips." + latency_note + figures_as_of(inputs)
    )
    return Result(
        {
            "compute_time": compute,
            "block_time": block,
            "comm_time": communication,
            "message_bytes": message,
            "bytes_sent": sent,
            "ratio": ratio,
            "min_d_ff": min_f,
            "max_chips": float(most_chips),
            "bound": bound,
            "overlapped_time": max(block, communication),
            "serial_time": block + communication,
        },
        summary,
    )


ALLREDUCE = Calculator(
    name="allreduce",
    title="Tensor-parallel MLP block against its all-reduce",
    description=(
        "Whether a tensor-parallel MLP block computes for longer than the all-reduce it needs, over NVLink, ICI or "
        "any link, and the largest split that stays compute-bound."
    ),
    inputs=(
        chip_input("h100-sxm"),
        precision_input(),
        peak_input(989.4),
        bandwidth_input(3.35),
        Input(
            "link_gbs",
            "Bandwidth each chip sends",
            unit="GB/s",
            default=450.0,
            min=0.001,
            max=1e6,
            help=(
                "Per chip, in one direction, during the all-reduce (an H100's NVLink: 900 GB/s both ways, so 450). "
                "Measured all-reduces reach less: put in a measured bus bandwidth to see its effect."
            ),
        ),
        Input("chips", "Chips sharing the block", kind="integer", default=8, min=2, max=1e5),
        Input("batch", "Batch (tokens)", kind="integer", default=4096, min=1, max=1e8),
        # Defaults: the MLP of Llama 3 70B (hidden 8,192, intermediate 28,672, SwiGLU; Meta's config.json).
        Input("d_model", "Model width D", kind="integer", default=8192, min=1, max=1e7),
        Input("d_ff", "MLP width F", kind="integer", default=28672, min=1, max=1e7),
        Input(
            "matrices",
            "Matrices of D × F in the block",
            kind="choice",
            default="3",
            choices=(
                Choice("3", "3 (SwiGLU: gate, up, down; Llama, Mistral)"),
                Choice("2", "2 (GELU: in, out; GPT, Megatron-LM)"),
            ),
        ),
        Input(
            "value_bytes",
            "Bytes per reduced value",
            kind="choice",
            default="2",
            choices=(Choice("4", "4 (FP32)"), Choice("2", "2 (BF16)"), Choice("1", "1 (FP8)")),
        ),
        Input(
            "latency_us",
            "Fixed time per ring step",
            unit="µs",
            default=0.0,
            min=0,
            max=1e6,
            help="What each of the algorithm's steps costs whatever its size; 0 counts bandwidth alone.",
        ),
        Input(
            "algorithm",
            "All-reduce algorithm",
            kind="choice",
            default="ring",
            choices=(
                Choice("ring", "Ring: 2 (N − 1) steps"),
                Choice("tree", "Tree (NCCL): 2 log₂ N steps, 0.92 of the bandwidth"),
            ),
        ),
    ),
    outputs=(
        Output("compute_time", "MLP block's FLOPs per chip, at peak", unit="s", format="si"),
        Output(
            "block_time",
            "MLP block time per chip",
            unit="s",
            format="si",
            help="The longer of its FLOPs at peak and its share of the weights read from memory.",
        ),
        Output("comm_time", "All-reduce time", unit="s", format="si"),
        Output("message_bytes", "All-reduce buffer (B × D values)", unit="B", format="si"),
        Output("bytes_sent", "Bytes each chip sends", unit="B", format="si"),
        Output("ratio", "All-reduce / MLP block's FLOPs at peak"),
        Output(
            "min_d_ff",
            "Smallest F for which the block takes longer",
            help="(chips − 1) × bytes × peak / (matrices × link bandwidth), bandwidth only.",
        ),
        Output(
            "max_chips",
            "Largest split that stays compute-bound",
            help="1 + matrices × F × link bandwidth / (bytes × peak), bandwidth only.",
        ),
        Output("bound", "Limited by", format="text"),
        Output("overlapped_time", "Block and all-reduce, fully overlapped", unit="s", format="si"),
        Output("serial_time", "Block and all-reduce, not overlapped", unit="s", format="si"),
    ),
    compute=_compute,
    resolve=fill_from_chip("peak_tflops", "bandwidth_tbs"),
)
