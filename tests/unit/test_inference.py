"""Inference arithmetic against a published model configuration."""

from __future__ import annotations

import pytest

from calckit.book import calculator as get

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


def test_a_chip_without_a_compute_peak_gets_memory_figures_only() -> None:
    """Apple publishes no GPU TFLOP/s for the M3 Ultra: prefill and the compute-bound batch are left out, not borrowed.

    Hand-worked (chapter 27): Llama 3 70B shape at 4.5 bits per weight is 70e9 x 0.5625 = 39.375 GB of weights, plus
    2 x 80 x 8 x 128 x 2 B = 327,680 B per token x 8,192 tokens = 2.684 GB of KV cache; one decode step at Apple's
    819 GB/s takes at least 42.06 GB / 819 GB/s = 51.4 ms, so at most 19.5 tokens per second.
    """
    llama_70b = {"params_b": 70, "layers": 80, "hidden": 8192, "kv_heads": 8, "head_dim": 128, "context": 8192}
    result = INFERENCE.run({"chip": "apple-m3-ultra", "bytes_per_param": "0.5625", **llama_70b})
    values = result.values
    assert values["total_memory"] == pytest.approx(70e9 * 0.5625 + 327_680 * 8192)
    assert values["decode_time"] == pytest.approx((70e9 * 0.5625 + 327_680 * 8192) / 0.819e12)
    assert values["decode_rate"] == pytest.approx(19.47, abs=0.01)
    assert values["prefill_time"] == values["compute_bound_batch"] == "—"
    assert result.notes["prefill_time"] == "Apple M3 Ultra has no published compute peak."
    assert "Prefill is not computed" in result.summary
    assert "989" not in result.summary


def test_a_chip_with_a_peak_still_fills_it() -> None:
    values = INFERENCE.run({"chip": "h200-sxm", "params_b": 7, "context": 1, "layers": 1}).values
    assert values["prefill_time"] == pytest.approx((2 * 7e9 * 2048 + 2 * 2048**2 * 4096) / 989e12)
