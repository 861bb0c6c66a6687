"""Inference arithmetic against a published model configuration."""

from __future__ import annotations

from typing import ClassVar

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
    """At batch 1 both kernels are memory-bound: the step is the weights' and the cache's bytes over the bandwidth."""
    values = INFERENCE.run({**H100, "params_b": 7, "context": 1, "layers": 1}).values
    assert values["decode_time"] == pytest.approx((14e9 + 2 * 8 * 128 * 2) / 3.35e12)
    assert values["decode_floor"] == pytest.approx(values["decode_time"])


def test_prefill_counts_weights_and_attention() -> None:
    values = INFERENCE.run({**H100, "params_b": 1, "prompt": 1000, "layers": 10, "hidden": 1000}).values
    assert values["prefill_time"] == pytest.approx((2 * 1e9 * 1000 + 2 * 10 * 1000**2 * 1000) / 989e12)


class TestDecodeIsNeverShorterThanEitherRoofline:
    """Issue 24, item 2: Llama 3.1 8B (8.03 B parameters, 32 layers, hidden 4,096, 8 KV heads of 128; Meta's model
    card and config.json) at batch 1,000 and a 128-token context on an H100 SXM (989.4 TFLOP/s dense BF16, NVIDIA's
    Hopper whitepaper; 3.35 TB/s, NVIDIA's data sheet).

    Bytes: weights 8.03e9 x 2 = 16.06 GB; cache 131,072 B x 128 x 1,000 = 16.78 GB; 32.84 GB / 3.35e12 = 9.80 ms.
    FLOPs: (2 x 8.03e9 + 4 x 32 x 128 x 4,096) x 1,000 = 1.6127e13; / 989.4e12 = 16.30 ms, the compute floor.
    Split (the scaling book's step time): attention max(16.78e9 / 3.35e12 = 5.008 ms, 6.71e10 / 989.4e12 = 0.068 ms)
    plus the weight matmuls max(16.06e9 / 3.35e12 = 4.794 ms, 1.606e13 / 989.4e12 = 16.232 ms) = 21.24 ms.
    """

    CASE: ClassVar[dict[str, object]] = {"chip": "h100-sxm", "batch": 1000, "context": 128}

    def test_the_old_figure_was_below_the_compute_floor(self) -> None:
        memory_only = (8.03e9 * 2 + 131072 * 128 * 1000) / 3.35e12
        compute_floor = (2 * 8.03e9 + 4 * 32 * 128 * 4096) * 1000 / 989.4e12
        assert memory_only == pytest.approx(9.80e-3, abs=0.005e-3)
        assert compute_floor == pytest.approx(16.3e-3, abs=0.05e-3)
        values = INFERENCE.run(self.CASE).values
        assert values["decode_floor"] == pytest.approx(compute_floor)
        assert values["decode_time"] >= compute_floor

    def test_split_step(self) -> None:
        values = INFERENCE.run(self.CASE).values
        assert values["decode_time"] == pytest.approx(131072 * 128 * 1000 / 3.35e12 + 2 * 8.03e9 * 1000 / 989.4e12)
        assert values["decode_time"] == pytest.approx(21.24e-3, abs=0.005e-3)
        assert values["decode_rate"] == pytest.approx(47.08, abs=0.01)

    def test_weight_matmuls_turn_compute_bound_at_the_ridge(self) -> None:
        """16-bit weights: ridge x 2 bytes / 2 FLOPs = 989.4 / 3.35 = 295.3, so from batch 296 on."""
        assert INFERENCE.run(self.CASE).values["compute_bound_batch"] == 296


def test_llama_3_70b_on_two_h200s() -> None:
    """Issue 24, item 3, as one chip with two H200s' figures (tensor parallelism splits weights and caches evenly).

    Two H200s (989 TFLOP/s, 4.8 TB/s each), Llama 3 70B (80 layers, 8 KV heads of 128), 1,024 tokens, batch 400:
    cache 327,680 x 1,024 x 400 = 134.2 GB / 9.6e12 = 13.98 ms; weights 140 GB / 9.6e12 = 14.58 ms against
    2 x 70e9 x 400 / 1.978e15 = 28.31 ms; step 42.29 ms. One roofline: max(274.2 GB / 9.6e12 = 28.56 ms,
    (5.6e13 + 4 x 80 x 1,024 x 8,192 x 400 = 5.707e13) / 1.978e15 = 28.85 ms) = 28.85 ms.
    """
    llama_70b = {"params_b": 70, "layers": 80, "hidden": 8192, "context": 1024}
    two_h200s = {"chip": "custom", "peak_tflops": 2 * 989, "bandwidth_tbs": 2 * 4.8, "memory_gb": 2 * 141}
    one_chip = INFERENCE.run({**two_h200s, **llama_70b, "batch": 400}).values
    assert one_chip["decode_time"] == pytest.approx(42.29e-3, abs=0.005e-3)
    assert one_chip["decode_floor"] == pytest.approx(28.85e-3, abs=0.005e-3)
    assert one_chip["compute_bound_batch"] == 207


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
    assert values["prefill_time"] == values["compute_bound_batch"] == values["decode_floor"] == "—"
    assert result.notes["prefill_time"] == "Apple M3 Ultra has no published compute peak."
    assert "Prefill is not computed" in result.summary
    assert "989" not in result.summary


def test_a_chip_with_a_peak_still_fills_it() -> None:
    values = INFERENCE.run({"chip": "h200-sxm", "params_b": 7, "context": 1, "layers": 1}).values
    assert values["prefill_time"] == pytest.approx((2 * 7e9 * 2048 + 2 * 2048**2 * 4096) / 989e12)
