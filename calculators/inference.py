"""Inference arithmetic for a decoder-only transformer: memory for weights and KV cache, and time bounds.

KV cache per token = 2 (K and V) x layers x KV heads x head size x bytes per value. A prefill of T tokens is bound by
compute: 2N FLOPs per token for the weights plus 2 x layers x T^2 x hidden for causal attention.

A decode step runs two kinds of kernel, one after the other, and each is held to its own roofline. Attention reads
each sequence's KV cache and does 4 x layers x context x hidden FLOPs with it, a few FLOPs per byte: memory-bound on
any chip. The weight matmuls read the weights once for the whole batch and do 2N FLOPs per sequence: memory-bound at a
small batch, compute-bound from a batch of ridge x weight bytes / 2N on. So (the scaling book's "theoretical step
time", J. Austin et al., "How to Scale Your Model", 2025, chapter "All About Transformer Inference")

    step = max(KV bytes / bandwidth, attention FLOPs / peak) + max(weight bytes / bandwidth, weight FLOPs / peak).

The one-roofline bound, max(all bytes / bandwidth, all FLOPs / peak), is also reported: it is what the step would
take if the two kernels overlapped perfectly, and it is never longer than the split model's figure.

A chip whose vendor publishes no compute peak (Apple's M-series, say) still gets its memory and decode figures; what
needs a peak is left out, with the reason, rather than computed from another chip's figure.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from calckit.spec import CUSTOM, Calculator, Input, Output, Result, Value, number, text
from calckit.units import format_si

from .chips import load_chips
from .hardware import (
    bandwidth_input,
    chip_input,
    figures_as_of,
    fill_from_chip,
    peak_input,
    precision_input,
    transformer_inputs,
)
from .roofline import NO_FIGURE

__all__ = ["INFERENCE"]

GIGA, TERA = 1e9, 1e12
_FILL_ALL = fill_from_chip("peak_tflops", "bandwidth_tbs", "memory_gb")
_FILL_MEMORY = fill_from_chip("bandwidth_tbs", "memory_gb")


def _no_peak(inputs: Mapping[str, Value]) -> bool:
    """True for a chip from the database that has no published dense peak at any precision."""
    chip = text(inputs, "chip")
    return chip != CUSTOM and not load_chips()[chip].peak_tflops


def _resolve(values: dict[str, Value]) -> dict[str, Value]:
    return _FILL_MEMORY(values) if _no_peak(values) else _FILL_ALL(values)


def _text(key: str, value: Value) -> str:
    """An output's value as the form shows it: the summary writes each figure the same way."""
    return INFERENCE.output(key).text(value)


def _compute(inputs: Mapping[str, Value]) -> Result:
    params = number(inputs, "params_b") * GIGA
    layers, hidden = number(inputs, "layers"), number(inputs, "hidden")
    batch, prompt, context = number(inputs, "batch"), number(inputs, "prompt"), number(inputs, "context")
    peak, bandwidth = number(inputs, "peak_tflops") * TERA, number(inputs, "bandwidth_tbs") * TERA
    weights = params * float(text(inputs, "bytes_per_param"))
    kv_per_token = (
        2 * layers * number(inputs, "kv_heads") * number(inputs, "head_dim") * float(text(inputs, "kv_bytes"))
    )
    kv_per_sequence = kv_per_token * context
    kv_cache = kv_per_sequence * batch
    total = weights + kv_cache
    chip_memory = number(inputs, "memory_gb") * GIGA
    chips = math.ceil(total / chip_memory)
    prefill = batch * (2 * params * prompt + 2 * layers * prompt**2 * hidden) / peak
    # The step's FLOPs for the whole batch: the weights', and attention's over each context (scores, weighted sum).
    weight_flops, attention_flops = 2 * params * batch, 4 * layers * context * hidden * batch
    attention = max(kv_cache / bandwidth, attention_flops / peak)
    matmuls = max(weights / bandwidth, weight_flops / peak)
    decode = attention + matmuls
    floor = max(total / bandwidth, (weight_flops + attention_flops) / peak)
    turning: Value = float(math.ceil(peak * weights / (2 * params * bandwidth)))
    matmul_bound = "compute-bound" if weight_flops / peak >= weights / bandwidth else "memory-bound"
    notes: dict[str, str] = {}
    prefill_value: Value = prefill
    floor_value: Value = floor
    prefill_text = f"Prefill takes at least {_text('prefill_time', prefill)}; each"
    if _no_peak(inputs):
        # No compute peak to divide by: leave out what needs one rather than borrow another chip's.
        missing = f"{load_chips()[text(inputs, 'chip')].name} has no published compute peak."
        prefill_value = turning = floor_value = NO_FIGURE
        decode = (kv_cache + weights) / bandwidth  # the memory floor alone: no peak to compare against
        matmul_bound = "memory-bound, compute not counted"
        notes = {key: missing for key in ("prefill_time", "compute_bound_batch", "decode_floor")}
        notes["decode_time"] = f"{missing} The compute floor is left out."
        prefill_text = "Prefill is not computed (no published compute peak); each"
    summary = (
        f"Weights {format_si(weights, 'B')} and KV cache {_text('kv_cache', kv_cache)} make "
        f"{_text('total_memory', total)}, {_text('memory_share', total / chip_memory)} of one chip's memory"
        + (f" (at least {_text('chips', float(chips))} chips)" if chips > 1 else "")
        + f". {prefill_text} decode step takes at least {_text('decode_time', decode)}: attention over the cache, "
        f"then the weight matmuls ({matmul_bound})." + figures_as_of(inputs)
    )
    return Result(
        {
            "kv_per_token": kv_per_token,
            "kv_cache": kv_cache,
            "total_memory": total,
            "memory_share": total / chip_memory,
            "chips": float(chips),
            "prefill_time": prefill_value,
            "decode_time": decode,
            "decode_rate": 1 / decode,
            "decode_floor": floor_value,
            "compute_bound_batch": turning,
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
        *transformer_inputs(params_b=8.03, layers=32, hidden=4096),
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
            help="Ridge × weight bytes / (2 × parameters); attention over the cache stays memory-bound.",
        ),
    ),
    compute=_compute,
    resolve=_resolve,
)
