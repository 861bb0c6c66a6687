"""Cases issue 24 does not list, worked with the formulas of the scaling book and run through the calculators.

J. Austin et al. (Google DeepMind), "How to Scale Your Model", 2025, <https://jax-ml.github.io/scaling-book/>, read
from github.com/jax-ml/scaling-book at 0819a7d: inference.md, training.md, sharding.md, gpus.md. Where the book
rounds or drops a factor, the docstring says which, and the assertion keeps the calculator's exact figure.
"""

from __future__ import annotations

from typing import ClassVar

import pytest

from calckit.book import calculator as get

INFERENCE, SERVING, ALLREDUCE = get("inference"), get("serving"), get("allreduce")
TRAINING, MBU = get("training"), get("mbu")


def test_llama_2_13b_kv_cache() -> None:
    """inference.md: 8,192 (T) x 40 (K) x 128 (H) x 40 (L) x 2 bytes x 2 = 6.7 GB for one sequence."""
    shape = {"layers": 40, "kv_heads": 40, "head_dim": 128, "hidden": 5120, "params_b": 13, "context": 8192}
    values = INFERENCE.run({"chip": "tpu-v5e", **shape}).values
    assert values["kv_cache"] == 8192 * 40 * 128 * 40 * 2 * 2
    assert values["kv_cache"] / 1e9 == pytest.approx(6.71, abs=0.005)


class TestStepTimeOnSixteenV5e:
    """inference.md, the worked question after "Theoretical Step Time (General)": a 30 B model in int8 (30e9 bytes)
    on 16 TPU v5e (8.1e11 B/s and 1.97e14 FLOP/s each), caches of 100,000 tokens x 8,192 B = 819 MB per sequence.
    Batch 4: (4 x 819e6 + 30e9) / (16 x 8.1e11) = 2.5 ms (2.568 exactly). Batch 256: 256 x 819e6 / (16 x 8.1e11) +
    2 x 256 x 30e9 / (16 x 1.97e14) = 16.18 + 4.87 = 21 ms. The cache's 8,192 B per token: 16 layers x 1 KV head
    of 128 x 2 (K and V) x 2 bytes; attention's FLOPs (hidden 8,192) stay under its reads, as the book assumes."""

    SETUP: ClassVar[dict[str, object]] = {
        "chip": "custom",
        "peak_tflops": 197,
        "bandwidth_tbs": 0.81,
        "memory_gb": 16,
        "chips": 16,
        "params_b": 30,
        "bytes_per_param": "1",
        "layers": 16,
        "hidden": 8192,
        "kv_heads": 1,
        "head_dim": 128,
        "kv_bytes": "2",
        "context": 100_000,
    }

    def test_small_batch_is_memory_bound(self) -> None:
        values = SERVING.run({**self.SETUP, "batch": 4}).values
        assert values["step_time"] == pytest.approx((4 * 819.2e6 + 30e9) / (16 * 8.1e11))
        assert values["step_time"] * 1e3 == pytest.approx(2.568, abs=0.001)
        assert values["bound"] == "Memory-bound"

    def test_large_batch_adds_cache_reads_to_compute(self) -> None:
        values = SERVING.run({**self.SETUP, "batch": 256}).values
        expected = 256 * 819.2e6 / (16 * 8.1e11) + 2 * 256 * 30e9 / (16 * 1.97e14)
        assert values["step_time"] == pytest.approx(expected)
        assert round(values["step_time"] * 1e3) == 21
        assert values["bound"] == "Weight matmuls compute-bound"


class TestTensorParallelOnTpuV5p:
    """training.md, tensor parallelism: Y < F / 2550 on TPU v5p (C / W_ici = 4.59e14 / 1.8e11), for a two-matrix MLP
    with the ring's (Y - 1) / Y dropped. The calculator keeps it, so its largest split is 1 + F / 2550."""

    V5P: ClassVar[dict[str, object]] = {"chip": "custom", "peak_tflops": 459, "link_gbs": 180, "matrices": "2"}

    def test_llama_3_70b_eight_way_yes_sixteen_way_no(self) -> None:
        """'With LLaMA 3-70B with F ~ 30,000, we can comfortably do 8-way model parallelism, but will be
        communication bound on 16 way'; 1 + 30,000 / 2,550 = 12.76, so up to 12."""
        eight = ALLREDUCE.run({**self.V5P, "d_ff": 30_000, "chips": 8}).values
        sixteen = ALLREDUCE.run({**self.V5P, "d_ff": 30_000, "chips": 16}).values
        assert eight["bound"] == "Compute-bound"
        assert sixteen["bound"] == "Communication-bound"
        assert eight["max_chips"] == 12
        assert eight["min_d_ff"] == pytest.approx(7 * 2550, rel=1e-3)  # 'the required F for 8-way is 20k' (17,850)

    def test_gemma_7b(self) -> None:
        """'For Gemma 7B, F ~ 50k, so we become communication bound with 19-way model parallelism' (50,000 / 2,550
        = 19.6); with the ring's factor, 20-way still computes for longer and 21-way does not."""
        assert ALLREDUCE.run({**self.V5P, "d_ff": 50_000, "chips": 20}).values["bound"] == "Compute-bound"
        assert ALLREDUCE.run({**self.V5P, "d_ff": 50_000, "chips": 21}).values["bound"] == "Communication-bound"

    def test_precision_does_not_matter(self) -> None:
        """'This doesn't depend on the precision': int8 doubles C and halves the bytes reduced."""
        bf16 = ALLREDUCE.run({**self.V5P, "d_ff": 30_000}).values["ratio"]
        int8 = ALLREDUCE.run({**self.V5P, "d_ff": 30_000, "peak_tflops": 918, "value_bytes": "1"}).values["ratio"]
        assert int8 == pytest.approx(bf16)


def test_latency_bound_decode_all_reduce() -> None:
    """inference.md, appendix C: with BS = 16 and D = 8,192 in int8 the activations are 131 kB, and 8-way sharding
    over 4.5e10 B/s of ICI is latency-bound at about 1 us per hop. The bandwidth term of the ring: 2 x 7/8 x 131,072
    / 4.5e10 = 5.1 us; its 14 steps at 1 us: 14 us, most of the all-reduce."""
    values = ALLREDUCE.run({"chip": "tpu-v5e", "link_gbs": 45, "batch": 16, "value_bytes": "1", "latency_us": 1}).values
    assert values["message_bytes"] == 131_072
    bandwidth_term = 2 * 7 / 8 * 131_072 / 45e9
    assert values["comm_time"] == pytest.approx(14e-6 + bandwidth_term)
    assert 14e-6 / values["comm_time"] > 0.7


def test_llama_3_70b_training_time() -> None:
    """training.md: 6.3e24 FLOPs (6 x 70e9 x 15e12) on 18,823 TPU v5p at 4.59e14 FLOP/s and 50% MFU:
    'train it in approximately 17 days' (16.88)."""
    inputs = {"chip": "custom", "peak_tflops": 459, "params_b": 70, "tokens_t": 15, "chips": 18_823, "mfu": 50}
    values = TRAINING.run(inputs).values
    assert values["flops"] == pytest.approx(6.3e24)
    assert values["days"] == pytest.approx(16.88, abs=0.01)


def test_palm_540b_mfu() -> None:
    """PaLM (Chowdhery et al., 2022), appendix B, the formula the scaling book's MFU follows: 6N + 12 L H Q T per
    token, N = 540.35e9, L = 118, H x Q = 48 x 256 = 12,288 (the attention width, not d_model's 18,432), T = 2,048:
    3.278e12 FLOPs per token; at 238.3k tokens/s on 6,144 TPU v4 of 275 TFLOP/s, 46.2% MFU (table 3)."""
    inputs = {
        "chip": "custom",
        "peak_tflops": 275,
        "mode": "training",
        "params_b": 540.35,
        "layers": 118,
        "hidden": 12288,
        "seq_len": 2048,
        "tokens_per_s": 238_300 / 6144,  # per chip, against one chip's peak
    }
    assert MBU.run(inputs).values["mfu"] == pytest.approx(0.462, abs=0.0005)
