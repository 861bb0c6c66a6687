"""Every worked number of docs/lessons/parallelism.md, recomputed through the calculators the page embeds, and
compared with the text as the page shows it (each output's own formatting).

Figures come from the chip database (H100 SXM: 989.4 TFLOP/s dense BF16, 3.35 TB/s, 80 GB; TPU v5p: 459 TFLOP/s),
NVIDIA's NVLink (450 GB/s per direction per H100) and DGX H100 NICs (400 Gb/s, 50 GB/s per GPU), NCCL's cost model
(0.6 us per NVLink ring step with LL, 2.7 us over the network), the scaling book (90 GB/s per ICI link each way on
v5p, 1 us per hop) and Meta's Llama 3 70B config.json. If a figure changes, these tests name the sentence to rewrite.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from calckit.book import calculator as get

COLLECTIVE, EXPLORER, MATMUL = get("collective"), get("parallelism"), get("matmul")
LESSON = Path(__file__).parents[2].joinpath("docs/lessons/parallelism.md").read_text()
CUBE = {"topology": "torus-3d", "chips": 64, "link_gbs": 90, "latency_us": 1, "size_mb": 64}
V5P = {"chip": "tpu-v5p", "network": "torus", "link_gbs": 90, "latency_us": 1, "tp": 1}


def shown(calculator: Any, inputs: dict[str, Any], key: str) -> str:
    """The output as the page writes it; and it must be in the lesson."""
    text = calculator.output(key).text(calculator.run(inputs).values[key])
    assert text in LESSON, (key, inputs, text)
    return text


class TestCollectives:
    def test_default_all_reduce(self) -> None:
        assert shown(COLLECTIVE, {}, "bandwidth_time") == "249 µs"
        assert shown(COLLECTIVE, {}, "latency_time") == "8.4 µs"
        # Eight chips make seven ring steps per phase, two phases (the text once said eight steps, 9.6 us).
        assert COLLECTIVE.run({}).values["latency_time"] == pytest.approx(2 * 7 * 0.6e-6)
        assert "seven ring steps of 0.6 µs, twice" in LESSON
        assert shown(COLLECTIVE, {}, "time") == "257 µs"
        assert shown(COLLECTIVE, {}, "crossover") == "2.16 MB"
        assert shown(COLLECTIVE, {}, "busbw") == "435 GB/s"
        assert shown(COLLECTIVE, {"efficiency": 0.8}, "time") == "320 µs"

    def test_small_all_reduce(self) -> None:
        """Problem 1: 8.65 us, all latency but the 0.249 us bandwidth term ("a quarter of a microsecond")."""
        assert shown(COLLECTIVE, {"size_mb": 0.064}, "time") == "8.65 µs"
        values = COLLECTIVE.run({"size_mb": 0.064}).values
        assert values["bandwidth_time"] == pytest.approx(0.25e-6, abs=0.01e-6)
        assert values["bound"] == "Latency-bound"

    def test_two_levels(self) -> None:
        two = {"topology": "two-level"}
        assert shown(COLLECTIVE, {**two, "chips": 64}, "time") == "326 µs"
        assert shown(COLLECTIVE, {**two, "chips": 64}, "latency_time") == "46.2 µs"
        assert shown(COLLECTIVE, {**two, "chips": 64}, "busbw") == "386 GB/s"
        assert shown(COLLECTIVE, {**two, "chips": 1024}, "time") == "1.01 ms"
        assert shown(COLLECTIVE, {**two, "chips": 1024}, "latency_time") == "694 µs"
        # 127 network steps per ring: 128 nodes of 8; the NIC is 450 / 50 = 9 times slower than NVLink.
        assert COLLECTIVE.run({**two, "chips": 1024}).values["shape"] == "128 nodes of 8"

    def test_tpu_cube_and_switches(self) -> None:
        assert shown(COLLECTIVE, {**CUBE, "op": "all-gather"}, "time") == "123 µs"
        assert shown(COLLECTIVE, {**CUBE, "op": "all-gather", "topology": "ring"}, "time") == "382 µs"
        assert shown(COLLECTIVE, {**CUBE, "op": "all-to-all"}, "time") == "362 µs"
        switch = {"op": "all-to-all", "chips": 64, "size_mb": 64}
        assert shown(COLLECTIVE, switch, "time") == "178 µs"
        assert shown(COLLECTIVE, {**switch, "topology": "two-level"}, "time") == "1.28 ms"


class TestStrategies:
    def test_data_parallel_thresholds(self) -> None:
        # One chip alone on its NIC; the default mesh (tensor 8 in the node, each chip's eighth of the gradients over
        # its own NIC); pure FSDP over 1,024 chips, the two-level all-reduce over the node's eight NICs.
        assert shown(EXPLORER, {"domain": 1, "tp": 1}, "dp_tokens_per_chip") == "19,800"
        assert EXPLORER.run({}).values["dp_tokens_per_chip"] == pytest.approx(989.4e12 / (8 * 50e9))
        assert shown(EXPLORER, {"tp": 1}, "dp_tokens_per_chip") == "2,460"
        assert shown(EXPLORER, V5P, "dp_tokens_per_chip") == "850"

    def test_memory(self) -> None:
        rows = {row[0]: row for row in EXPLORER.run({}).table.rows}  # type: ignore[union-attr]
        assert rows["Data parallel"][1] == "1.12 TB" and "1.12 TB" in LESSON
        assert rows["FSDP (ZeRO-3)"][1] == "1.09 GB" and "1.09 GB" in LESSON
        assert rows["FSDP (ZeRO-3)"][4] == "0 s" and rows["FSDP (ZeRO-3)"][3] == "1.04 s"
        assert rows["Tensor parallel"][3] == "109 s"
        assert "1.04 s" in LESSON and "109 s" in LESSON

    def test_default_mesh(self) -> None:
        assert shown(EXPLORER, {}, "exposed") == "671 ms"
        assert shown(EXPLORER, {}, "compute") == "1.74 s"
        assert shown(EXPLORER, {"tp": 1}, "tokens_per_chip") == "4,096"
        assert EXPLORER.run({"overlap_tp": "yes"}).values["step"] == pytest.approx(EXPLORER.run({}).values["compute"])

    def test_tensor_limit(self) -> None:
        assert shown(EXPLORER, {}, "tp_limit") == "19.2"
        assert round(EXPLORER.run({"link_gbs": 50}).values["tp_limit"]) == 3

    def test_bubble(self) -> None:
        assert EXPLORER.run({"pp": 8, "microbatches": 8}).values["bubble"] == pytest.approx(7 / 15)
        assert shown(EXPLORER, {"pp": 8, "microbatches": 32}, "bubble") == "17.9%"
        assert EXPLORER.run({"pp": 8, "microbatches": 28}).values["bubble"] <= 0.2
        assert EXPLORER.run({"pp": 8, "microbatches": 27}).values["bubble"] > 0.2

    def test_moe_critical_batch(self) -> None:
        assert shown(EXPLORER, {}, "expert_critical_batch") == "295"
        assert round(MATMUL.run({"chip": "h100-sxm"}).values["critical_batch"]) == 310
        moe = {"experts": 256, "top_k": 8, "params_b": 671, "active_b": 37}
        assert shown(EXPLORER, moe, "expert_critical_batch") == "9,450"

    def test_scaling_out_at_a_fixed_batch(self) -> None:
        rows = {row[0]: row for row in EXPLORER.run({"chips": 8192}).table.rows}  # type: ignore[union-attr]
        assert rows["FSDP (ZeRO-3)"][3] == "1.06 s" and rows["FSDP (ZeRO-3)"][2] == "217 ms"

    def test_combinations(self) -> None:
        big = {"chips": 8192, "tp": 8}
        assert shown(EXPLORER, big, "data_comm") == "1.06 s"
        assert shown(EXPLORER, big, "compute") == "217 ms"
        assert shown(EXPLORER, {**big, "overlap_tp": "yes"}, "efficiency") == "20.6%"
        staged = {**big, "pp": 8, "microbatches": 32}
        assert shown(EXPLORER, staged, "data_comm") == "131 ms"
        assert shown(EXPLORER, staged, "efficiency") == "58.7%"
        assert shown(EXPLORER, {**staged, "overlap_tp": "yes"}, "efficiency") == "75.9%"
        wide = {**big, "pp": 4, "microbatches": 32, "overlap_tp": "yes", "tokens": 16_777_216}
        assert shown(EXPLORER, wide, "efficiency") == "87.5%"
        fsdp = {"chips": 8192, "tp": 1, "tokens": 16_777_216}
        assert shown(EXPLORER, fsdp, "efficiency") == "82.2%"
        assert shown(EXPLORER, fsdp, "data_comm") == "1.06 s" and shown(EXPLORER, fsdp, "compute") == "869 ms"

    def test_problem_2(self) -> None:
        """16 Mi tokens over 8,960 v5p chips: 1,872 per chip, above 850, nothing exposed."""
        pod = {**V5P, "chips": 8960, "tokens": 16_777_216}
        assert shown(EXPLORER, pod, "tokens_per_chip") == "1,872.5"
        assert EXPLORER.run(pod).values["exposed"] == 0
