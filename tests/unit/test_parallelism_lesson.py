"""Every worked number of docs/lessons/parallelism.md, recomputed through the calculators the page embeds, and
compared with the text as the page shows it (each output's own formatting).

Figures come from the chip database (H100 SXM: 989.4 TFLOP/s dense BF16, 3.35 TB/s, 80 GB; TPU v5p: 459 TFLOP/s),
NVIDIA's NVLink (450 GB/s per direction per H100) and DGX H100 NICs (400 Gb/s, 50 GB/s per GPU), NCCL's cost model
(0.6 us per NVLink ring step with LL, 2.7 us over the network), the scaling book (90 GB/s per ICI link each way on
v5p, 1 us per hop) and Meta's Llama 3 70B config.json. If a figure changes, these tests name the sentence to rewrite.
"""

from __future__ import annotations

from typing import Any, ClassVar

import pytest

from calckit.book import calculator as get

from .page_text import page_text

COLLECTIVE, EXPLORER, MATMUL = get("collective"), get("parallelism"), get("matmul")
LESSON = page_text("lessons/parallelism.md")  # as read: its computed values written, its lines joined
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
        tree = {**two, "chips": 1024, "algorithm": "tree"}
        assert shown(COLLECTIVE, tree, "time") == "391 µs"
        assert shown(COLLECTIVE, tree, "latency_time") == "46.2 µs"
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
        """The explorer's table: memory is model state and activations (Korthikanti et al. 2022, 34 s b h / t a layer
        with FlashAttention; tests/unit/test_training_memory.py works them by hand)."""
        rows = {row[0]: row for row in EXPLORER.run({}).table.rows}  # type: ignore[union-attr]
        assert rows["Data parallel"][1] == "1.21 TB" and "1.21 TB per chip, 1.12 TB of it model state" in LESSON
        assert rows["FSDP (ZeRO-3)"][1] == "92.4 GB" and rows["FSDP (ZeRO-3)"][6] == "does not fit"
        assert shown(EXPLORER, {"tp": 1, "data_axis": "fsdp"}, "state") == "1.09 GB"
        assert shown(EXPLORER, {"tp": 1}, "activations") == "91.3 GB"
        assert rows["FSDP (ZeRO-3)"][4] == "0 s" and rows["FSDP (ZeRO-3)"][3] == "1.04 s"
        assert rows["Tensor parallel"][3] == "1.82 min"
        assert "1.04 s" in LESSON and "1.82 min per step" in LESSON
        assert EXPLORER.run({}).values["best"] == "none fits" and "Nothing fits." in LESSON

    def test_default_mesh(self) -> None:
        assert shown(EXPLORER, {}, "exposed") == "671 ms"
        assert shown(EXPLORER, {}, "compute") == "1.87 s"
        assert shown(EXPLORER, {}, "activations") == "91.3 GB"
        assert shown(EXPLORER, {"tp": 1}, "tokens_per_chip") == "4,096"
        assert EXPLORER.run({"overlap_tp": "yes"}).values["step"] == pytest.approx(EXPLORER.run({}).values["compute"])

    def test_recomputation_and_microbatches(self) -> None:
        full = {"recompute": "full"}
        assert shown(EXPLORER, full, "memory") == "7.6 GB"
        assert shown(EXPLORER, full, "compute") == "2.5 s"
        assert shown(EXPLORER, full, "exposed") == "1.01 s"
        assert shown(EXPLORER, full, "mfu") == "53.5%"
        assert shown(EXPLORER, {**full, "overlap_tp": "yes"}, "mfu") == "75%"
        assert EXPLORER.run({**full, "overlap_tp": "yes"}).values["efficiency"] == pytest.approx(1)
        four = {"microbatches": 4}
        assert shown(EXPLORER, four, "memory") == "23.9 GB"
        assert EXPLORER.run({**four, "overlap_tp": "yes"}).values["step"] == EXPLORER.run({}).values["compute"]

    def test_memory_section(self) -> None:
        """ZeRO's 7.5 B example and one Llama 3 70B sequence, t = 8 with sequence parallelism: 34 x 8,192^2 / 8 =
        285 MB a layer, 22.8 GB over 80."""
        for figure in ("120 GB, 31.4 GB, 16.6 GB and 1.9 GB", "285 MB", "22.8 GB", "91.3 GB"):
            assert figure in LESSON
        memory = get("training-memory")
        assert (
            memory.output("activations_per_layer").text(memory.run({"micro_batch": 1}).values["activations_per_layer"])
            == "285 MB"
        )
        assert memory.output("activations").text(memory.run({"micro_batch": 1}).values["activations"]) == "22.8 GB"

    def test_tensor_limit(self) -> None:
        assert shown(EXPLORER, {}, "tp_limit") == "19.2"
        # FP8 recipes keep the all-reduced partial sums in BF16: C doubles, the bytes stay (ACT_BYTES = 2).
        assert shown(EXPLORER, {"precision": "fp8"}, "tp_limit") == "10.1"

    def test_tensor_parallelism_across_nodes(self) -> None:
        """8 -> 16 -> 32 at the default 1,024 chips and 4 Mi tokens: the tensor traffic doubles with each doubling
        (each group handles twice the tokens), while the two-level all-reduce's bandwidth term per byte stays the
        NVLink phase's (2 x 7/8 / 450e9) up to 32 chips; its latency grows from 2 x 7 x 0.6 to
        2 x (7 x 0.6 + 1 x 2.7) = 13.8 us."""
        assert shown(EXPLORER, {"tp": 16}, "tensor_comm") == "1.34 s"
        assert shown(EXPLORER, {"tp": 32}, "tensor_comm") == "2.68 s"
        assert shown(EXPLORER, {"tp": 8}, "tensor_comm") == "671 ms"
        two = {"topology": "two-level", "size_mb": 1073.741824, "chips": 16}
        assert COLLECTIVE.run(two).values["latency_time"] == pytest.approx(13.8e-6)
        assert COLLECTIVE.run(two).values["bandwidth_time"] == pytest.approx(2 * 7 / 8 * 1073.741824e6 / 450e9)
        assert "13.8 µs at 16 against 8.4" in LESSON

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
        assert rows["FSDP (ZeRO-3)"][3] == "1.06 s" and rows["FSDP (ZeRO-3)"][2] == "234 ms"

    def test_combinations(self) -> None:
        """Each sentence's inputs as the lesson states them: FSDP, no recomputation, overlap "no" unless it says
        "yes"."""
        big = {"chips": 8192, "tp": 8}
        assert shown(EXPLORER, big, "data_comm") == "1.06 s"
        assert shown(EXPLORER, big, "compute") == "234 ms"
        assert shown(EXPLORER, big, "efficiency") == "20.5%"
        assert shown(EXPLORER, {**big, "overlap_tp": "yes"}, "efficiency") == "22.1%"
        staged = {**big, "pp": 8, "microbatches": 32}
        assert shown(EXPLORER, staged, "data_comm") == "131 ms"
        assert shown(EXPLORER, staged, "bubble") == "17.9%"
        assert shown(EXPLORER, staged, "efficiency") == "59.9%"
        assert shown(EXPLORER, {**staged, "overlap_tp": "yes"}, "efficiency") == "76.3%"
        wide = {**big, "pp": 4, "microbatches": 32, "tokens": 16_777_216}
        assert shown(EXPLORER, wide, "efficiency") == "66.8%"
        assert shown(EXPLORER, {**wide, "overlap_tp": "yes"}, "efficiency") == "87.7%"
        fsdp = {"chips": 8192, "tp": 1, "tokens": 16_777_216}
        assert shown(EXPLORER, fsdp, "efficiency") == "88.5%"
        assert shown(EXPLORER, fsdp, "data_comm") == "1.06 s" and shown(EXPLORER, fsdp, "compute") == "936 ms"
        assert shown(EXPLORER, fsdp, "activations") == "45.6 GB" and EXPLORER.run(fsdp).values["fits"] == "yes"
        assert shown(EXPLORER, fsdp, "tokens_per_chip") == "2,048"

    def test_problem_2(self) -> None:
        """16 Mi tokens over 8,960 v5p chips: 1,872 per chip, above 850, nothing exposed."""
        pod = {**V5P, "chips": 8960, "tokens": 16_777_216}
        assert shown(EXPLORER, pod, "tokens_per_chip") == "1,872.5"
        assert EXPLORER.run(pod).values["exposed"] == 0


class TestExperts:
    """DeepSeek-V3's shape (DeepSeek-V3 Technical Report: 61 layers, width 7,168, 128 heads, 256 routed experts, 8 per
    token, at most 4 nodes per token, FP8 dispatch) on 512 H100s; tests/unit/test_parallelism.py works the
    all-to-all by hand."""

    DEEPSEEK: ClassVar[dict[str, Any]] = {
        "params_b": 671,
        "active_b": 37,
        "layers": 61,
        "d_model": 7168,
        "heads": 128,
        "experts": 256,
        "top_k": 8,
        "chips": 512,
        "tp": 1,
        "ep": 64,
        "tokens": 2_097_152,
        "seq_len": 4096,
        "recompute": "full",
    }

    def test_node_limit_and_fp8_dispatch(self) -> None:
        assert shown(EXPLORER, self.DEEPSEEK, "expert_comm") == "3.07 s"
        assert shown(EXPLORER, self.DEEPSEEK, "compute") == "1.28 s"
        assert shown(EXPLORER, self.DEEPSEEK, "tokens_per_chip") == "4,096"
        assert EXPLORER.run(self.DEEPSEEK).values["fits"] == "yes"
        limited = {**self.DEEPSEEK, "node_limit": 4}
        assert shown(EXPLORER, limited, "expert_comm") == "1.56 s"
        assert shown(EXPLORER, {**limited, "dispatch_bytes": "1"}, "expert_comm") == "1.19 s"
