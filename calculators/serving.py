"""Serving a transformer at batch B: what fits, how fast each token comes, and what a million tokens cost.

Each decode step reads the weights once for the whole batch and each sequence's KV cache once for that sequence, and
does 2 N FLOPs per sequence for the weights plus 4 x layers x context x hidden for attention. On `chips` chips that
share the work (tensor parallelism, communication left out), a step takes at least the longer of its bytes over the
chips' bandwidth and its FLOPs over their peak. Memory bounds the batch: the weights plus B caches must fit in the
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
from .inference import NEVER

__all__ = ["SERVING"]

GIGA, TERA = 1e9, 1e12
HOUR, KWH = 3600.0, 3.6e6


@dataclass(frozen=True)
class _Deployment:
    """The figures of one deployment that every batch size shares."""

    weights: float  # bytes
    kv_per_sequence: float  # bytes
    flops_per_sequence: float  # per decode step
    bandwidth: float  # bytes/s, all chips together
    peak: float  # FLOP/s, all chips together
    memory: float  # bytes, all chips together

    def read_time(self, batch: float) -> float:
        return (self.weights + batch * self.kv_per_sequence) / self.bandwidth

    def math_time(self, batch: float) -> float:
        return batch * self.flops_per_sequence / self.peak

    def step_time(self, batch: float) -> float:
        return max(self.read_time(batch), self.math_time(batch))

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
        kv_per_sequence=kv_per_token * context,
        flops_per_sequence=2 * params + 4 * layers * context * number(inputs, "hidden"),
        bandwidth=chips * number(inputs, "bandwidth_tbs") * TERA,
        peak=chips * number(inputs, "peak_tflops") * TERA,
        memory=chips * number(inputs, "memory_gb") * GIGA,
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
    memory_bound = plan.read_time(batch) >= plan.math_time(batch)
    ridge = plan.peak / plan.bandwidth
    headroom = plan.flops_per_sequence - ridge * plan.kv_per_sequence
    turning: Value = float(math.ceil(ridge * plan.weights / headroom)) if headroom > 0 else "Never"
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
        f"({'memory' if memory_bound else 'compute'}-bound); a million tokens cost "
        f"{_text('cost_per_million', cost_per_token * 1e6)} and "
        f"{_text('energy_per_million', joules_per_token * 1e6 / KWH)}." + figures_as_of(inputs)
    )
    return Result(
        {
            "fits": verdict,
            "memory_needed": needed,
            "max_batch": float(most),
            "step_time": step,
            "bound": "Memory-bound" if memory_bound else "Compute-bound",
            "throughput": batch / step,
            "per_sequence": 1 / step,
            "compute_bound_batch": turning,
            "tokens_per_joule": 1 / joules_per_token,
            "energy_per_million": joules_per_token * 1e6 / KWH,
            "cost_per_million": cost_per_token * 1e6,
        },
        summary,
        chart=_chart(plan, batch, most, summary),
        notes={
            **({} if headroom > 0 else {"compute_bound_batch": NEVER}),
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
        Output("bound", "Limited by", format="text"),
        Output("throughput", "Throughput, whole batch", unit="tokens/s"),
        Output("per_sequence", "Speed per sequence", unit="tokens/s"),
        Output("compute_bound_batch", "Batch where decode turns compute-bound"),
        Output("tokens_per_joule", "Tokens per joule"),
        Output("energy_per_million", "Energy per million tokens", unit="kWh"),
        Output("cost_per_million", "Cost per million tokens", unit="USD", format="money"),
    ),
    compute=_compute,
    resolve=fill_from_chip("peak_tflops", "bandwidth_tbs", "memory_gb", "power_w", "price_per_hour"),
)
