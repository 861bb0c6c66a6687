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

from .page_text import assert_says

ROOFLINE, MATMUL, ALLREDUCE = get("roofline"), get("matmul"), get("allreduce")
MLP_70B = {"d_model": 8192, "d_ff": 28672}
PAGE = "lessons/roofline.md"


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
    """The MLP block of Llama 3 70B (three D x F matrices, SwiGLU) against its one all-reduce, on H100s over NVLink
    (989.4 TFLOP/s, 450 GB/s sent). Hand calculations in tests/unit/test_communication.py."""

    def test_eight_h100s(self) -> None:
        values = ALLREDUCE.run({"chip": "h100-sxm", "chips": 8, **MLP_70B}).values
        one_matrix = 7 * 2 * get_chip("h100-sxm").peak("bf16").value * 1e12 / (28672 * 450e9)
        assert_says(
            PAGE,
            f"450 × 10⁹) = {values['ratio']:.2f}: the all-reduce takes about a third",
            f"the ratio would be {one_matrix:.2f}, three times too pessimistic",
            f"compute-bound on up to {values['max_chips']:.0f} chips",
        )
        assert values["bound"] == "Compute-bound"

    def test_four_h100s(self) -> None:
        ratio = ALLREDUCE.run({"chip": "h100-sxm", "chips": 4, **MLP_70B}).values["ratio"]
        assert_says(PAGE, f"at N = 4 the ratio falls to {ratio:.2f}")

    def test_whole_layer(self) -> None:
        """Two all-reduces against the attention projections (8,192 + 2 x 1,024 + 8,192 = 18,432 columns) and the
        MLP's 3 x 28,672 = 86,016: 2 x 7 x 2 x 989.4e12 / (104,448 x 450e9) = 0.589."""
        values = ALLREDUCE.run({"chip": "h100-sxm", "chips": 8, **MLP_70B}).values
        layer = 2 * values["comm_time"] / (values["compute_time"] * (86016 + 18432) / 86016)
        assert layer == pytest.approx(0.589, abs=0.001)
        assert_says(PAGE, f"× 450 × 10⁹) = {layer:.2f} on eight H100s")

    def test_measured_bus_bandwidth(self) -> None:
        values = ALLREDUCE.run({"chip": "h100-sxm", "link_gbs": 370, **MLP_70B}).values
        ratio, most = values["ratio"], values["max_chips"]
        assert_says(PAGE, f"the ratio rises to {ratio:.2f}, the largest split falls to {most:.0f}")

    def test_decode_latency(self) -> None:
        values = ALLREDUCE.run({"chip": "h100-sxm", "batch": 8, "latency_us": 1, **MLP_70B}).values
        fixed = 14e-6 / values["comm_time"]
        assert_says(
            PAGE,
            f"is {values['message_bytes'] / 1e3:.0f} KB",
            f"the fixed cost would be 14 µs, {fixed * 100:.0f}% of the all-reduce",
            f"each chip reads 176 MB, {values['block_time'] * 1e6:.1f} µs at 3.35 TB/s",
            f"the all-reduce adds {values['comm_time'] / values['block_time'] * 100:.0f}% to it",
        )

    @pytest.mark.parametrize("chips", [4, 16])
    def test_tpu_v5e_along_one_axis(self, chips: int) -> None:
        ratio = ALLREDUCE.run({"chip": "tpu-v5e", "link_gbs": 100, "chips": chips, **MLP_70B}).values["ratio"]
        assert_says(PAGE, f"{'10⁹) =' if chips == 4 else 'sixteen give'} {ratio:.2f}")

    def test_problem_4(self) -> None:
        """Llama 3 8B's F = 14,336 on eight H100s: the block 7 x 2 x 989.4e12 / (3 x 14,336 x 450e9) = 0.716; the
        layer, with attention projections of 4,096 + 2 x 1,024 + 4,096 = 10,240 columns, 1.16."""
        values = ALLREDUCE.run({"chip": "h100-sxm", "chips": 8, "d_ff": 14336}).values
        layer = 2 * values["comm_time"] / (values["compute_time"] * (3 * 14336 + 10240) / (3 * 14336))
        assert_says(
            PAGE,
            f"(3 × 14,336 × 450 × 10⁹) = {values['ratio']:.2f}",
            f"so {values['max_chips']:.0f} chips",
            f"(53,248 × 450 × 10⁹) = {layer:.2f}",
        )
        assert values["bound"] == "Compute-bound" and layer > 1


def test_problem_2_h200() -> None:
    values = MATMUL.run({"chip": "h200-sxm", **MLP_70B}).values
    assert values["ridge"] == pytest.approx(206.0, abs=0.05)
    assert round(values["critical_batch_approx"]) == 206


def test_v5e_to_v6e() -> None:
    """Google's figures: 197 -> 918 TFLOP/s (4.66x), 819 -> 1,638 GB/s (2x): the ridge rose 2.33x, not four times."""
    v5e, v6e = get_chip("tpu-v5e"), get_chip("tpu-v6e")
    compute = v6e.peak("bf16").value / v5e.peak("bf16").value
    bandwidth = v6e.bandwidth_tbs.value / v5e.bandwidth_tbs.value
    ridge = MATMUL.run({"chip": "tpu-v6e", **MLP_70B}).values["ridge"]
    assert_says(
        PAGE,
        f"the compute grew {compute:.2f} times and the bandwidth {bandwidth:.0f} times",
        f"the ridge rose {compute / bandwidth:.2f} times, to {ridge:.1f}",
    )
