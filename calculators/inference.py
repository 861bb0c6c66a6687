"""Inference arithmetic for a decoder-only transformer: memory for weights and KV cache, and time bounds.

KV cache per token = 2 (K and V) x layers x KV heads x head size x bytes per value. A prefill of T tokens is bound by
compute: 2N FLOPs per token for the weights plus 2 x layers x T^2 x hidden for causal attention. A decode step is
bound by memory: it reads every weight and the whole KV cache once. Decode turns compute-bound when the FLOPs per
byte of a step reach the chip's ridge point; since the KV cache grows with the batch, it may never do so.

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


NEVER = "KV-cache reads grow with the batch as fast as its FLOPs."


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
    decode = total / bandwidth
    # Decode FLOPs per sequence per step: the weights, and attention over the context (scores and weighted sum).
    flops_per_sequence = 2 * params + 4 * layers * context * hidden
    ridge = peak / bandwidth
    headroom = flops_per_sequence - ridge * kv_per_sequence
    turning: Value = float(math.ceil(ridge * weights / headroom)) if headroom > 0 else "Never"
    notes = {} if headroom > 0 else {"compute_bound_batch": NEVER}
    prefill_value: Value = prefill
    prefill_text = f"Prefill takes at least {_text('prefill_time', prefill)}; each"
    if _no_peak(inputs):
        # No compute peak to divide by: leave out what needs one rather than borrow another chip's.
        missing = f"{load_chips()[text(inputs, 'chip')].name} has no published compute peak."
        prefill_value = turning = NO_FIGURE
        notes = {"prefill_time": missing, "compute_bound_batch": missing}
        prefill_text = "Prefill is not computed (no published compute peak); each"
    summary = (
        f"Weights {format_si(weights, 'B')} and KV cache {_text('kv_cache', kv_cache)} make "
        f"{_text('total_memory', total)}, {_text('memory_share', total / chip_memory)} of one chip's memory"
        + (f" (at least {_text('chips', float(chips))} chips)" if chips > 1 else "")
        + f". {prefill_text} decode step at least {_text('decode_time', decode)}."
        + figures_as_of(inputs)
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
        Output("decode_time", "Decode step, at least", unit="s", format="si"),
        Output("decode_rate", "Decode rate per sequence, at most", unit="token/s", format="si"),
        Output("compute_bound_batch", "Batch where decode turns compute-bound"),
    ),
    compute=_compute,
    resolve=_resolve,
)
