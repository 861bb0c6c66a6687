"""MBU and MFU against worked examples with their sources."""

from __future__ import annotations

import pytest

from calckit.api import run
from calckit.book import calculator as get

from .page_text import assert_says

MBU = get("mbu")
TWO_TBS = {"chip": "custom", "peak_tflops": 312, "bandwidth_tbs": 2.0}
TRAINING_7B = {**TWO_TBS, "mode": "training", "params_b": 7, "tokens_per_s": 3000}


class TestDecode:
    def test_seed_example_corrected(self) -> None:
        """7 B parameters x 2 bytes x 100 token/s is 1.4 TB/s (not 700 GB/s): 70 % of 2.0 TB/s."""
        values = MBU.run({**TWO_TBS, "params_b": 7, "bytes_per_param": "2", "tokens_per_s": 100}).values
        assert values["achieved_bandwidth"] == pytest.approx(1.4e12)
        assert values["mbu"] == pytest.approx(0.70)
        assert values["bound"] == "Memory-bound"

    def test_databricks_example(self) -> None:
        """Databricks, "LLM Inference Performance Engineering: Best Practices" (2023): a 7 B model in 16 bits at
        14 ms per output token moves about 1 TB/s, 50 % MBU on a 2 TB/s A100."""
        values = MBU.run({**TWO_TBS, "params_b": 7, "tokens_per_s": 1 / 0.014}).values
        assert values["achieved_bandwidth"] == pytest.approx(1e12)
        assert values["mbu"] == pytest.approx(0.5)

    def test_halving_bytes_halves_the_bandwidth_needed(self) -> None:
        full = MBU.run({**TWO_TBS, "bytes_per_param": "2"}).values["achieved_bandwidth"]
        half = MBU.run({**TWO_TBS, "bytes_per_param": "1"}).values["achieved_bandwidth"]
        assert half == pytest.approx(full / 2)

    def test_mfu_counts_2n_flops_per_token_per_sequence(self) -> None:
        values = MBU.run({**TWO_TBS, "params_b": 7, "tokens_per_s": 100, "batch": 8}).values
        assert values["achieved_flops"] == pytest.approx(2 * 7e9 * 8 * 100)
        assert values["mfu"] == pytest.approx(2 * 7e9 * 8 * 100 / 312e12)

    def test_kv_cache_reads_add_to_each_step(self) -> None:
        values = MBU.run({**TWO_TBS, "params_b": 7, "tokens_per_s": 100, "kv_cache_gb": 6}).values
        assert values["achieved_bandwidth"] == pytest.approx((14e9 + 6e9) * 100)

    def test_beyond_the_chip_is_said(self) -> None:
        """Above 100% is not a result: the output carries a note beside it, and the summary says so too."""
        result = run("mbu", {**TWO_TBS, "params_b": 70, "tokens_per_s": 100})
        assert result["outputs"][1]["text"] == "700%"
        assert result["outputs"][1]["note"] == "More than the memory can deliver: check the inputs."
        assert result["outputs"][3]["note"] == ""
        assert "more than the chip's peak bandwidth, which no chip can exceed: check the inputs" in result["summary"]

    def test_a_14b_model_on_an_a100_is_beyond_its_memory(self) -> None:
        """The issue's case: 14 B at 2 bytes, 100 token/s, 2.039 TB/s is 137%, written so in output and summary."""
        result = run("mbu", {"params_b": 14})
        assert result["outputs"][1]["text"] == "137%"
        assert "an MBU of 137%," in result["summary"]
        assert result["outputs"][1]["note"].startswith("More than the memory can deliver")

    def test_mfu_beyond_peak_compute_is_noted(self) -> None:
        result = run("mbu", {**TWO_TBS, "mode": "training", "params_b": 700, "tokens_per_s": 1000})
        assert result["outputs"][3]["note"] == "More than the chip can compute: check the inputs."

    def test_the_chip_fills_bandwidth(self) -> None:
        """The default chip is the A100 80GB SXM at 2.039 TB/s: the 1.4 TB/s decode is 68.7 % MBU."""
        assert run("mbu", {})["outputs"][1]["text"] == "68.7%"


class TestTraining:
    def test_mfu_counts_6n(self) -> None:
        """Training costs about 6N FLOPs per token (Kaplan et al. 2020): 7 B at 3,000 token/s is 126 TFLOP/s."""
        weights_only = {"mode": "training", "params_b": 7, "tokens_per_s": 3000, "seq_len": 0}
        values = MBU.run({**TWO_TBS, **weights_only}).values
        assert values["achieved_flops"] == pytest.approx(126e12)
        assert values["mfu"] == pytest.approx(126 / 312)
        assert values["mbu"] == "—"
        notes = {o["key"]: o["note"] for o in run("mbu", {"mode": "training"})["outputs"]}
        assert notes["mbu"] == "Not a useful measure for training, which is compute-bound."


class TestAttentionFlopsAndHfu:
    """Issue 24, item 5: MFU counts attention's FLOPs, and HFU the recomputed ones.

    PaLM (Chowdhery et al., 2022, appendix B): the model's FLOPs per token are 6N + 12 L H Q T, with H Q the hidden
    size and T the sequence length; HFU adds what rematerialisation recomputes.
    """

    def test_palm_formula_for_a_7b_shape(self) -> None:
        """Llama 2 7B's shape (32 layers, hidden 4,096), 4,096-token sequences, 3,000 token/s on 312 TFLOP/s:
        6 x 7e9 + 12 x 32 x 4,096 x 4,096 = 42e9 + 6.442e9 = 48.44e9 FLOPs per token; x 3,000 = 145.3 TFLOP/s;
        MFU 46.58%, where 6N alone gives 40.38%."""
        values = MBU.run({**TWO_TBS, "mode": "training", "params_b": 7, "tokens_per_s": 3000}).values
        assert values["achieved_flops"] == pytest.approx((6 * 7e9 + 12 * 32 * 4096 * 4096) * 3000)
        assert values["mfu"] == pytest.approx(0.4658, abs=1e-4)
        assert values["hfu"] == values["mfu"]

    def test_full_recomputation_counts_towards_hfu_only(self) -> None:
        """Full activation checkpointing runs each forward twice: 8N + 16 L H Q T per token, so HFU = MFU x 8/6."""
        inputs = {**TWO_TBS, "mode": "training", "params_b": 7, "tokens_per_s": 3000, "recompute": "full"}
        result = MBU.run(inputs)
        assert result.values["mfu"] == pytest.approx(0.4658, abs=1e-4)
        assert result.values["hfu"] == pytest.approx(result.values["mfu"] * 8 / 6)
        assert "an HFU of 62.1% with the recomputed forward passes" in result.summary

    def test_llama_3_405b_scale(self) -> None:
        """Llama 3 405B's shape (126 layers, hidden 16,384; the Llama 3 paper, table 3) at 8,192 tokens: attention
        adds 12 x 126 x 16,384 x 8,192 = 2.03e11 FLOPs per token to 6 x 405e9 = 2.43e12, 8.4% more."""
        base = {"chip": "h100-sxm", "mode": "training", "params_b": 405, "layers": 126, "hidden": 16384}
        with_attention = MBU.run({**base, "seq_len": 8192, "tokens_per_s": 1e5}).values["mfu"]
        weights_only = MBU.run({**base, "seq_len": 0, "tokens_per_s": 1e5}).values["mfu"]
        assert with_attention / weights_only == pytest.approx(1 + 12 * 126 * 16384 * 8192 / (6 * 405e9), rel=1e-9)
        assert with_attention / weights_only == pytest.approx(1.0835, abs=1e-4)
        share = f"{(with_attention / weights_only - 1) * 100:.0f}%"
        assert_says("lessons/roofline.md", f"for Llama 3 405B at 8,192 tokens attention adds {share} to the 6N")
        assert_says("lessons/102-ai-accelerators.md", f"For Llama 3 405B at 8,192 tokens attention adds {share}")
        assert_says("lessons/102-ai-accelerators.md", "PaLM's 46.2% MFU was 57.8% HFU")

    def test_decode_attention_flops(self) -> None:
        """Decode at 4,096 tokens of context: 2 x 7e9 + 4 x 32 x 4,096 x 4,096 = 16.15e9 FLOPs per token."""
        values = MBU.run({**TWO_TBS, "params_b": 7, "tokens_per_s": 100, "context": 4096}).values
        assert values["achieved_flops"] == pytest.approx((14e9 + 4 * 32 * 4096 * 4096) * 100)
        assert values["hfu"] == values["mfu"]


class TestCausalMaskAndSelectiveRecompute:
    """The mask: PaLM's 12 L H Q T counts every score (the default); a causal mask computes half of them, so the
    attention term halves (the scaling book, "How to Parallelize a Transformer for Training"; Megatron-LM's FLOP
    count). Selective recomputation (Korthikanti et al. 2022, section 5) runs the attention core's forward again:
    4 L H Q T per token, halved by the mask too."""

    def test_causal_halves_the_attention_term(self) -> None:
        """6 x 7e9 + 6 x 32 x 4,096^2 = 45.22e9 FLOPs per token; x 3,000 over 312e12: MFU 43.48%."""
        values = MBU.run({**TRAINING_7B, "mask": "causal"}).values
        assert values["achieved_flops"] == pytest.approx((6 * 7e9 + 6 * 32 * 4096 * 4096) * 3000)
        assert values["mfu"] == pytest.approx(0.4348, abs=1e-4)

    def test_selective_recompute_adds_the_attention_core(self) -> None:
        """4 x 32 x 4,096^2 = 2.147e9 FLOPs per token again: HFU 46.58% + 2.147e9 x 3,000 / 312e12 = 48.65%."""
        values = MBU.run({**TRAINING_7B, "recompute": "selective"}).values
        assert values["hfu"] - values["mfu"] == pytest.approx(4 * 32 * 4096 * 4096 * 3000 / 312e12)
        causal = MBU.run({**TRAINING_7B, "recompute": "selective", "mask": "causal"}).values
        assert causal["hfu"] - causal["mfu"] == pytest.approx(2 * 32 * 4096 * 4096 * 3000 / 312e12)
        assert "with the recomputed attention cores" in MBU.run({**TRAINING_7B, "recompute": "selective"}).summary
