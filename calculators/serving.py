"""Serving a transformer at batch B, dense or a mixture of experts: what fits, how fast each token comes, and what a
million tokens cost, output and input apart.

Each decode step runs attention, which reads each sequence's KV cache once and does a fixed number of FLOPs per byte
of it (set by the kind of attention), and the weight matmuls, which read the weights once for the whole batch (for a
mixture of experts, the dense share and the experts that the batch's tokens were routed to) and do 2 FLOPs per active
parameter per sequence. They are separate kernels, each held to its own roofline, so on `chips` chips that share the
work (tensor parallelism, communication left out) a step takes at least

    max(KV bytes / bandwidth, attention FLOPs / peak) + max(weight bytes read / bandwidth, weight FLOPs / peak)

(the scaling book's step time: J. Austin et al., "How to Scale Your Model", 2025, "All About Transformer Inference";
`decode_step` has the model). Attention with MHA, GQA or MQA stays memory-bound; the weight matmuls turn compute-bound
from a batch of ridge x bytes per weight / 2 on, E / k times later for the experts of a mixture.
Tensor parallelism needs the chips to divide the query heads, and to divide the KV heads or be a multiple of them
(vLLM's check); a split that does not is flagged. Memory bounds the batch: the weights plus B caches must fit in the
chips' memory. Energy is the chips' rated power times the PUE for the step's duration; cost is the chips' price per
hour for the same time (the chip database's price where a cloud publishes one). Both are divided by the B tokens the
step produces: the price of output tokens. Input tokens are priced apart, at the prompt's prefill time per token
(`decode_step.Bill`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from calckit.charts import decade_domain, layered, log_axis
from calckit.spec import Calculator, Input, Output, Result, Value, number
from calckit.units import format_number, format_si

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

__all__ = ["SERVING"]

KWH = 3.6e6


def split_problem(chips: float, heads: float, kv_heads: float) -> str:
    """Why tensor parallelism cannot split this model over `chips` chips, or '' if it can.

    vLLM requires the query heads to divide by the tensor-parallel size, and the KV heads either to divide by it or
    to divide it (each chip then keeps a copy of one KV head).
    """
    if chips == 1 or heads != int(heads):
        return ""
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
    chips, batch, prompt = number(inputs, "chips"), number(inputs, "batch"), number(inputs, "prompt")
    plan = decode_of(inputs, chips=chips)
    model = plan.model
    step = plan.step(batch)
    attention = plan.attention_time(batch)
    needed = model.weights + batch * plan.kv_per_sequence
    most = plan.max_batch()
    fits = needed <= plan.memory
    memory_bound = plan.weight_read_time(batch) >= plan.weight_math_time(batch)
    # MLA's latent belongs to no head: any split holds all of it, as one KV head replicated would.
    problem = split_problem(chips, model.heads, model.kv_heads if model.attention != "mla" else 1.0)
    bill = Bill.of(inputs)
    output_cost, output_energy = bill.dollars(step / batch), bill.joules(step / batch) / KWH
    prefill_per_token = plan.prefill(prompt) / prompt
    verdict: Value = (
        "yes"
        if fits
        else (
            f"no: needs {format_si(needed, 'B')} of {format_si(plan.memory, 'B')}; "
            + (f"at most {most} sequences fit" if most else "the weights alone do not fit")
        )
    )
    values_moe, notes_moe = experts_values(plan, batch)
    reads = f", reading {_text('experts_read', values_moe['experts_read'])} of the experts" if model.routed else ""
    summary = (
        ("Out of memory (the figures that follow assume it fit): " if not fits else "")
        + f"a batch of {format_number(batch)} on {format_number(chips)} chip{'s' if chips != 1 else ''} takes "
        f"{_text('step_time', step)} per step, "
        f"{_text('throughput', batch / step)} in all and {_text('per_sequence', 1 / step)} per sequence "
        f"(attention over the caches {_text('attention_time', attention)}, then the weight matmuls "
        f"{_text('matmul_time', step - attention)}, {'memory' if memory_bound else 'compute'}-bound{reads}); "
        "a million output tokens cost "
        f"{_text('cost_per_million_output', output_cost)} and "
        f"{_text('energy_per_million_output', output_energy)}, a million input tokens at least "
        f"{_text('cost_per_million_input', bill.dollars(prefill_per_token))}."
        + (f" {problem}" if problem else "")
        + figures_as_of(inputs)
    )
    price = price_note(inputs)
    return Result(
        {
            "fits": verdict,
            "memory_needed": needed,
            "max_batch": float(most),
            "step_time": step,
            "attention_time": attention,
            "matmul_time": step - attention,
            "bound": "Memory-bound" if memory_bound else "Weight matmuls compute-bound",
            "throughput": batch / step,
            "per_sequence": 1 / step,
            "compute_bound_batch": float(plan.compute_bound_batch()),
            "attention_intensity": plan.attention_intensity,
            **values_moe,
            "tokens_per_joule": 1 / bill.joules(step / batch) * 1e6,
            "energy_per_million_output": output_energy,
            "cost_per_million_output": output_cost,
            "prefill_time": plan.prefill(prompt),
            "energy_per_million_input": bill.joules(prefill_per_token) / KWH,
            "cost_per_million_input": bill.dollars(prefill_per_token),
        },
        summary,
        chart=_chart(plan, batch, most, summary),
        notes={
            **notes_moe,
            **({"step_time": problem} if problem else {}),
            **({"cost_per_million_output": price, "cost_per_million_input": price} if price else {}),
        },
    )


def _chart(plan: Decode, batch: float, most: int, summary: str) -> dict[str, Any]:
    """Tokens per second of the whole batch against the batch, drawn as far as memory allows."""
    turn = plan.experts_batch() if plan.model.routed else 1  # drawn for a mixture of experts: where it reads them all
    top = max(batch, most, 2.0, 2 * turn)
    batches = sorted({*(round(top ** (i / 40)) for i in range(41)), max(most, 1), batch, turn})
    points = [
        {"batch": b, "tokens": b / plan.step(b), "fits": "fits in memory" if b <= most else "does not fit"}
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
            *_experts_rule(plan),
            {
                "data": {"values": [{"batch": batch, "tokens": batch / plan.step(batch)}]},
                "mark": {"type": "point", "filled": True, "size": 110, "color": "#e8590c"},
                "encoding": {
                    "x": {"field": "batch", "type": "quantitative"},
                    "y": {"field": "tokens", "type": "quantitative"},
                },
            },
        ],
    )


def _experts_rule(plan: Decode) -> list[dict[str, Any]]:
    """For a mixture of experts, a rule at the batch from which a step reads nearly every expert."""
    if not plan.model.routed:
        return []
    rule = {"batch": plan.experts_batch(), "label": f"{EXPERT_SHARE:.0%} of experts read"}
    return [
        {
            "data": {"values": [rule]},
            "mark": {"type": "rule", "strokeDash": [2, 3], "strokeWidth": 1},
            "encoding": {"x": {"field": "batch", "type": "quantitative"}},
        },
        {
            "data": {"values": [rule]},
            "mark": {"type": "text", "align": "left", "baseline": "top", "dx": 4, "y": 4, "fontSize": 11},
            "encoding": {
                "x": {"field": "batch", "type": "quantitative"},
                "text": {"field": "label", "type": "nominal"},
            },
        },
    ]


_FILL = fill_from_chip("peak_tflops", "bandwidth_tbs", "memory_gb", "power_w", "price_per_hour")

SERVING = Calculator(
    name="serving",
    title="Serving economics",
    description=(
        "Batch-B decoding of a transformer, dense or a mixture of experts: whether the KV cache fits, time and "
        "throughput per step, energy and cost per million output and input tokens."
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
        *model_inputs(params_b=70.0, layers=80, hidden=8192),
        Input("context", "Context per sequence", unit="tokens", kind="integer", default=8192, min=1, max=1e8),
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
            help="The smallest batch at which their FLOPs take at least as long as their reads: ⌈ridge × bytes per "
            "weight / 2⌉ for a dense model, about E / k times more for the experts of a mixture.",
        ),
        Output(
            "attention_intensity",
            "Attention's FLOPs per byte of cache",
            unit="FLOP/byte",
            help="The same at any batch; memory-bound below the chip's ridge point.",
        ),
        Output("tokens_per_joule", "Output tokens per joule"),
        Output("energy_per_million_output", "Energy per million output tokens", unit="kWh"),
        Output(
            "cost_per_million_output",
            "Cost per million output tokens",
            unit="USD",
            format="money",
            help="The decode step's time over the batch's tokens.",
        ),
        Output("prefill_time", "Prefill of one prompt, at peak", unit="s", format="si"),
        Output("energy_per_million_input", "Energy per million input tokens, at least", unit="kWh"),
        Output(
            "cost_per_million_input",
            "Cost per million input tokens, at least",
            unit="USD",
            format="money",
            help="The prompt's prefill at the chips' peak, over its tokens.",
        ),
        *experts_outputs(),
    ),
    compute=_compute,
    resolve=lambda values: check_model(_FILL(values)),
)
