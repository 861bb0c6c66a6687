"""Every worked number of docs/lessons/inference-at-scale.md, recomputed through the calculators the page embeds and
compared with the text as the page writes it.

Figures: the chip database (H100 SXM 80 GB, 3.35 TB/s, 989.4 TFLOP/s, 700 W, 4.916 USD per GPU-hour from AWS
Capacity Blocks; H200 SXM 141 GB, 4.8 TB/s); Meta's Llama 3 70B config.json; DeepSeek-V3's config (61 layers, 128
heads, MLA latent 512 + 64); Leviathan et al. 2023 for speculative decoding.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from calckit.book import calculator as get
from calculators.chips import get_chip
from calculators.latency_throughput import decode_at

from .page_text import page_text

LT, KV, SPEC, COLLECTIVE = get("latency-throughput"), get("kv-cache"), get("speculative"), get("collective")
SOURCE = Path(__file__).parents[2].joinpath("docs/lessons/inference-at-scale.md").read_text()  # its blocks' lines
LESSON = page_text("lessons/inference-at-scale.md")  # the prose as read, its line breaks as spaces
V3 = {"attention": "mla", "layers": 61, "heads": 128}


def shown(calculator: Any, inputs: dict[str, Any], key: str) -> str:
    """The output as the page writes it, and it must be in the lesson (a rate in words: "190 tokens per second")."""
    text = calculator.output(key).text(calculator.run(inputs).values[key])
    spoken = text.replace(" tokens/s", " tokens per second").replace(" FLOP/byte", " FLOP per byte")
    assert text in LESSON or spoken in LESSON or f" {text.removesuffix(' tokens/s')} in all" in LESSON, (key, text)
    return text


class TestFrontier:
    def test_points_on_the_curve(self) -> None:
        assert shown(LT, {"batch": 1}, "step_time") == "5.27 ms"
        assert shown(LT, {"batch": 1}, "per_user") == "190 tokens/s"
        assert shown(LT, {}, "step_time") == "8.43 ms"
        assert shown(LT, {}, "per_user") == "119 tokens/s"
        assert shown(LT, {}, "total") == "7,590 tokens/s"
        one, many = LT.run({"batch": 1}).values, LT.run({}).values
        assert round(float(many["total"]) / float(one["total"])) == 40  # "forty times the total"
        assert round((1 - float(many["per_user"]) / float(one["per_user"])) * 100) == 37
        assert shown(LT, {}, "max_batch") == "372"
        assert shown(LT, {"batch": 372}, "step_time") == "25.2 ms"
        assert shown(LT, {"batch": 372}, "per_user") == "39.7 tokens/s"
        assert shown(LT, {"batch": 372}, "total") == "14,800 tokens/s"
        assert shown(LT, {}, "critical_batch") == "296"

    def test_targets(self) -> None:
        assert shown(LT, {}, "target_batch") == "295"
        assert shown(LT, {}, "target_total") == "14,800 tokens/s"
        assert shown(LT, {"target_rate": 100}, "target_batch") == "95"
        assert shown(LT, {"target_rate": 100}, "target_total") == "9,520 tokens/s"
        assert LT.run({"target_rate": 20}).values["target_batch"] == 372


def test_prefill() -> None:
    """(2 x 70e9 x T + 2 x 80 x T^2 x 8,192) / (8 x 989.4e12): 75.2 ms at 4,096, 757 ms at 32,768, 9.1 ms at 512."""
    assert shown(LT, {}, "prefill_time") == "75.2 ms"
    assert shown(LT, {"prompt": 32768}, "prefill_time") == "757 ms"
    assert shown(LT, {"prompt": 512}, "prefill_time") == "9.1 ms"
    assert float(LT.run({}).values["prefill_time"]) == pytest.approx(
        (2 * 70e9 * 4096 + 2 * 80 * 4096**2 * 8192) / 7.9152e15
    )
    assert 3.5 < 75.2 / 20 < 4  # "nearly four of the 20 ms steps"


def test_shared_prefix() -> None:
    assert shown(KV, {"context": 2048}, "per_sequence") == "671 MB"
    assert shown(KV, {"context": 2048, "batch": 64}, "batch_per_chip") == "42.9 GB"
    assert shown(LT, {"prompt": 2048}, "prefill_time") == "36.9 ms"


def test_attention_intensity() -> None:
    """4 x 80 x 8,192 FLOPs per token of context over 327,680 bytes: 8 FLOP/byte at any batch; 1 with 64 KV heads."""
    assert shown(LT, {}, "attention_intensity") == "8 FLOP/byte"
    assert LT.run({"batch": 300, "context": 100}).values["attention_intensity"] == 8
    assert LT.run({"kv_heads": 64}).values["attention_intensity"] == 1
    assert "1 FLOP per byte" in LESSON


class TestSplitting:
    def test_chips(self) -> None:
        assert shown(LT, {"batch": 1, "chips": 4}, "step_time") == "10.5 ms"
        # Two H100s hold the weights with room for (160 - 140) / 1.342 = 14 caches, but no batch reaches 50 tokens/s.
        assert LT.run({"batch": 1, "chips": 2}).values["target_batch"] == "—"
        assert LT.run({"chips": 2}).values["max_batch"] == 14 and "only 14 caches" in LESSON
        assert shown(LT, {"batch": 1, "chips": 2}, "step_time") == "21.1 ms"

    def test_all_reduce_latency(self) -> None:
        """16 kB (8,192 values of 2 bytes) per all-reduce, 160 per step."""
        assert shown(COLLECTIVE, {"size_mb": 0.016384}, "time") == "8.46 µs"
        assert COLLECTIVE.run({"size_mb": 0.016384}).values["bound"] == "Latency-bound"
        assert shown(COLLECTIVE, {"size_mb": 0.016384 * 64}, "time") == "12.5 µs"
        assert COLLECTIVE.run({"size_mb": 0.016384 * 64}).values["bound"] == "Latency-bound"
        per_step = 160 * float(COLLECTIVE.run({"size_mb": 0.016384}).values["time"])
        assert f"{per_step * 1e3:.2f} ms" == "1.35 ms" and "1.35 ms" in LESSON
        slowed = {"batch": 1, "overhead_us": round(per_step * 1e6)}
        assert shown(LT, slowed, "step_time") == "6.63 ms"
        assert shown(LT, slowed, "per_user") == "151 tokens/s"
        assert LT.run({"overhead_us": round(per_step * 1e6)}).values["target_batch"] == 268


class TestKVCache:
    def test_kinds(self) -> None:
        assert shown(KV, {}, "per_token") == "328 kB"
        assert shown(KV, {}, "vs_mha") == "12.5%"
        assert shown(KV, {"attention": "mha"}, "per_token") == "2.62 MB"
        assert shown(KV, {"attention": "mqa"}, "per_token") == "41 kB"
        assert shown(KV, {"attention": "mqa"}, "vs_mha") == "1.56%"
        assert shown(KV, {"attention": "mla"}, "per_token") == "92.2 kB"
        assert shown(KV, {"attention": "mla"}, "vs_mha") == "3.52%"
        assert shown(KV, V3, "per_token") == "70.3 kB"
        assert shown(KV, V3, "vs_mha") == "1.76%"
        assert shown(KV, {}, "per_sequence") == "2.68 GB"
        assert shown(KV, {"context": 4096}, "per_sequence") == "1.34 GB"

    def test_problem_1(self) -> None:
        assert KV.run(V3).values["per_token"] == 70_272 and "70,272" in LESSON
        mha = 2 * 128 * 128 * 61 * 2
        assert f"{mha / 1e6:.1f} MB" == "4.0 MB" and round(mha / 70_272) == 57

    def test_quantised_sharded_paged(self) -> None:
        assert shown(KV, {"kv_bytes": "1"}, "per_token") == "164 kB"
        assert LT.run({"kv_bytes": "1"}).values["target_batch"] == 468
        assert shown(KV, {"tp": 8}, "per_token_chip") == "41 kB"
        assert shown(KV, {"tp": 16}, "per_token_chip") == "41 kB"
        assert KV.output("paged_waste").text(KV.run({"context": 1000, "batch": 1}).values["paged_waste"]) == "0.794%"
        assert "0.79%" in LESSON
        assert shown(KV, {"context": 1000, "batch": 1}, "reserved_waste") == "96.9%"


class TestSpeculative:
    def test_cases(self) -> None:
        assert shown(SPEC, {}, "tokens_per_step") == "3.36"
        assert SPEC.output("speedup").text(SPEC.run({}).values["speedup"]) == "2.8 ×" and "2.8 ×" in LESSON
        assert SPEC.run({}).values["best_draft"] == 8
        assert shown(SPEC, {}, "best_speedup") == "3.09 ×"
        assert shown(SPEC, {"draft_cost": 0.3}, "speedup") == "1.53 ×"
        assert SPEC.run({"draft_cost": 0.3}).values["best_draft"] == 3
        assert shown(SPEC, {"verify_cost": 5}, "speedup") == "0.646 ×"

    def test_problem_3(self) -> None:
        case = {"acceptance": 0.6, "draft_tokens": 3, "draft_cost": 0.1}
        assert shown(SPEC, case, "tokens_per_step") == "2.18"
        assert shown(SPEC, case, "speedup") == "1.67 ×"
        assert SPEC.run(case).values["best_draft"] == 3


class TestBill:
    def test_worked_example(self) -> None:
        h100 = get_chip("h100-sxm")
        assert h100.price_per_hour is not None and h100.price_per_hour.value == 4.916
        assert f"${8 * 4.916:.2f}" == "$39.33" and f"{8 * 4.916 / 3600 * 100:.2f}" == "1.09"
        values = LT.run({}).values
        assert f"{140e9 / 26.8e12 * 1e3:.2f} ms" == "5.22 ms"
        assert f"{327_680 * 4096 / 26.8e12 * 1e3:.3f} ms" == "0.050 ms"
        assert f"{1e6 / float(values['target_total']):.1f}" == "67.8"
        assert shown(LT, {}, "cost_per_million_output") == "$0.74"
        assert shown(LT, {}, "energy_per_million_output") == "380 kJ"
        assert 8 * 700 == 5600 and (640e9 - 140e9) == 500e9

    @pytest.mark.parametrize(
        ("inputs", "cost", "energy"),
        [
            ({"target_rate": 100}, "$1.15", "588 kJ"),
            ({"kv_bytes": "1"}, "$0.47", "239 kJ"),
            ({"chip": "h200-sxm"}, "$0.63", "295 kJ"),
            ({"chips": 4}, "$1.15", "588 kJ"),
        ],
    )
    def test_variants(self, inputs: dict[str, Any], cost: str, energy: str) -> None:
        assert shown(LT, inputs, "cost_per_million_output") == cost
        assert shown(LT, inputs, "energy_per_million_output") == energy

    def test_half_the_chips_at_half_the_rate(self) -> None:
        assert LT.run({"chips": 4}).values["target_batch"] == LT.run({"target_rate": 100}).values["target_batch"] == 95
        assert LT.run({"chips": 4, "target_rate": 100}).values["target_batch"] == "—"

    def test_h200_against_h100(self) -> None:
        h100, h200 = get_chip("h100-sxm"), get_chip("h200-sxm")
        assert h200.price_per_hour is not None and h200.price_per_hour.value == 5.408 and "$5.408" in LESSON
        assert round((h200.memory_gb.value / h100.memory_gb.value - 1) * 100) == 76
        assert round((h200.bandwidth_tbs.value / h100.bandwidth_tbs.value - 1) * 100) == 43


SERVING = get("serving")
V3_SERVED = {
    "chip": "h200-sxm",
    "chips": 8,
    "precision": "fp8",
    "params_b": 671,
    "active_b": 37,
    "experts": 256,
    "top_k": 8,
    "bytes_per_param": "1",
    "layers": 61,
    "hidden": 7168,
    "attention": "mla",
    "heads": 128,
    "latent": 512,
    "rope_dim": 64,
    "context": 4096,
    "batch": 256,
}


class TestAttentionKinds:
    """Per cached token and layer at decode: 4 x heads x head size FLOPs for MHA, GQA and MQA; absorbed MLA
    2 x 128 x (512 + 64) + 2 x 128 x 512 = 278,528 over 1,152 bytes (DeepSeek-V2, section 2.1.2)."""

    def test_each_kind(self) -> None:
        assert shown(LT, {"attention": "mha"}, "attention_intensity") == "1 FLOP/byte"
        assert shown(LT, {"attention": "mqa"}, "attention_intensity") == "64 FLOP/byte"
        assert shown(LT, {"attention": "mla", "heads": 128}, "attention_intensity") == "242 FLOP/byte"
        fp8 = LT.run({"attention": "mla", "heads": 128, "kv_bytes": "1"}).values["attention_intensity"]
        assert f"{float(fp8):.0f} FLOP per byte" in LESSON and float(fp8) > 989.4 / 3.35
        assert "4 × 64 × 128 FLOPs against 2 × 8 × 128 × 2 bytes" in LESSON and 4 * 64 * 128 / (2 * 8 * 128 * 2) == 8

    def test_verification_multiplies_them(self) -> None:
        gqa = float(LT.run({}).values["attention_intensity"])
        mla = float(LT.run({"attention": "mla", "heads": 128}).values["attention_intensity"])
        assert f"GQA's {gqa:.0f} becomes {5 * gqa:.0f}" in LESSON
        assert f"MLA's {mla:.0f} becomes {5 * mla:,.0f}" in LESSON
        assert 5 * gqa < 295 < 5 * mla


class TestMixtureOfExperts:
    """DeepSeek-V3 in FP8 on 8 H200s, the page's serving block (hand-worked in tests/unit/test_decode_step.py)."""

    def test_the_block_is_the_case(self) -> None:
        block = SOURCE[SOURCE.index("id: deepseek-v3") : SOURCE.index("batch: 256")]
        for key, value in V3_SERVED.items():
            if key not in ("batch", "kv_bytes"):
                assert f"\n{key}: " in block and (f": {value}\n" in block or f': "{value}"\n' in block), key

    def test_figures(self) -> None:
        one = {**V3_SERVED, "batch": 1}
        assert shown(SERVING, one, "weights_read") == "37 GB"
        assert shown(SERVING, one, "matmul_time") == "964 µs"
        assert shown(SERVING, V3_SERVED, "experts_batch") == "73"
        read = float(SERVING.run(V3_SERVED).values["experts_read"])
        assert f"{read:.2%}" == "99.97%" and "99.97% of them" in LESSON
        assert shown(SERVING, V3_SERVED, "weights_read") == "671 GB"
        assert shown(SERVING, V3_SERVED, "matmul_time") == "17.6 ms"
        assert f"{2 * 37e9 * 256 / (8 * 1979e12) * 1e3:.1f} ms" == "1.2 ms"
        assert shown(SERVING, V3_SERVED, "compute_bound_batch") == "6,600"

    def test_split_of_the_parameters(self) -> None:
        """Routed: 58 x 256 x 3 x 7,168 x 2,048 = 654 B; the rest of 671 B, 17 B, is read at every step."""
        routed = 58 * 256 * 3 * 7168 * 2048
        assert f"{routed / 1e9:.0f} B" == "654 B" and f"{(671e9 - routed) / 1e9:.0f} B" == "17 B"
        assert "654 B sit in the routed experts" in LESSON and "the other 17 B" in LESSON


class TestChunkedPrefill:
    """The chunk's tokens join the weight matmuls' batch (tests/unit/test_decode_step.py works both cases)."""

    def test_prose(self) -> None:
        plan = decode_at(LT.check({})[0])

        def mixed(batch: int, chunk: int) -> float:
            own = (plan.model.prefill_flops(chunk) - 2 * plan.model.active * chunk) / plan.peak
            return plan.attention_time(batch) + plan.weight_time(batch + chunk) + own

        assert shown(LT, {}, "critical_batch") == "296"
        apart = plan.step(64) + plan.prefill(231)
        assert f"a chunk of 231 tokens adds only its own attention to an {plan.step(64) * 1e3:.2f} ms step" in LESSON
        assert f"it would take {(apart - mixed(64, 231)) * 1e3:.1f} ms more" in LESSON
        assert plan.batch_for_rate(50) == 295 and 64 + 231 < 296
        assert f"the mixed step takes {mixed(295, 512) * 1e3:.1f} ms" in LESSON
        assert f"{mixed(295, 512) * 1e3:.1f}" == f"{(plan.step(295) + plan.prefill(512)) * 1e3:.1f}" == "29.1"


class TestInputTokens:
    """Input tokens pay for the prefill: 75.2 ms of 8 H100s at 4.916 USD per GPU-hour per 4,096-token prompt."""

    def test_step_6(self) -> None:
        values = LT.run({}).values
        prefill = float(values["prefill_time"])
        dollars = 8 * 4.916 / 3600 * prefill
        assert f"${dollars:.6f}" == "$0.000822" and "$0.000822" in LESSON
        assert shown(LT, {}, "cost_per_million_input") == "$0.20"
        assert shown(LT, {}, "energy_per_million_input") == "103 kJ"
        assert f"${dollars / 512 * 1e6:.2f}" == "$1.61" and "$1.61 per million output tokens" in LESSON
        output = float(values["cost_per_million_output"])
        request = 4096 * float(values["cost_per_million_input"]) / 1e6 + 512 * output / 1e6
        assert f"${request:.4f}" == "$0.0012" and "$0.0012, two thirds of it" in LESSON
        assert round(4096 * float(values["cost_per_million_input"]) / 1e6 / request * 3) == 2
        assert dollars / 512 * 1e6 > 2 * output  # "more than twice"

    def test_half_the_chips_same_input_bill(self) -> None:
        assert LT.run({"chips": 4}).values["cost_per_million_input"] == pytest.approx(
            LT.run({}).values["cost_per_million_input"]
        )
