"""Latency against throughput: as the batch grows, each user's tokens come slower and the deployment's come faster.

A decode step at batch B on N chips that share the model (tensor parallelism; its communication is left out, the
`overhead_us` per step stands for it and for kernel launches) runs two kinds of kernel one after the other:

- the weight matmuls: they read the weights once for the batch and do 2 P FLOPs per token, so they take
  max(weights / bandwidth, 2 P B / peak): flat while memory-bound, then growing with B;
- attention over the KV cache: each sequence reads its own cache and does 4 x layers x context x hidden FLOPs, so
  it takes max(B x cache / bandwidth, B x FLOPs / peak), growing with B from the start.

Each user gets one token per step, 1 / t; the deployment B / t. Memory caps the batch: the weights plus B caches must
fit. A latency target (tokens per second per user) picks the largest batch that still meets it; the chips' price per
hour and power then give the cost and the energy of a million tokens at that batch (the scaling book's "Inference"
chapter draws the same frontier for PaLM; Pope et al. 2022, "Efficiently Scaling Transformer Inference", figure 1).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from calckit.charts import decade_domain, layered, log_axis
from calckit.spec import Calculator, Input, Output, Result, Value, number, text
from calckit.units import format_number

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

__all__ = ["LATENCY_THROUGHPUT", "Decode"]

GIGA, TERA, MICRO = 1e9, 1e12, 1e-6
HOUR = 3600.0
NO_BATCH = "—"


@dataclass(frozen=True)
class Decode:
    """One deployment's decode step as a function of the batch."""

    weights: float  # bytes
    weight_flops: float  # per token
    cache: float  # bytes per sequence
    attention_flops: float  # per sequence per step
    bandwidth: float  # bytes/s, all chips
    peak: float  # FLOP/s, all chips
    memory: float  # bytes, all chips
    overhead: float  # s per step
    context: float  # tokens per sequence

    def weight_time(self, batch: float) -> float:
        return max(self.weights / self.bandwidth, batch * self.weight_flops / self.peak)

    def attention_time(self, batch: float) -> float:
        return batch * max(self.cache / self.bandwidth, self.attention_flops / self.peak)

    def step(self, batch: float) -> float:
        return self.weight_time(batch) + self.attention_time(batch) + self.overhead

    def prefill(self, tokens: float) -> float:
        """One prompt of `tokens` at peak: 2 P FLOPs per token for the weights, 2 x layers x T^2 x hidden for causal
        attention (half of the 4 x layers x T x hidden per token that a full T x T score matrix would cost)."""
        layers_hidden = self.attention_flops / (4 * self.context)
        return (self.weight_flops * tokens + 2 * layers_hidden * tokens**2) / self.peak

    def max_batch(self) -> int:
        return max(0, math.floor((self.memory - self.weights) / self.cache))

    def batch_for_rate(self, rate: float) -> int:
        """The largest batch that fits and gives each user at least `rate` tokens/s; 0 if none does."""
        low, high = 0, self.max_batch()
        while low < high:
            middle = (low + high + 1) // 2
            if self.step(middle) <= 1 / rate:
                low = middle
            else:
                high = middle - 1
        return low


def decode_of(inputs: Mapping[str, Value]) -> Decode:
    chips = number(inputs, "chips")
    params = number(inputs, "params_b") * GIGA
    layers, context = number(inputs, "layers"), number(inputs, "context")
    per_token = 2 * layers * number(inputs, "kv_heads") * number(inputs, "head_dim") * float(text(inputs, "kv_bytes"))
    return Decode(
        weights=params * float(text(inputs, "bytes_per_param")),
        weight_flops=2 * params,
        cache=per_token * context,
        attention_flops=4 * layers * context * number(inputs, "hidden"),
        bandwidth=chips * number(inputs, "bandwidth_tbs") * TERA,
        peak=chips * number(inputs, "peak_tflops") * TERA,
        memory=chips * number(inputs, "memory_gb") * GIGA,
        overhead=number(inputs, "overhead_us") * MICRO,
        context=context,
    )


def _text(key: str, value: Value) -> str:
    return LATENCY_THROUGHPUT.output(key).text(value)


def _compute(inputs: Mapping[str, Value]) -> Result:
    plan = decode_of(inputs)
    chips, batch, rate = number(inputs, "chips"), number(inputs, "batch"), number(inputs, "target_rate")
    step = plan.step(batch)
    most = plan.max_batch()
    chosen = plan.batch_for_rate(rate)
    watts = chips * number(inputs, "power_w") * number(inputs, "pue")
    dollars_per_second = chips * number(inputs, "price_per_hour") / HOUR
    ridge_batch = plan.peak * plan.weights / (plan.bandwidth * plan.weight_flops)
    values: dict[str, Value] = {
        "step_time": step,
        "per_user": 1 / step,
        "total": batch / step,
        "max_batch": float(most),
        "weight_share": plan.weight_time(batch) / step,
        "critical_batch": ridge_batch,
        "attention_intensity": plan.attention_flops / plan.cache,
        "prefill_time": plan.prefill(number(inputs, "context")),
    }
    notes: dict[str, str] = {}
    if chosen:
        target_step = plan.step(chosen)
        values |= {
            "target_batch": float(chosen),
            "target_total": chosen / target_step,
            "target_per_user": 1 / target_step,
            "cost_per_million": dollars_per_second * target_step / chosen * 1e6,
            "energy_per_million": watts * target_step / chosen * 1e6,
        }
        if note := price_note(inputs):
            notes["cost_per_million"] = note
        tail = (
            f"; at {format_number(rate)} tokens/s per user the largest batch is {_text('target_batch', chosen)}, "
            f"{_text('target_total', chosen / target_step)} in all, "
            f"{_text('cost_per_million', values['cost_per_million'])} and "
            f"{_text('energy_per_million', values['energy_per_million'])} per million tokens."
        )
    else:
        why = "the weights do not fit" if not most else "even one sequence is slower than that"
        for key in ("target_batch", "target_total", "target_per_user", "cost_per_million", "energy_per_million"):
            values[key] = NO_BATCH  # a text in a numeric output: each says why, as the build requires
            notes[key] = "No batch meets the target (see the largest batch above)."
        notes["target_batch"] = f"No batch meets {format_number(rate)} tokens/s per user: {why}."
        tail = f"; no batch meets {format_number(rate)} tokens/s per user ({why})."
    fits = batch <= most
    summary = (
        ("Out of memory (the figures assume it fit): " if not fits else "")
        + f"a batch of {format_number(batch)} takes {_text('step_time', step)} per step, "
        f"{_text('per_user', 1 / step)} per user and {_text('total', batch / step)} in all; "
        f"at most {format_number(most)} sequences fit" + tail + figures_as_of(inputs)
    )
    return Result(values, summary, chart=_chart(plan, batch, most, rate, summary), notes=notes)


def _chart(plan: Decode, batch: float, most: int, rate: float, summary: str) -> dict[str, Any]:
    """Per-user against total tokens per second, one point per batch, dashed where memory has run out."""
    top = max(batch, 2 * most, 4.0)
    batches = sorted({*(max(1, round(top ** (i / 48))) for i in range(49)), max(most, 1), int(batch)})
    points = [
        {
            "batch": b,
            "total": b / plan.step(b),
            "per_user": 1 / plan.step(b),
            "fits": "fits in memory" if b <= most else "does not fit",
        }
        for b in batches
    ]
    totals = [p["total"] for p in points]
    users = [p["per_user"] for p in points] + [rate]
    x = log_axis("total", "Tokens per second, all users", decade_domain(min(totals), max(totals), margin=0))
    y = log_axis("per_user", "Tokens per second, each user", decade_domain(min(users), max(users), margin=0))
    return layered(
        "Per-user against total token rate as the batch grows. " + summary,
        [
            {
                "data": {"values": points},
                "mark": {"type": "line", "strokeWidth": 2, "point": True},
                "encoding": {
                    "x": x,
                    "y": y,
                    "order": {"field": "batch", "type": "quantitative"},
                    "strokeDash": {
                        "field": "fits",
                        "type": "nominal",
                        "title": None,
                        "scale": {"domain": ["fits in memory", "does not fit"], "range": [[1, 0], [6, 4]]},
                        # Below the plot: on a phone a legend at the side takes a third of the width.
                        "legend": {"orient": "bottom", "direction": "vertical"},
                    },
                    "tooltip": [
                        {"field": "batch", "type": "quantitative", "title": "batch"},
                        {"field": "total", "type": "quantitative", "title": "tokens/s, all", "format": ".3~s"},
                        {"field": "per_user", "type": "quantitative", "title": "tokens/s, each", "format": ".3~s"},
                        {"field": "fits", "type": "nominal"},
                    ],
                },
            },
            {
                "data": {"values": [{"per_user": rate}]},
                "mark": {"type": "rule", "strokeDash": [2, 3], "strokeWidth": 1},
                "encoding": {"y": {"field": "per_user", "type": "quantitative"}},
            },
            {
                "data": {"values": [{"total": batch / plan.step(batch), "per_user": 1 / plan.step(batch)}]},
                "mark": {"type": "point", "filled": True, "size": 110, "color": "#e8590c"},
                "encoding": {
                    "x": {"field": "total", "type": "quantitative"},
                    "y": {"field": "per_user", "type": "quantitative"},
                },
            },
        ],
    )


LATENCY_THROUGHPUT = Calculator(
    name="latency-throughput",
    title="Latency against throughput, and the bill at a latency target",
    description=(
        "Per-user against total decode token rate as the batch grows, with the memory limit marked; the largest "
        "batch that meets a per-user rate, and its dollars and joules per million tokens."
    ),
    inputs=(
        chip_input("h100-sxm"),
        precision_input(),
        peak_input(989.4),
        bandwidth_input(3.35),
        Input("memory_gb", "Memory per chip", unit="GB", default=80.0, min=0.001, max=1e6, filled_by="chip"),
        power_input(700.0, help="The vendor's rated power; real draw while decoding is usually lower."),
        price_input(4.916),
        Input("pue", "PUE", default=1.0, min=1.0, max=5.0, step=0.01, help="Facility power per watt of chips."),
        Input("chips", "Chips serving one copy of the model", kind="integer", default=8, min=1, max=1e5),
        # Defaults: Llama 3 70B (Meta's config.json: 80 layers, hidden 8,192, 8 KV heads of 128).
        *transformer_inputs(params_b=70.0, layers=80, hidden=8192),
        Input("context", "Context per sequence", unit="tokens", kind="integer", default=4096, min=1, max=1e8),
        Input("batch", "Batch", unit="sequences", kind="integer", default=64, min=1, max=1e6),
        Input(
            "target_rate",
            "Target speed per user",
            unit="tokens/s",
            default=50.0,
            min=0.001,
            max=1e6,
            help="50 tokens/s is 20 ms per token.",
        ),
        Input(
            "overhead_us",
            "Fixed cost per step",
            unit="µs",
            default=0.0,
            min=0,
            max=1e6,
            help="Communication and kernel launches that do not shrink with the batch.",
        ),
    ),
    outputs=(
        Output("step_time", "Time per decode step", unit="s", format="si"),
        Output("per_user", "Speed per user", unit="tokens/s"),
        Output("total", "Throughput, all users", unit="tokens/s"),
        Output("max_batch", "Largest batch that fits"),
        Output("weight_share", "Share of the step in weight matmuls", format="percent"),
        Output(
            "critical_batch",
            "Batch where the weight matmuls turn compute-bound",
            help="Peak × weight bytes / (bandwidth × 2 × parameters).",
        ),
        Output(
            "attention_intensity",
            "Attention's FLOPs per byte of cache",
            unit="FLOP/byte",
            help="The same at any batch: each sequence brings its own cache.",
        ),
        Output(
            "prefill_time",
            "Prefill of one prompt of that context, at peak",
            unit="s",
            format="si",
            help="The time to the first token, at best: the prompt's FLOPs over the chips' peak.",
        ),
        Output("target_batch", "Largest batch that meets the target"),
        Output("target_total", "Throughput at that batch", unit="tokens/s"),
        Output("target_per_user", "Speed per user at that batch", unit="tokens/s"),
        Output("cost_per_million", "Cost per million tokens, at the target", unit="USD", format="money"),
        Output("energy_per_million", "Energy per million tokens, at the target", unit="J", format="si"),
    ),
    compute=_compute,
    resolve=fill_from_chip("peak_tflops", "bandwidth_tbs", "memory_gb", "power_w", "price_per_hour"),
)
