"""Memory in training, worked by hand from its sources.

- ZeRO: S. Rajbhandari et al., "ZeRO: Memory Optimizations Toward Training Trillion Parameter Models", SC20, 2020,
  figure 1 and section 5: a 7.5 B-parameter model on 64 GPUs with K = 12 takes 120 GB a GPU as plain data
  parallelism, 31.4 GB with the optimizer state sharded (P_os), 16.6 GB with the gradients too (P_os+g), 1.9 GB
  with the parameters too (P_os+g+p).
- Activations: V. Korthikanti et al., "Reducing Activation Recomputation in Large Transformer Models", MLSys 2023,
  table 2: s b h (34 + 5 a s / h) without parallelism, s b h (10 + 24 / t + 5 a s / (h t)) with tensor parallelism,
  s b h / t (34 + 5 a s / h) with sequence parallelism too, the 5 a s / h term gone with selective recomputation,
  2 s b h with full recomputation. Its GPT-3 175 B case (s = 2,048, h = 12,288, a = 96, t = 8) is worked below.
- Llama 3 70B (Meta's config.json: 80 layers, hidden 8,192, 64 heads) with 8,192-token sequences, as the
  parallelism explorer's default: eight-way tensor parallelism and FSDP over 128.
"""

from __future__ import annotations

import pytest

from calckit.api import run
from calckit.book import calculator as get
from calculators.training_memory import (
    layer_activation_bytes,
    model_flops_per_token,
    recompute_flops_per_token,
    state_bytes,
    stored_activation_bytes,
)

MEMORY = get("training-memory")
GB = 1e9
# GPT-3 175 B in Korthikanti et al., table 3: s = 2,048, h = 12,288, a = 96, t = 8; one sequence.
GPT3 = {"tokens": 2048.0, "width": 12288, "heads": 96, "seq_len": 2048, "tp": 8}


class TestZeroTable:
    @pytest.mark.parametrize(("axis", "expected_gb"), [("dp", 120.0), ("zero1", 31.4), ("zero2", 16.6), ("fsdp", 1.9)])
    def test_the_papers_worked_example(self, axis: str, expected_gb: float) -> None:
        """7.5 B parameters, N = 64: 16 x 7.5 = 120; 4 x 7.5 + 12 x 7.5 / 64 = 31.41; 2 x 7.5 + 14 x 7.5 / 64 =
        16.64; 16 x 7.5 / 64 = 1.875."""
        assert state_bytes(7.5e9, axis, 64).total / GB == pytest.approx(expected_gb, abs=0.05)

    def test_fp32_gradients_add_two_bytes_where_gradients_are_whole(self) -> None:
        """Gradients reduced in FP32 take g = 4: data parallel 18 Psi, ZeRO-1 6 Psi + 12 Psi / N, and ZeRO-2 and -3
        only 2 Psi / N more."""
        psi, n = 7.5e9, 64
        assert state_bytes(psi, "dp", n, 4.0).total == pytest.approx(18 * psi)
        assert state_bytes(psi, "zero1", n, 4.0).total == pytest.approx(6 * psi + 12 * psi / n)
        assert state_bytes(psi, "zero2", n, 4.0).total == pytest.approx(2 * psi + 16 * psi / n)
        assert state_bytes(psi, "fsdp", n, 4.0).total == pytest.approx(18 * psi / n)

    def test_an_unknown_axis_is_refused(self) -> None:
        with pytest.raises(ValueError, match="unknown data axis"):
            state_bytes(1e9, "zero4", 8)


class TestActivations:
    def test_no_parallelism(self) -> None:
        """s b h (34 + 5 a s / h) = 2,048 x 12,288 x (34 + 5 x 96 x 2,048 / 12,288) = 2,048 x 12,288 x 114."""
        got = layer_activation_bytes(
            **{**GPT3, "tp": 1}, sequence_parallel=False, recompute="none", attention="materialized"
        )
        assert got == pytest.approx(2048 * 12288 * 114)

    def test_tensor_parallel_alone_keeps_ten_replicated(self) -> None:
        """s b h (10 + 24 / 8 + 80 / 8) = s b h x 23."""
        got = layer_activation_bytes(**GPT3, sequence_parallel=False, recompute="none", attention="materialized")
        assert got == pytest.approx(2048 * 12288 * 23)

    def test_sequence_parallel_splits_everything(self) -> None:
        """s b h / t (34 + 80) = s b h x 14.25."""
        got = layer_activation_bytes(**GPT3, sequence_parallel=True, recompute="none", attention="materialized")
        assert got == pytest.approx(2048 * 12288 * 114 / 8)

    def test_selective_recompute_and_flash_attention_drop_the_scores(self) -> None:
        """34 s b h / t either way: the paper's 'sequence parallelism with selective recomputation'."""
        for recompute, attention in (("selective", "materialized"), ("none", "flash"), ("selective", "flash")):
            got = layer_activation_bytes(**GPT3, sequence_parallel=True, recompute=recompute, attention=attention)
            assert got == pytest.approx(2048 * 12288 * 34 / 8)
        tp_only = layer_activation_bytes(
            **GPT3, sequence_parallel=False, recompute="selective", attention="materialized"
        )
        assert tp_only == pytest.approx(2048 * 12288 * 13)

    def test_full_recompute_keeps_the_input(self) -> None:
        """2 s b h; sequence parallelism splits the kept input t ways too."""
        full = {"recompute": "full", "attention": "materialized"}
        assert layer_activation_bytes(**GPT3, sequence_parallel=False, **full) == pytest.approx(2 * 2048 * 12288)
        assert layer_activation_bytes(**GPT3, sequence_parallel=True, **full) == pytest.approx(2 * 2048 * 12288 / 8)

    def test_1f1b_first_stage(self) -> None:
        """Each of p stages holds L / p layers of min(p, M) micro-batches: 80 layers, p = 4, M = 8: 4 x 20 = 80
        layer-micro-batches; M = 2: 40."""
        assert stored_activation_bytes(1.0, 80, 4, 8) == 80
        assert stored_activation_bytes(1.0, 80, 4, 2) == 40
        assert stored_activation_bytes(1.0, 80, 1, 8) == 80


class TestRecomputeFlops:
    def test_full_adds_one_forward(self) -> None:
        """Full recomputation adds a third to the model's FLOPs: 2 N + 2 L s h over 6 N + 6 L s h."""
        model = model_flops_per_token(70e9, 80, 8192, 8192)
        assert model == pytest.approx(6 * 70e9 + 6 * 80 * 8192 * 8192)
        assert recompute_flops_per_token(70e9, 80, 8192, 8192, "full") / model == pytest.approx(1 / 3)

    def test_selective_adds_the_attention_core(self) -> None:
        """QK^T and scores x V: 4 s h per token per layer, half of it under the causal mask: 2 x 80 x 8,192^2 =
        1.07e10 per token, 2.4% of Llama 3 70B's 4.52e11."""
        assert recompute_flops_per_token(70e9, 80, 8192, 8192, "selective") == pytest.approx(2 * 80 * 8192**2)
        assert recompute_flops_per_token(70e9, 80, 8192, 8192, "none") == 0


class TestCalculator:
    def test_the_default_does_not_fit_without_recomputation(self) -> None:
        """Four sequences of 8,192 per chip's shard, t = 8 with sequence parallelism, FlashAttention:
        34 x 32,768 x 8,192 / 8 = 1.14 GB a layer, 91.3 GB for 80 layers; FSDP's 16 x 70e9 / (8 x 128) =
        1.09 GB of state. 92.4 GB on an 80 GB H100."""
        values = MEMORY.run({}).values
        assert values["activations_per_layer"] == pytest.approx(34 * 32768 * 8192 / 8)
        assert values["activations"] == pytest.approx(80 * 34 * 32768 * 8192 / 8)
        assert values["state"] == pytest.approx(16 * 70e9 / 1024)
        assert values["fits"] == "no: 92.4 GB of 80 GB"
        assert values["hfu_over_mfu"] == 1

    def test_full_recompute_fits_and_costs_a_third(self) -> None:
        """80 layer inputs of 2 x 32,768 x 8,192 / 8 bytes (5.37 GB) and one layer rebuilt (1.14 GB): 6.51 GB."""
        values = MEMORY.run({"recompute": "full"}).values
        assert values["activations"] == pytest.approx(80 * 2 * 32768 * 8192 / 8 + 34 * 32768 * 8192 / 8)
        assert values["fits"] == "yes"
        assert values["hfu_over_mfu"] == pytest.approx(4 / 3)

    def test_selective_recompute_saves_nothing_under_flash_attention(self) -> None:
        """FlashAttention already keeps no scores: selective recomputation then only costs FLOPs."""
        flash = MEMORY.run({"recompute": "selective"}).values
        assert flash["memory"] == MEMORY.run({}).values["memory"]
        assert flash["hfu_over_mfu"] > 1
        stored = MEMORY.run({"attention": "materialized"}).values
        assert stored["activations_per_layer"] == pytest.approx((34 + 320) * 32768 * 8192 / 8)
        assert MEMORY.run({"attention": "materialized", "recompute": "selective"}).values["memory"] == flash["memory"]

    def test_one_sequence_per_micro_batch_fits(self) -> None:
        """Gradient accumulation over four micro-batches of one sequence: 22.8 GB of activations."""
        values = MEMORY.run({"micro_batch": 1, "microbatches": 4}).values
        assert values["activations"] == pytest.approx(80 * 34 * 8192 * 8192 / 8)
        assert values["fits"] == "yes"

    def test_the_table_lists_each_zero_stage(self) -> None:
        rows = MEMORY.run({"recompute": "full"}).table.rows  # type: ignore[union-attr]
        assert [row[0].split(" ")[0] for row in rows] == ["Data", "ZeRO-1", "ZeRO-2", "FSDP"]
        # Data parallel over t = 8: 16 x 70e9 / 8 = 140 GB of state.
        assert rows[0][5] == "147 GB" and rows[3][5] == "7.6 GB"

    def test_texts(self) -> None:
        outputs = {o["key"]: o["text"] for o in run("training-memory", {"recompute": "full"})["outputs"]}
        assert outputs["memory"] == "7.6 GB" and outputs["hfu_over_mfu"] == "1.33"
