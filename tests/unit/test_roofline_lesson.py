"""Every worked number of docs/lessons/roofline.md, recomputed through the calculators the page embeds.

Figures come from the chip database (H100 SXM: NVIDIA data sheet and Hopper whitepaper, 989.4 TFLOP/s dense BF16,
3.35 TB/s; TPU v5e: Google Cloud documentation, 197 TFLOP/s BF16, 819 GB/s; H200: NVIDIA, 4.8 TB/s; TPU v6e: Google
Cloud, 918 TFLOP/s, 1,638 GB/s) and from Meta's Llama 3 config.json files (70B: D = 8,192, F = 28,672; 8B:
F = 14,336). If a figure in the database changes, these tests say which sentence of the lesson to rewrite.
"""

from __future__ import annotations

import pytest

from calckit.book import calculator as get
from calculators.chips import get_chip

ROOFLINE, MATMUL, ALLREDUCE = get("roofline"), get("matmul"), get("allreduce")
MLP_70B = {"d_model": 8192, "d_ff": 28672}


class TestTwoCeilings:
    def test_v5e_kernel_off_the_ridge(self) -> None:
        """120 FLOP/byte on a v5e: 120 x 0.819 = 98.3 TFLOP/s, half its 197 peak; memory-bound, not on the ridge."""
        values = ROOFLINE.run({"chip": "tpu-v5e", "intensity": 120}).values
        assert values["ridge"] == pytest.approx(240.5, abs=0.05)
        assert values["bound"] == "Memory-bound"
        assert values["attainable"] == pytest.approx(98.28e12)
        assert values["fraction"] == pytest.approx(0.499, abs=0.001)

    def test_same_kernel_on_h100(self) -> None:
        """120 x 3.35 = 402 TFLOP/s, 41% of 989.4."""
        values = ROOFLINE.run({"chip": "h100-sxm", "intensity": 120}).values
        assert values["attainable"] == pytest.approx(402e12)
        assert round(values["fraction"] * 100) == 41

    def test_problem_1(self) -> None:
        """60 FLOP/byte on a v5e: 49.1 TFLOP/s, 24.9% of peak."""
        values = ROOFLINE.run({"chip": "tpu-v5e", "intensity": 60}).values
        assert values["attainable"] / 1e12 == pytest.approx(49.14, abs=0.01)
        assert values["fraction"] * 100 == pytest.approx(24.9, abs=0.05)


class TestCriticalBatch:
    @pytest.mark.parametrize(
        ("chip", "ridge", "batch"),
        [("h100-sxm", 295.3, 309.7), ("tpu-v5e", 240.5, 250.0), ("h200-sxm", 206.0, 212.9), ("tpu-v6e", 560.4, 614.5)],
    )
    def test_by_chip(self, chip: str, ridge: float, batch: float) -> None:
        values = MATMUL.run({"chip": chip, **MLP_70B}).values
        assert values["ridge"] == pytest.approx(ridge, abs=0.05)
        assert values["critical_batch"] == pytest.approx(batch, abs=0.05)

    def test_estimate_within_five_percent_on_h100(self) -> None:
        values = MATMUL.run({"chip": "h100-sxm", **MLP_70B}).values
        assert values["critical_batch_approx"] == pytest.approx(295.3, abs=0.05)
        assert values["critical_batch"] / values["critical_batch_approx"] - 1 < 0.05

    @pytest.mark.parametrize(
        ("precision", "weights", "activations", "ridge", "batch"),
        [
            ("bf16", "2", "2", 295.3, 309.7),
            ("fp8", "1", "1", 590.7, 309.7),
            ("fp8", "2", "2", 590.7, 651.1),
            ("bf16", "1", "2", 295.3, 154.8),
        ],
    )
    def test_precision_table(self, precision: str, weights: str, activations: str, ridge: float, batch: float) -> None:
        inputs = {"precision": precision, "weight_bytes": weights, "activation_bytes": activations}
        values = MATMUL.run({"chip": "h100-sxm", **inputs, **MLP_70B}).values
        assert values["ridge"] == pytest.approx(ridge, abs=0.05)
        assert values["critical_batch"] == pytest.approx(batch, abs=0.05)

    def test_v5e_int8_comes_back_to_the_bf16_batch(self) -> None:
        int8 = {"precision": "int8", "weight_bytes": "1", "activation_bytes": "1"}
        assert round(MATMUL.run({"chip": "tpu-v5e", **int8, **MLP_70B}).values["critical_batch"]) == 249
        assert round(MATMUL.run({"chip": "tpu-v5e", **MLP_70B}).values["critical_batch"]) == 250


class TestMemoryLevels:
    def test_the_peak_implies_the_clock(self) -> None:
        """The lesson's 1.83 GHz: the database's 989.4 TFLOP/s over 132 SMs x 4,096 dense FLOPs per clock."""
        clock = get_chip("h100-sxm").peak("bf16").value * 1e12 / (132 * 4096)
        assert clock / 1e9 == pytest.approx(1.83, abs=0.005)

    def test_shared_memory_roof(self) -> None:
        """132 SMs x 128 B x 1.83 GHz = 30.9 TB/s; ridge 989.4 / 30.9 = 32; a 64-fold reuse is compute-bound."""
        smem = {"chip": "custom", "peak_tflops": 989.4, "bandwidth_tbs": 30.9}
        values = ROOFLINE.run({**smem, "intensity": 64}).values
        assert values["ridge"] == pytest.approx(32.0, abs=0.05)
        assert values["bound"] == "Compute-bound"

    def test_problem_5(self) -> None:
        """A 16-fold reuse from shared memory: 16 x 30.9 = 494 TFLOP/s, half the peak."""
        values = ROOFLINE.run({"chip": "custom", "peak_tflops": 989.4, "bandwidth_tbs": 30.9, "intensity": 16}).values
        assert values["bound"] == "Memory-bound"
        assert values["attainable"] / 1e12 == pytest.approx(494.4)
        assert values["fraction"] == pytest.approx(0.5, abs=0.001)


class TestCommunication:
    def test_eight_h100s(self) -> None:
        values = ALLREDUCE.run({"chip": "h100-sxm", "chips": 8, **MLP_70B}).values
        assert values["min_d_ff"] == pytest.approx(30_800, abs=50)
        assert round(values["ratio"], 2) == 1.07

    def test_four_h100s(self) -> None:
        assert round(ALLREDUCE.run({"chip": "h100-sxm", "chips": 4, **MLP_70B}).values["ratio"], 2) == 0.46

    @pytest.mark.parametrize(("chips", "ratio"), [(4, 0.41), (16, 2.06)])
    def test_tpu_v5e_along_one_axis(self, chips: int, ratio: float) -> None:
        values = ALLREDUCE.run({"chip": "tpu-v5e", "link_gbs": 100, "chips": chips, **MLP_70B}).values
        assert round(values["ratio"], 2) == ratio

    def test_problem_4(self) -> None:
        """Llama 3 8B's F = 14,336 on eight H100s: 7 x 2 x 989.4e12 / (14,336 x 450e9) = 2.15."""
        values = ALLREDUCE.run({"chip": "h100-sxm", "chips": 8, "d_ff": 14336}).values
        assert round(values["ratio"], 2) == 2.15


def test_problem_2_h200() -> None:
    values = MATMUL.run({"chip": "h200-sxm", **MLP_70B}).values
    assert values["ridge"] == pytest.approx(206.0, abs=0.05)
    assert round(values["critical_batch_approx"]) == 206
