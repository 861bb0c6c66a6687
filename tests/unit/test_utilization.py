"""MBU and MFU against worked examples with their sources."""

from __future__ import annotations

import pytest

from calckit.api import run
from calckit.book import calculator as get

MBU = get("mbu")
TWO_TBS = {"chip": "custom", "peak_tflops": 312, "bandwidth_tbs": 2.0}


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
        values = MBU.run({**TWO_TBS, "mode": "training", "params_b": 7, "tokens_per_s": 3000}).values
        assert values["achieved_flops"] == pytest.approx(126e12)
        assert values["mfu"] == pytest.approx(126 / 312)
        assert values["mbu"] == "—"
        notes = {o["key"]: o["note"] for o in run("mbu", {"mode": "training"})["outputs"]}
        assert notes["mbu"] == "Not a useful measure for training, which is compute-bound."
