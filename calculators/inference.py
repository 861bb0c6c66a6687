"""Inference arithmetic for a decoder-only transformer, dense or a mixture of experts: memory for weights and KV
cache, and time bounds, on one chip.

The KV cache per token is what `kv_cache` counts for the kind of attention (MHA, GQA, MQA, MLA). A prefill of T tokens
is bound by compute: 2 FLOPs per active parameter per token plus causal attention, 2 x layers x T^2 x hidden for MHA,
GQA and MQA. A decode step runs attention over the cache, then the weight matmuls, each held to its own roofline
(`decode_step` has the model and its sources; the scaling book's "theoretical step time", J. Austin et al., "How to
Scale Your Model", 2025, chapter "All About Transformer Inference"):

    step = max(KV bytes / bandwidth, attention FLOPs / peak) + max(weight bytes read / bandwidth, weight FLOPs / peak).

A mixture of experts holds all its weights in memory, reads at batch B its dense share and the experts the B tokens
were routed to, and does the FLOPs of its active parameters. The one-roofline bound, max(all bytes read / bandwidth,
all FLOPs / peak), is also reported: it is what the step would take if the kernels overlapped perfectly, and it is
never longer than the split model's figure.

A chip whose vendor publishes no compute peak (Apple's M-series, say) still gets its memory and decode figures; what
needs a peak is left out, with the reason, rather than computed from another chip's figure.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from calckit.spec import CUSTOM, Calculator, Input, Output, Result, Value, number, text
from calckit.units import format_si

from .chips import load_chips
from .decode_step import check_model, decode_of, experts_outputs, experts_values, model_inputs
from .hardware import (
    bandwidth_input,
    chip_input,
    figures_as_of,
    fill_from_chip,
    peak_input,
    precision_input,
)
from .roofline import NO_FIGURE

__all__ = ["INFERENCE"]

_FILL_ALL = fill_from_chip("peak_tflops", "bandwidth_tbs", "memory_gb")
_FILL_MEMORY = fill_from_chip("bandwidth_tbs", "memory_gb")


def _no_peak(inputs: Mapping[str, Value]) -> bool:
    """True for a chip from the database that has no published dense peak at any precision."""
    chip = text(inputs, "chip")
    return chip != CUSTOM and not load_chips()[chip].peak_tflops


def _resolve(values: dict[str, Value]) -> dict[str, Value]:
    return check_model(_FILL_MEMORY(values) if _no_peak(values) else _FILL_ALL(values))


def _text(key: str, value: Value) -> str:
    """An output's value as the form shows it: the summary writes each figure the same way."""
    return INFERENCE.output(key).text(value)


def _compute(inputs: Mapping[str, Value]) -> Result:
    plan = decode_of(inputs)
    model = plan.model
    batch, prompt = number(inputs, "batch"), number(inputs, "prompt")
    peak, bandwidth = plan.peak, plan.bandwidth
    kv_cache = plan.kv_per_sequence * batch
    total = model.weights + kv_cache
    chip_memory = plan.memory
    chips = math.ceil(total / chip_memory)
    prefill = batch * plan.prefill(prompt)
    decode = plan.step(batch)
    # One roofline for the whole step: the bytes it reads (the experts a batch touches) and all its FLOPs.
    flops = plan.weight_math_time(batch) * peak + batch * model.attention_flops_per_token * plan.context
    floor = max((model.weights_read(batch) + kv_cache) / bandwidth, flops / peak)
    turning: Value = float(plan.compute_bound_batch())
    matmul_bound = "compute-bound" if plan.weight_math_time(batch) >= plan.weight_read_time(batch) else "memory-bound"
    values_moe, notes_moe = experts_values(plan, batch)
    notes: dict[str, str] = dict(notes_moe)
    prefill_value: Value = prefill
    floor_value: Value = floor
    prefill_text = f"Prefill takes at least {_text('prefill_time', prefill)}; each"
    if _no_peak(inputs):
        # No compute peak to divide by: leave out what needs one rather than borrow another chip's.
        missing = f"{load_chips()[text(inputs, 'chip')].name} has no published compute peak."
        prefill_value = turning = floor_value = NO_FIGURE
        decode = (kv_cache + model.weights_read(batch)) / bandwidth  # the memory floor alone: no peak to compare
        matmul_bound = "memory-bound, compute not counted"
        notes |= {key: missing for key in ("prefill_time", "compute_bound_batch", "decode_floor")}
        notes["decode_time"] = f"{missing} The compute floor is left out."
        prefill_text = "Prefill is not computed (no published compute peak); each"
    summary = (
        f"Weights {format_si(model.weights, 'B')} and KV cache {_text('kv_cache', kv_cache)} make "
        f"{_text('total_memory', total)}, {_text('memory_share', total / chip_memory)} of one chip's memory"
        + (f" (at least {_text('chips', float(chips))} chips)" if chips > 1 else "")
        + f". {prefill_text} decode step takes at least {_text('decode_time', decode)}: attention over the cache, "
        f"then the weight matmuls ({matmul_bound}"
        + (f", reading {_text('weights_read', values_moe['weights_read'])} of weights" if model.routed else "")
        + ")."
        + figures_as_of(inputs)
    )
    return Result(
        {
            "kv_per_token": model.kv_per_token,
            "kv_cache": kv_cache,
            "total_memory": total,
            "memory_share": total / chip_memory,
            "chips": float(chips),
            "prefill_time": prefill_value,
            "decode_time": decode,
            "decode_rate": 1 / decode,
            "decode_floor": floor_value,
            "compute_bound_batch": turning,
            **values_moe,
        },
        summary,
        notes=notes,
    )


INFERENCE = Calculator(
    name="inference",
    title="Inference arithmetic",
    description="Memory and time bounds for serving a transformer: weights, KV cache, prefill and decode.",
    inputs=(
        chip_input("h100-sxm", needs_peak=False),
        precision_input(),
        peak_input(989.0),
        bandwidth_input(3.35),
        Input("memory_gb", "Memory per chip", unit="GB", default=80.0, min=0.001, max=1e6, filled_by="chip"),
        # Defaults: Llama 3.1 8B (Meta's model card and config: 8.03 B parameters, 32 layers, hidden 4096,
        # 8 KV heads of size 128).
        *model_inputs(params_b=8.03, layers=32, hidden=4096),
        Input("prompt", "Prompt tokens", kind="integer", default=2048, min=1, max=1e8),
        Input("context", "Context length", unit="tokens", kind="integer", default=8192, min=1, max=1e8),
        Input("batch", "Batch size", kind="integer", default=1, min=1, max=1e6),
    ),
    outputs=(
        Output("kv_per_token", "KV cache per token", unit="B", format="si"),
        Output("kv_cache", "KV cache, whole batch", unit="B", format="si"),
        Output("total_memory", "Weights + KV cache", unit="B", format="si"),
        Output("memory_share", "Share of one chip's memory", format="percent"),
        Output("chips", "Chips needed for memory"),
        Output("prefill_time", "Prefill time, at least", unit="s", format="si"),
        Output(
            "decode_time",
            "Decode step, at least",
            unit="s",
            format="si",
            help="Attention over the KV cache, then the weight matmuls, each at the longer of its two rooflines.",
        ),
        Output("decode_rate", "Decode rate per sequence, at most", unit="token/s", format="si"),
        Output(
            "decode_floor",
            "Decode step on one roofline, if the kernels overlapped",
            unit="s",
            format="si",
            help="All bytes over the bandwidth, or all FLOPs over the peak, whichever is longer.",
        ),
        Output(
            "compute_bound_batch",
            "Batch where the weight matmuls turn compute-bound",
            help="The smallest batch at which their FLOPs take at least as long as their reads: ⌈ridge × bytes per "
            "weight / 2⌉ for a dense model, about E / k times more for the experts of a mixture.",
        ),
        *experts_outputs(),
    ),
    compute=_compute,
    resolve=_resolve,
)
