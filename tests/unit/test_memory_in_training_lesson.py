"""Every worked number of docs/lessons/memory-in-training.md, recomputed through the calculators it embeds (or, where
no calculator computes it, by the arithmetic the sentence states), and found in the text as the page writes it.

Sources, with the hand-worked models, are in tests/unit/test_training_memory.py and
tests/unit/test_pipeline_schedule.py: Llama 3 70B from Meta's config.json (80 layers, width 8,192, 64 heads, 8 KV
heads); ZeRO's 7.5 B / 64 GPU example (Rajbhandari et al. 2020, figure 1); Korthikanti et al. 2022, table 2;
Narayanan et al. 2021; Qi et al. 2024; DeepSeek-V3's table 2; the H100's 989.4 TFLOP/s dense BF16 and its 50 GB/s
network card (DGX H100). If a calculator or a figure changes, these tests name the sentence to rewrite.
"""

from __future__ import annotations

from typing import Any

import pytest

from calckit.book import calculator as get

from .page_text import assert_says

PAGE = "lessons/memory-in-training.md"
MEMORY, PIPE, EXPLORER = get("training-memory"), get("pipeline-schedule"), get("parallelism")
ZERO_EXAMPLE = {"params_b": 7.5, "active_b": 7.5, "tp": 1, "pp": 1, "dp": 64}
ONE_SEQUENCE = {"micro_batch": 1}
THREE_D = {"micro_batch": 1, "pp": 8, "dp": 16, "microbatches": 32, "data_axis": "zero1"}


def text(calculator: Any, inputs: dict[str, Any], key: str) -> str:
    """The output as the page writes it."""
    return str(calculator.output(key).text(calculator.run(inputs).values[key]))


class TestModelState:
    def test_zero_table(self) -> None:
        """120 GB, 31.4 GB, 16.6 GB, 1.88 GB: the paper's figure 1 (it rounds the last to 1.9 GB)."""
        shown = [
            text(MEMORY, {**ZERO_EXAMPLE, "data_axis": axis}, "state") for axis in ("dp", "zero1", "zero2", "fsdp")
        ]
        assert shown == ["120 GB", "31.4 GB", "16.6 GB", "1.88 GB"]
        assert_says(
            PAGE, "120 GB per chip as a replica, 31.4 GB with ZeRO-1, 16.6 GB with ZeRO-2 and 1.88 GB with ZeRO-3"
        )
        # Worked problem 1: 90 GB of optimizer state to 1.41 GB, 15 GB of gradients to 234 MB, then the weights.
        assert text(MEMORY, {**ZERO_EXAMPLE, "data_axis": "zero1"}, "optimizer") == "1.41 GB"
        assert text(MEMORY, {**ZERO_EXAMPLE, "data_axis": "zero2"}, "gradients") == "234 MB"
        assert 7.5e9 * 2 == 15e9 and 7.5e9 * 12 == 90e9
        assert_says(
            PAGE,
            "optimizer state per parameter, 90 GB, down to 1.41 GB per chip: 120 GB becomes 31.4 GB",
            "ZeRO-2 shards the 2-byte gradients, 15 GB, down to 234 MB: 16.6 GB",
            "ZeRO-3 shards the 15 GB of weights as well: 1.88 GB",
        )


class TestActivations:
    def test_the_scores_term(self) -> None:
        assert 5 * 64 * 8192 / 8192 == 320 and round(320 / 34) == 9
        stored = {**ONE_SEQUENCE, "tp": 1, "sequence_parallel": "no", "attention": "materialized"}
        assert text(MEMORY, stored, "activations_per_layer") == "23.8 GB"
        assert text(MEMORY, stored, "activations") == "1.9 TB"
        assert_says(PAGE, "one sequence keeps 23.8 GB in each layer, and 80 layers keep 1.9 TB")

    def test_table_rows(self) -> None:
        rows = [
            ({"tp": 1, "sequence_parallel": "no"}, "2.28 GB"),
            ({"sequence_parallel": "no"}, "872 MB"),
            ({}, "285 MB"),
            ({"recompute": "full"}, "16.8 MB"),
        ]
        for inputs, expected in rows:
            assert text(MEMORY, {**ONE_SEQUENCE, **inputs}, "activations_per_layer") == expected
            assert_says(PAGE, f"| {expected} |")
        assert_says(PAGE, "At t = 8 it takes a layer from 872 MB to 285 MB, a factor of three")
        no_sp = MEMORY.run({**ONE_SEQUENCE, "sequence_parallel": "no"}).values["activations_per_layer"]
        assert round(float(no_sp) / float(MEMORY.run(ONE_SEQUENCE).values["activations_per_layer"])) == 3

    def test_one_sequence_and_the_default(self) -> None:
        assert text(MEMORY, ONE_SEQUENCE, "activations") == "22.8 GB"
        assert_says(PAGE, "one 8,192-token sequence through all 80 layers keeps 22.8 GB")
        assert text(MEMORY, {}, "activations_per_layer") == "1.14 GB"
        assert text(MEMORY, {}, "activations") == "91.3 GB"
        assert text(MEMORY, {}, "memory") == "92.4 GB"
        assert text(MEMORY, {}, "state") == "1.09 GB"
        assert MEMORY.run({}).values["fits"] != "yes"
        assert_says(
            PAGE, "four sequences keep 1.14 GB a layer, 91.3 GB in all, and the chip needs 92.4 GB with its 1.09 GB"
        )


class TestRecomputation:
    def test_full(self) -> None:
        full = {"recompute": "full"}
        assert text(MEMORY, full, "activations_per_layer") == "67.1 MB"
        assert text(MEMORY, full, "activations") == "6.51 GB"
        assert text(MEMORY, full, "memory") == "7.6 GB"
        assert text(MEMORY, full, "hfu_over_mfu") == "1.33"
        assert MEMORY.run(full).values["fits"] == "yes"
        assert_says(
            PAGE,
            "80 × 67.1 MB plus 1.14 GB: 6.51 GB, down from 91.3 GB",
            "full recomputation fits at 7.6 GB",
            "The planner gives their ratio: 1.33 with full recomputation",
        )

    def test_selective_under_flash_attention(self) -> None:
        selective = {"recompute": "selective"}
        assert text(MEMORY, selective, "activations") == "91.3 GB"
        assert text(MEMORY, selective, "hfu_over_mfu") == "1.02"
        assert_says(PAGE, "leaves the activations at 91.3 GB and raises the ratio of hardware to model FLOPs to 1.02")


class TestAccumulation:
    def test_one_sequence_per_micro_batch(self) -> None:
        assert text(MEMORY, ONE_SEQUENCE, "memory") == "23.9 GB"
        assert_says(PAGE, "the activations fall to 22.8 GB and the chip needs 23.9 GB")

    def test_fsdp_traffic_four_times(self) -> None:
        """The explorer's FSDP pass over the batch, four times: about 4.2 s, against its compute at peak."""
        data_comm = EXPLORER.run({}).values["data_comm"]
        assert text(EXPLORER, {}, "data_comm") == "1.04 s"
        assert f"{4 * data_comm:.1f} s" == "4.2 s"
        assert text(EXPLORER, {}, "compute") == "1.87 s"
        assert_says(PAGE, "1.04 s per pass over the batch; four micro-batches make it about 4.2 s, against 1.87 s")


class TestPipelines:
    def test_inputs_come_from_the_planner(self) -> None:
        """2.85 GB per stage is the planner's 285 MB a layer times 80 / 8 layers; 17.5 GB is 16 bytes x 70 B / 64."""
        per_layer = MEMORY.run(ONE_SEQUENCE).values["activations_per_layer"]
        assert round(float(per_layer) * 10 / 1e9, 2) == PIPE.defaults["activation_gb"] == 2.85
        assert 16 * 70e9 / 64 / 1e9 == PIPE.defaults["state_gb"] == 17.5
        assert text(MEMORY, {**THREE_D, "data_axis": "dp"}, "state") == "17.5 GB"
        assert_says(PAGE, "(2.85 GB of activations per stage, the planner's 285 MB a layer times 10 layers)", "17.5 GB")
        # The first stage of 1F1B holds one micro-batch through the whole model: the planner agrees.
        assert text(MEMORY, THREE_D, "activations") == "22.8 GB" == text(PIPE, {}, "activations")

    def test_a_stage_forward_at_peak(self) -> None:
        """2 FLOPs per parameter per token: 70 B / 8 stages, 8,192 tokens, over 8 tensor-parallel H100s at peak."""
        assert 70e9 / 8 == 8.75e9
        assert f"{2 * 8.75e9 * 8192 / 8 / 989.4e12 * 1e3:.1f} ms" == "18.1 ms"
        assert_says(PAGE, "would take 18.1 ms (2 × 8.75 B parameters × 8,192 tokens, over 8 chips at 989.4 TFLOP/s)")

    def test_explorer_paragraph(self) -> None:
        assert text(PIPE, {}, "bubble") == "210 ms" and text(PIPE, {}, "step") == "1.17 s"
        assert text(PIPE, {}, "bubble_share") == "17.9%" and text(PIPE, {}, "bubble_ratio") == "21.9%"
        assert text(PIPE, {}, "activations_last") == "2.85 GB"
        assert_says(
            PAGE,
            "1F1B idles 210 ms of a 1.17 s step, 17.9% of it (21.9% of the compute time",
            "holds 8 micro-batches, 22.8 GB, and its last 2.85 GB",
        )
        assert text(PIPE, {"schedule": "gpipe"}, "activations") == "91.2 GB"
        assert_says(PAGE, "GPipe idles the same but holds 91.2 GB on every stage")
        two, four = {"schedule": "interleaved"}, {"schedule": "interleaved", "virtual": 4}
        assert text(PIPE, two, "bubble") == "105 ms" and text(PIPE, two, "held_first") == "11.5"
        assert text(PIPE, two, "activations") == "32.8 GB"
        assert text(PIPE, four, "bubble") == "52.5 ms" and text(PIPE, four, "held_first") == "9.75"
        assert_says(
            PAGE, "halves the bubble to 105 ms", "11.5 micro-batches, 32.8 GB; with four chunks, 52.5 ms and 9.75"
        )
        assert text(PIPE, {"schedule": "zero-bubble"}, "bubble") == "70 ms"
        assert_says(PAGE, "ZB-H1 idles 70 ms, a third of 1F1B's")
        dual = {"schedule": "dualpipe"}
        assert text(PIPE, dual, "bubble") == "60 ms" and text(PIPE, dual, "held_first") == "9"
        assert text(PIPE, dual, "activations") == "25.6 GB" and text(PIPE, dual, "memory") == "60.6 GB"
        assert text(PIPE, {}, "memory") == "40.3 GB"
        assert_says(PAGE, "DualPipe idles 60 ms and holds 9 micro-batches, 25.6 GB", "60.6 GB against 1F1B's 40.3 GB")

    def test_zero1_state_and_deepseek_depth(self) -> None:
        assert text(MEMORY, THREE_D, "state") == "5.2 GB"
        assert text(PIPE, {"schedule": "dualpipe", "state_gb": 5.2}, "memory") == "36 GB"
        assert text(PIPE, {"state_gb": 5.2}, "memory") == "28 GB" == text(MEMORY, THREE_D, "memory")
        assert_says(
            PAGE, "the state per stage is 5.2 GB and DualPipe needs 36 GB", "36 GB in all against 28 GB for 1F1B"
        )
        deep = {"stages": 16, "microbatches": 64}
        bubbles = [text(PIPE, {**deep, "schedule": key}, "bubble") for key in ("1f1b", "zero-bubble", "dualpipe")]
        assert bubbles == ["450 ms", "150 ms", "140 ms"]
        assert_says(PAGE, "1F1B idles 450 ms, ZB-H1 150 ms and DualPipe 140 ms")

    def test_worked_problem_three(self) -> None:
        assert PIPE.run({"microbatches": 63}).values["bubble_share"] == pytest.approx(0.1)
        assert text(PIPE, {"microbatches": 64}, "bubble_share") == "9.86%"
        assert_says(PAGE, "M > 63: 64 micro-batches, a share of 9.86%")


class TestSequenceAndContext:
    def test_context_parallel_memory(self) -> None:
        long = {"seq_len": 131072, "micro_batch": 1}
        assert text(MEMORY, long, "activations_per_layer") == "4.56 GB"
        assert text(MEMORY, long, "activations") == "365 GB"
        split = {"seq_len": 131072, "micro_batch": 1 / 16}
        assert text(MEMORY, split, "activations_per_layer") == "285 MB"
        assert text(MEMORY, split, "activations") == "22.8 GB"
        assert_says(PAGE, "keeps 4.56 GB per layer and 365 GB in all", "the same 285 MB a layer and 22.8 GB")

    def test_ring_attention_threshold(self) -> None:
        """Blocks of (C / W)(h_kv / h) tokens: 989.4 TFLOP/s over 50 GB/s, and 8 KV heads of 64."""
        ratio = 989.4e12 / 50e9
        assert f"{ratio:,.0f}" == "19,788"
        assert_says(PAGE, "C/W of 19,800", "blocks of about 2,470 tokens hide their ring")
        assert round(ratio / 8, -1) == 2470


class TestThePlan:
    def test_three_d_mesh(self) -> None:
        assert 8 * 8 * 16 == 1024 and 16 * 32 == 512  # chips; sequences per step, the 4 Mi-token batch
        assert text(MEMORY, THREE_D, "memory") == "28 GB"
        assert text(MEMORY, {**THREE_D, "grad_bytes": "4"}, "memory") == "30.2 GB"
        assert_says(PAGE, "fit at 28 GB, with 5.2 GB of state, and idle 17.9% of the step; 30.2 GB with the gradients")
