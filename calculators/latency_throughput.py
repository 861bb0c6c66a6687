"""Latency against throughput: as the batch grows, each user's tokens come slower and the deployment's come faster.

A decode step at batch B on N chips that share the model (tensor parallelism; its communication is left out, the
`overhead_us` per step stands for it and for kernel launches) runs two kinds of kernel one after the other
(`decode_step` has the model, dense or a mixture of experts, with each kind of attention):

- the weight matmuls: they read the weights once for the batch and do 2 FLOPs per active parameter per token, so they
  take max(weights read / bandwidth, 2 A B / peak): flat while memory-bound, then growing with B. A mixture of experts
  reads more of its experts as B grows, until it reads all of them;
- attention over the KV cache: each sequence reads its own cache and does a fixed number of FLOPs per byte of it, so
  it takes B x max(cache / bandwidth, FLOPs / peak), growing with B from the start.

Each user gets one token per step, 1 / t; the deployment B / t. Memory caps the batch: the weights plus B caches must
fit. A latency target (tokens per second per user) picks the largest batch that still meets it; the chips' price per
hour and power then give the cost and the energy of a million output tokens at that batch (the scaling book's
"Inference" chapter draws the same frontier for PaLM; Pope et al. 2022, "Efficiently Scaling Transformer Inference",
figure 1). Input tokens are billed apart, at the prefill's time per prompt token (`decode_step.Bill`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from calckit.charts import decade_domain, layered, log_axis
from calckit.spec import Calculator, Input, Output, Result, Value, number
from calckit.units import format_number

from .decode_step import (
    EXPERT_SHARE,
    Bill,
    Decode,
    check_model,
    decode_of,
    experts_outputs,
    experts_values,
    model_inputs,
)
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
)

__all__ = ["LATENCY_THROUGHPUT", "decode_at"]

MICRO = 1e-6
NO_BATCH = "—"


def decode_at(inputs: Mapping[str, Value]) -> Decode:
    """The inputs' deployment: the model on `chips` chips, with the fixed cost per step."""
    return decode_of(inputs, chips=number(inputs, "chips"), overhead=number(inputs, "overhead_us") * MICRO)


def _text(key: str, value: Value) -> str:
    return LATENCY_THROUGHPUT.output(key).text(value)


def _compute(inputs: Mapping[str, Value]) -> Result:
    plan = decode_at(inputs)
    batch, rate, prompt = number(inputs, "batch"), number(inputs, "target_rate"), number(inputs, "prompt")
    step = plan.step(batch)
    most = plan.max_batch()
    chosen = plan.batch_for_rate(rate)
    bill = Bill.of(inputs)
    values: dict[str, Value] = {
        "step_time": step,
        "per_user": 1 / step,
        "total": batch / step,
        "max_batch": float(most),
        "weight_share": plan.weight_time(batch) / step,
        "critical_batch": float(plan.compute_bound_batch()),
        "attention_intensity": plan.attention_intensity,
        "prefill_time": plan.prefill(prompt),
        "cost_per_million_input": bill.dollars(plan.prefill(prompt) / prompt),
        "energy_per_million_input": bill.joules(plan.prefill(prompt) / prompt),
    }
    notes: dict[str, str] = {}
    values_moe, notes_moe = experts_values(plan, batch)
    values |= values_moe
    notes |= notes_moe
    if note := price_note(inputs):
        notes["cost_per_million_input"] = note
    if chosen:
        target_step = plan.step(chosen)
        values |= {
            "target_batch": float(chosen),
            "target_total": chosen / target_step,
            "target_per_user": 1 / target_step,
            "cost_per_million_output": bill.dollars(target_step / chosen),
            "energy_per_million_output": bill.joules(target_step / chosen),
        }
        if note := price_note(inputs):
            notes["cost_per_million_output"] = note
        tail = (
            f"; at {format_number(rate)} tokens/s per user the largest batch is {_text('target_batch', chosen)}, "
            f"{_text('target_total', chosen / target_step)} in all; a million output tokens cost "
            f"{_text('cost_per_million_output', values['cost_per_million_output'])} and "
            f"{_text('energy_per_million_output', values['energy_per_million_output'])}"
        )
    else:
        why = "the weights do not fit" if not most else "even one sequence is slower than that"
        for key in (
            "target_batch",
            "target_total",
            "target_per_user",
            "cost_per_million_output",
            "energy_per_million_output",
        ):
            values[key] = NO_BATCH  # a text in a numeric output: each says why, as the build requires
            notes[key] = "No batch meets the target (see the largest batch above)."
        notes["target_batch"] = f"No batch meets {format_number(rate)} tokens/s per user: {why}."
        tail = f"; no batch meets {format_number(rate)} tokens/s per user ({why})"
    fits = batch <= most
    summary = (
        ("Out of memory (the figures assume it fit): " if not fits else "")
        + f"a batch of {format_number(batch)} takes {_text('step_time', step)} per step, "
        f"{_text('per_user', 1 / step)} per user and {_text('total', batch / step)} in all; "
        f"at most {format_number(most)} sequences fit" + tail + f"; a million input tokens, prefilled at peak, cost "
        f"{_text('cost_per_million_input', values['cost_per_million_input'])}." + figures_as_of(inputs)
    )
    return Result(values, summary, chart=_chart(plan, batch, most, rate, summary), notes=notes)


def _chart(plan: Decode, batch: float, most: int, rate: float, summary: str) -> dict[str, Any]:
    """Per-user against total tokens per second, one point per batch, dashed where memory has run out."""
    turn = plan.experts_batch() if plan.model.routed else 1  # drawn for a mixture of experts: where it reads them all
    top = max(batch, 2 * most, 4.0, 2 * turn)
    batches = sorted({*(max(1, round(top ** (i / 48))) for i in range(49)), max(most, 1), int(batch), turn})
    steps = {b: plan.step(b) for b in batches}
    points = [
        {
            "batch": b,
            "total": b / step,
            "per_user": 1 / step,
            "fits": "fits in memory" if b <= most else "does not fit",
        }
        for b, step in steps.items()
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
            *_experts_mark(plan),
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


_FILL = fill_from_chip("peak_tflops", "bandwidth_tbs", "memory_gb", "power_w", "price_per_hour")


def _experts_mark(plan: Decode) -> list[dict[str, Any]]:
    """For a mixture of experts, the point of the curve from which a step reads nearly every expert."""
    if not plan.model.routed:
        return []
    turn = plan.experts_batch()
    label = f"from batch {turn:,}: {EXPERT_SHARE:.0%} of experts read"
    point = {"total": turn / plan.step(turn), "per_user": 1 / plan.step(turn), "label": label}
    where = {"x": {"field": "total", "type": "quantitative"}, "y": {"field": "per_user", "type": "quantitative"}}
    return [
        {
            "data": {"values": [point]},
            "mark": {"type": "point", "shape": "diamond", "filled": True, "size": 90, "color": "#495057"},
            "encoding": {**where, "tooltip": [{"field": "label", "type": "nominal", "title": "experts"}]},
        },
        {
            "data": {"values": [point]},
            "mark": {"type": "text", "align": "left", "dx": 8, "dy": 10, "fontSize": 11},
            "encoding": {**where, "text": {"field": "label", "type": "nominal"}},
        },
    ]


LATENCY_THROUGHPUT = Calculator(
    name="latency-throughput",
    title="Latency against throughput, and the bill at a latency target",
    description=(
        "Per-user against total decode token rate as the batch grows, with the memory limit marked; the largest "
        "batch that meets a per-user rate, and its dollars and joules per million output tokens and input tokens; "
        "dense or a mixture of experts, with any kind of attention."
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
        *model_inputs(params_b=70.0, layers=80, hidden=8192),
        Input("context", "Context per sequence", unit="tokens", kind="integer", default=4096, min=1, max=1e8),
        Input(
            "prompt",
            "Prompt tokens per request",
            kind="integer",
            default=4096,
            min=1,
            max=1e8,
            help="Prefilled once per request, and billed per input token.",
        ),
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
            help="The smallest batch at which their FLOPs take at least as long as their reads: ⌈peak × bytes per "
            "weight / (2 × bandwidth)⌉ for a dense model, about E / k times more for the experts of a mixture.",
        ),
        Output(
            "attention_intensity",
            "Attention's FLOPs per byte of cache",
            unit="FLOP/byte",
            help="The same at any batch: each sequence brings its own cache.",
        ),
        Output(
            "prefill_time",
            "Prefill of one prompt, at peak",
            unit="s",
            format="si",
            help="The time to the first token, at best: the prompt's FLOPs over the chips' peak.",
        ),
        Output("target_batch", "Largest batch that meets the target"),
        Output("target_total", "Throughput at that batch", unit="tokens/s"),
        Output("target_per_user", "Speed per user at that batch", unit="tokens/s"),
        Output(
            "cost_per_million_output",
            "Cost per million output tokens, at the target",
            unit="USD",
            format="money",
            help="The decode steps' time at the target batch, over the tokens they make.",
        ),
        Output("energy_per_million_output", "Energy per million output tokens, at the target", unit="J", format="si"),
        Output(
            "cost_per_million_input",
            "Cost per million input tokens, at least",
            unit="USD",
            format="money",
            help="The prompt's prefill at the chips' peak, over its tokens.",
        ),
        Output("energy_per_million_input", "Energy per million input tokens, at least", unit="J", format="si"),
        *experts_outputs(),
    ),
    compute=_compute,
    resolve=lambda values: check_model(_FILL(values)),
)
