"""Serving a transformer at batch B: what fits, how fast each token comes, and what a million tokens cost.

Each decode step runs attention, which reads each sequence's KV cache once and does 4 x layers x context x hidden
FLOPs with it, and the weight matmuls, which read the weights once for the whole batch and do 2 N FLOPs per sequence.
They are separate kernels, each held to its own roofline, so on `chips` chips that share the work (tensor
parallelism, communication left out) a step takes at least

    max(KV bytes / bandwidth, attention FLOPs / peak) + max(weight bytes / bandwidth, weight FLOPs / peak)

(the scaling book's step time: J. Austin et al., "How to Scale Your Model", 2025, "All About Transformer Inference").
Attention stays memory-bound; the weight matmuls turn compute-bound from a batch of ridge x weight bytes / 2 N on.
Tensor parallelism needs the chips to divide the query heads, and to divide the KV heads or be a multiple of them
(vLLM's check); a split that does not is flagged. Memory bounds the batch: the weights plus B caches must fit in the
chips' memory. Energy is the chips' rated power times the PUE for the step's duration; cost is the chips' price per
hour for the same time (the chip database's price where a cloud publishes one). Both are divided by the B tokens the
step produces.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from calckit.charts import decade_domain, layered, log_axis
from calckit.spec import Calculator, Input, Output, Result, Value, number, text
from calckit.units import format_number, format_si

from .hardware import (
    bandwidth_input,
    chip_input,
    figures_as_of,
    fill_from_chip,
    peak_input,
    power_input,
    precision_input,
    price_input,
    price_note,
    transformer_inputs,
)

__all__ = ["SERVING"]

GIGA, TERA = 1e9, 1e12
HOUR, KWH = 3600.0, 3.6e6


@dataclass(frozen=True)
class _Deployment:
    """The figures of one deployment that every batch size shares."""

    weights: float  # bytes
    params: float
    kv_per_sequence: float  # bytes
    attention_flops: float  # per sequence per decode step
    bandwidth: float  # bytes/s, all chips together
    peak: float  # FLOP/s, all chips together
    memory: float  # bytes, all chips together

    def attention_time(self, batch: float) -> float:
        return max(batch * self.kv_per_sequence / self.bandwidth, batch * self.attention_flops / self.peak)

    def weight_read_time(self) -> float:
        return self.weights / self.bandwidth

    def weight_math_time(self, batch: float) -> float:
        return batch * 2 * self.params / self.peak

    def step_time(self, batch: float) -> float:
        return self.attention_time(batch) + max(self.weight_read_time(), self.weight_math_time(batch))

    def compute_bound_batch(self) -> int:
        """The smallest batch whose weight FLOPs take as long as the weights' reads: ridge x weight bytes / 2N."""
        return math.ceil(self.peak * self.weights / (2 * self.params * self.bandwidth))

    def max_batch(self) -> int:
        return max(0, math.floor((self.memory - self.weights) / self.kv_per_sequence))


def _deployment(inputs: Mapping[str, Value]) -> _Deployment:
    chips = number(inputs, "chips")
    params = number(inputs, "params_b") * GIGA
    layers, context = number(inputs, "layers"), number(inputs, "context")
    kv_per_token = (
        2 * layers * number(inputs, "kv_heads") * number(inputs, "head_dim") * float(text(inputs, "kv_bytes"))
    )
    return _Deployment(
        weights=params * float(text(inputs, "bytes_per_param")),
        params=params,
        kv_per_sequence=kv_per_token * context,
        attention_flops=4 * layers * context * number(inputs, "hidden"),
        bandwidth=chips * number(inputs, "bandwidth_tbs") * TERA,
        peak=chips * number(inputs, "peak_tflops") * TERA,
        memory=chips * number(inputs, "memory_gb") * GIGA,
    )


def split_problem(chips: float, hidden: float, head_dim: float, kv_heads: float) -> str:
    """Why tensor parallelism cannot split this model over `chips` chips, or '' if it can.

    vLLM requires the query heads to divide by the tensor-parallel size, and the KV heads either to divide by it or
    to divide it (each chip then keeps a copy of one KV head).
    """
    if chips == 1 or hidden % head_dim:
        return ""
    heads = hidden / head_dim
    if heads % chips == 0 and (kv_heads % chips == 0 or chips % kv_heads == 0):
        return ""
    n = format_number(chips)
    splits = ", ".join(
        format_number(k)
        for k in range(2, int(heads) + 1)
        if heads % k == 0 and (kv_heads % k == 0 or k % kv_heads == 0)
    )
    return (
        f"Tensor parallelism over {n} chips does not divide {format_number(heads)} query heads and "
        f"{format_number(kv_heads)} KV heads, so a serving engine cannot split the model this way "
        f"(it can over {splits}); {n} chips would need pipeline parallelism, which this calculator does not model."
    )


def _text(key: str, value: Value) -> str:
    """An output's value as the form shows it: the summary writes each figure the same way."""
    return SERVING.output(key).text(value)


def _compute(inputs: Mapping[str, Value]) -> Result:
    plan = _deployment(inputs)
    chips, batch = number(inputs, "chips"), number(inputs, "batch")
    step = plan.step_time(batch)
    needed = plan.weights + batch * plan.kv_per_sequence
    most = plan.max_batch()
    fits = needed <= plan.memory
    memory_bound = plan.weight_read_time() >= plan.weight_math_time(batch)
    problem = split_problem(chips, number(inputs, "hidden"), number(inputs, "head_dim"), number(inputs, "kv_heads"))
    watts = chips * number(inputs, "power_w") * number(inputs, "pue")
    joules_per_token = watts * step / batch
    cost_per_token = chips * number(inputs, "price_per_hour") * step / HOUR / batch
    verdict: Value = (
        "yes"
        if fits
        else (
            f"no: needs {format_si(needed, 'B')} of {format_si(plan.memory, 'B')}; "
            + (f"at most {most} sequences fit" if most else "the weights alone do not fit")
        )
    )
    summary = (
        ("Out of memory (the figures that follow assume it fit): " if not fits else "")
        + f"a batch of {format_number(batch)} on {format_number(chips)} chip{'s' if chips != 1 else ''} takes "
        f"{_text('step_time', step)} per step, "
        f"{_text('throughput', batch / step)} in all and {_text('per_sequence', 1 / step)} per sequence "
        f"(attention over the caches {_text('attention_time', plan.attention_time(batch))}, then the weight matmuls "
        f"{_text('matmul_time', step - plan.attention_time(batch))}, {'memory' if memory_bound else 'compute'}-bound); "
        "a million tokens cost "
        f"{_text('cost_per_million', cost_per_token * 1e6)} and "
        f"{_text('energy_per_million', joules_per_token * 1e6 / KWH)}."
        + (f" {problem}" if problem else "")
        + figures_as_of(inputs)
    )
    return Result(
        {
            "fits": verdict,
            "memory_needed": needed,
            "max_batch": float(most),
            "step_time": step,
            "attention_time": plan.attention_time(batch),
            "matmul_time": step - plan.attention_time(batch),
            "bound": "Memory-bound" if memory_bound else "Weight matmuls compute-bound",
            "throughput": batch / step,
            "per_sequence": 1 / step,
            "compute_bound_batch": float(plan.compute_bound_batch()),
            "tokens_per_joule": 1 / joules_per_token,
            "energy_per_million": joules_per_token * 1e6 / KWH,
            "cost_per_million": cost_per_token * 1e6,
        },
        summary,
        chart=_chart(plan, batch, most, summary),
        notes={
            **({"step_time": problem} if problem else {}),
            **({"cost_per_million": note} if (note := price_note(inputs)) else {}),
        },
    )


def _chart(plan: _Deployment, batch: float, most: int, summary: str) -> dict[str, Any]:
    """Tokens per second of the whole batch against the batch, drawn as far as memory allows."""
    top = max(batch, most, 2.0)
    batches = sorted({*(round(top ** (i / 40)) for i in range(41)), max(most, 1), batch})
    points = [
        {"batch": b, "tokens": b / plan.step_time(b), "fits": "fits in memory" if b <= most else "does not fit"}
        for b in batches
    ]
    x = log_axis("batch", "Batch (sequences)", decade_domain(1, top, margin=0))
    y_values = [p["tokens"] for p in points]
    y = log_axis("tokens", "Tokens per second, whole batch", decade_domain(min(y_values), max(y_values), margin=0))
    return layered(
        "Throughput against batch. " + summary,
        [
            {
                "data": {"values": points},
                "mark": {"type": "line", "strokeWidth": 2, "point": True},
                "encoding": {
                    "x": x,
                    "y": y,
                    "strokeDash": {
                        "field": "fits",
                        "type": "nominal",
                        "title": None,
                        "scale": {"domain": ["fits in memory", "does not fit"], "range": [[1, 0], [6, 4]]},
                    },
                    "tooltip": [
                        {"field": "batch", "type": "quantitative", "title": "batch"},
                        {"field": "tokens", "type": "quantitative", "title": "tokens/s", "format": ".3~s"},
                        {"field": "fits", "type": "nominal"},
                    ],
                },
            },
            {
                "data": {"values": [{"batch": batch, "tokens": batch / plan.step_time(batch)}]},
                "mark": {"type": "point", "filled": True, "size": 110, "color": "#e8590c"},
                "encoding": {
                    "x": {"field": "batch", "type": "quantitative"},
                    "y": {"field": "tokens", "type": "quantitative"},
                },
            },
        ],
    )


SERVING = Calculator(
    name="serving",
    title="Serving economics",
    description=(
        "Batch-B decoding of a transformer: whether the KV cache fits, time and throughput per step, energy and cost "
        "per million tokens."
    ),
    inputs=(
        chip_input("h200-sxm"),
        precision_input(),
        peak_input(989.0),
        bandwidth_input(4.8),
        Input("memory_gb", "Memory per chip", unit="GB", default=141.0, min=0.001, max=1e6, filled_by="chip"),
        power_input(700.0, help="The vendor's rated power; real draw while decoding is usually lower."),
        Input("chips", "Chips serving one copy of the model", kind="integer", default=2, min=1, max=1e5),
        # Defaults: Llama 3 70B (Meta's config.json: 80 layers, hidden 8,192, 8 KV heads of 128).
        *transformer_inputs(params_b=70.0, layers=80, hidden=8192),
        Input("context", "Context per sequence", unit="tokens", kind="integer", default=8192, min=1, max=1e8),
        Input("batch", "Batch", unit="sequences", kind="integer", default=64, min=1, max=1e6),
        price_input(5.408),
        Input("pue", "PUE", default=1.0, min=1.0, max=5.0, step=0.01, help="Facility power per watt of chips."),
    ),
    outputs=(
        Output("fits", "Fits in memory", format="text"),
        Output("memory_needed", "Weights + KV cache", unit="B", format="si"),
        Output("max_batch", "Largest batch that fits"),
        Output("step_time", "Time per decode step, at least", unit="s", format="si"),
        Output("attention_time", "of which attention over the caches", unit="s", format="si"),
        Output("matmul_time", "of which the weight matmuls", unit="s", format="si"),
        Output("bound", "Limited by", format="text"),
        Output("throughput", "Throughput, whole batch", unit="tokens/s"),
        Output("per_sequence", "Speed per sequence", unit="tokens/s"),
        Output(
            "compute_bound_batch",
            "Batch where the weight matmuls turn compute-bound",
            help="Ridge × weight bytes / (2 × parameters); attention over the caches stays memory-bound.",
        ),
        Output("tokens_per_joule", "Tokens per joule"),
        Output("energy_per_million", "Energy per million tokens", unit="kWh"),
        Output("cost_per_million", "Cost per million tokens", unit="USD", format="money"),
    ),
    compute=_compute,
    resolve=fill_from_chip("peak_tflops", "bandwidth_tbs", "memory_gb", "power_w", "price_per_hour"),
)
