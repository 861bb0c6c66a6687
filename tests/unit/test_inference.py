"""Inference arithmetic against a published model configuration."""

from __future__ import annotations

import pytest

from calculators import get

INFERENCE = get("inference")
H100 = {"chip": "custom", "peak_tflops": 989, "bandwidth_tbs": 3.35, "memory_gb": 80}


def test_llama_3_8b_kv_cache_per_token() -> None:
    """Llama 3.1 8B (32 layers, 8 KV heads of 128, 16-bit): 2 x 32 x 8 x 128 x 2 B = 128 KiB per token."""
    values = INFERENCE.run(H100).values
    assert values["kv_per_token"] == 131072
    assert values["kv_cache"] == 131072 * 8192


def test_memory_and_chips_needed() -> None:
    """A 70 B model in 16 bits (140 GB of weights) needs two 80 GB chips before any KV cache."""
    values = INFERENCE.run({**H100, "params_b": 70, "layers": 80, "hidden": 8192, "context": 1}).values
    assert values["total_memory"] == pytest.approx(140e9 + 2 * 80 * 8 * 128 * 2)
    assert values["chips"] == 2


def test_decode_step_reads_weights_and_cache() -> None:
    values = INFERENCE.run({**H100, "params_b": 7, "context": 1, "layers": 1}).values
    assert values["decode_time"] == pytest.approx((14e9 + 2 * 8 * 128 * 2) / 3.35e12)


def test_prefill_counts_weights_and_attention() -> None:
    values = INFERENCE.run({**H100, "params_b": 1, "prompt": 1000, "layers": 10, "hidden": 1000}).values
    assert values["prefill_time"] == pytest.approx((2 * 1e9 * 1000 + 2 * 10 * 1000**2 * 1000) / 989e12)


def test_batch_where_decode_turns_compute_bound() -> None:
    """With a short context the KV cache is small: the batch is about ridge x bytes per parameter / 2 = 295."""
    values = INFERENCE.run({**H100, "params_b": 7, "context": 1, "layers": 1}).values
    assert values["compute_bound_batch"] == pytest.approx(989 / 3.35 * 2 / 2, rel=0.01)


def test_long_context_never_turns_compute_bound() -> None:
    """At 8k tokens each sequence's KV cache costs more bytes than its FLOPs can cover."""
    result = INFERENCE.run(H100)
    assert result.values["compute_bound_batch"] == "Never"
    assert result.notes["compute_bound_batch"] == "KV-cache reads grow with the batch as fast as its FLOPs."
