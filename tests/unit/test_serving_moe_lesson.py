"""Every worked number of docs/lessons/serving-moe-long-context.md, recomputed through the calculators the page embeds
and compared with the text as the page writes it.

Figures: the chip database (H100 SXM 80 GB, 3.35 TB/s, 989.4 / 1,978.9 TFLOP/s BF16 / FP8; H200 SXM 4.8 TB/s;
B200 180 GB, 8 TB/s, 4,500 TFLOP/s FP8); DeepSeek-V3's report and config (671 B, 37 B active, 256 experts, 8 per token,
61 layers, 3 dense, hidden 7,168, 128 heads, MLA 512 + 64); DeepSeek's inference overview (EP144 over 18 nodes, 32
redundant experts, a mean of 4,989 cached tokens); Kimi K2 (384 experts, 8 per token); Meta's Llama 3 70B config;
gpt-oss-120b's config (36 layers, 8 KV heads of 64, half the layers with a 128-token window); DeepSeek-V3.2-Exp's
indexer (128 FP8 values per key, top 2,048); Leviathan et al. 2023 for speculative decoding.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from calckit.book import calculator as get

from .page_text import page_text

EP, DIS, SPEC, LT = get("expert-parallel"), get("disaggregation"), get("speculative"), get("latency-throughput")
LESSON = page_text("lessons/serving-moe-long-context.md")  # as read, its line breaks as spaces
SPOKEN = {" tokens/s": " tokens per second", " requests/s": " requests a second"}


def shown(calculator: Any, inputs: dict[str, Any], key: str) -> str:
    """The output as the page writes it, and it must be in the lesson (a rate in words: "38 tokens per second")."""
    text = calculator.output(key).text(calculator.run(inputs).values[key])
    spoken = text
    for unit, words in SPOKEN.items():
        spoken = spoken.replace(unit, words)
    bare = text
    for unit in SPOKEN:
        bare = bare.removesuffix(unit)
    number_alone = re.search(rf"(?<![\d,.]){re.escape(bare)}(?![\d,]|\.\d)", LESSON)
    assert text in LESSON or spoken in LESSON or number_alone, (key, text)
    return text


def value(calculator: Any, inputs: dict[str, Any], key: str) -> float:
    return float(calculator.run(inputs).values[key])


ONE_GPU = {"ep": 1}


class TestExpertsTouched:
    @pytest.mark.parametrize(
        ("batch", "count", "share"),
        [(1, "8", "3.12%"), (8, "57.4", "22.4%"), (32, "163", "63.8%"), (64, "222", "86.9%"), (128, "252", "98.3%")],
    )
    def test_deepseek(self, batch: int, count: str, share: str) -> None:
        assert shown(EP, {**ONE_GPU, "batch": batch}, "touched") == count
        assert shown(EP, {**ONE_GPU, "batch": batch}, "touched_share") == share

    def test_at_256_tokens_almost_none_is_missed(self) -> None:
        """'only 0.03% of the experts go unread'."""
        assert round((1 - value(EP, {**ONE_GPU, "batch": 256}, "touched_share")) * 100, 2) == 0.03
        assert "only 0.03% of the experts go unread" in LESSON

    def test_kimi_k2(self) -> None:
        assert shown(EP, {**ONE_GPU, "batch": 32, "experts": 384}, "touched") == "188"
        assert shown(EP, {**ONE_GPU, "batch": 32, "experts": 384}, "touched_share") == "49%"

    def test_worked_problem_rows(self) -> None:
        """32 x 8 token-expert pairs over 163 experts: about 1.6 rows each."""
        assert round(32 * 8 / value(EP, {**ONE_GPU, "batch": 32}, "touched"), 1) == 1.6


def test_small_batch_reads_everything() -> None:
    """671 GB over eight H200s at 4.8 TB/s each: 17.5 ms; 37 GB: 0.96 ms (issue 47's figures)."""
    assert round(671e9 / (8 * 4.8e12) * 1e3, 1) == 17.5
    assert round(37e9 / (8 * 4.8e12) * 1e3, 2) == 0.96
    assert "38.4 TB/s that takes 17.5 ms" in LESSON and "37 GB in 0.96 ms" in LESSON


def test_critical_global_batch() -> None:
    """An FP8 expert matmul reaches the H100's ridge at 1,978.9 / 3.35 / 2 = 295 rows; x 256 / 8 = 9,450 tokens; at
    4,989 tokens of 70,272 bytes, 351 MB a sequence and 3.31 TB for 9,450 of them."""
    rows = 1978.9 / 3.35 / 2
    assert round(rows) == 295 and round(989.4 / 3.35) == 295  # "the same number as for BF16"
    assert round(rows * 256 / 8, -1) == 9450
    assert round(4989 * 70_272 / 1e6) == 351
    assert round(9450 * 4989 * 70_272 / 1e12, 2) == 3.31


class TestDecodeUnit:
    def test_split_of_the_parameters(self) -> None:
        """(671 - 37) x 256 / 248 = 654 B in the routed experts, 16.5 B kept by every GPU."""
        routed = (671 - 37) * 256 / 248
        assert round(routed) == 654 and f"{671 - routed:.1f}" == "16.5"

    def test_defaults(self) -> None:
        assert shown(EP, {}, "experts_per_rank") == "2"
        assert shown(EP, {}, "tokens_per_expert") == "576"
        assert value(EP, {}, "touched") == pytest.approx(256)
        assert shown(EP, {}, "kv_read") == "44.9 GB"
        assert shown(EP, {}, "memory") == "66.5 GB"
        assert shown(EP, {}, "step_time") == "26.3 ms"
        assert shown(EP, {}, "per_gpu") == "4,860 tokens/s"
        assert shown(EP, {}, "per_node_rate") == "38,900 tokens/s"
        assert shown(EP, {}, "per_user") == "38 tokens/s"
        assert 128 * 144 == 18432  # "18,432 sequences a step"

    def test_against_measurements(self) -> None:
        """DeepSeek's profile (EP128, 128 a GPU, 4,096 tokens): 18,598 measured; SGLang (EP72 over 9 nodes, 256 a GPU,
        2,000 tokens): 22,282 measured. The bound is about twice either."""
        profile = value(EP, {"ep": 128, "context": 4096}, "per_node_rate")
        sglang = value(EP, {"ep": 72, "batch": 256, "context": 2000}, "per_node_rate")
        assert shown(EP, {"ep": 128, "context": 4096}, "per_node_rate") == "40,200 tokens/s"
        assert shown(EP, {"ep": 72, "batch": 256, "context": 2000}, "per_node_rate") == "44,600 tokens/s"
        assert 1.9 < profile / 18598 < 2.3 and 1.9 < sglang / 22282 < 2.1


class TestAllToAll:
    def test_bytes_and_time(self) -> None:
        assert shown(EP, {}, "dispatch_bytes") == "7.57 MB"
        assert shown(EP, {}, "combine_bytes") == "14.7 MB"
        assert shown(EP, {}, "layer_exchange") == "420 µs"
        assert shown(EP, {}, "exchange_time") == "24.4 ms"

    def test_deepep(self) -> None:
        """At EP256: 431 us at 50 GB/s, 553 us at DeepEP's 39 GB/s (8 x 312 Gb/s a node), 78% of the line rate."""
        assert shown(EP, {"ep": 256}, "layer_exchange") == "431 µs"
        assert shown(EP, {"ep": 256, "node_nic_gbps": 2496}, "layer_exchange") == "553 µs"
        assert round(39 / 50 * 100) == 78

    def test_overlap(self) -> None:
        assert shown(EP, {"overlap": "none"}, "step_time") == "44.2 ms"
        assert shown(EP, {"overlap": "none"}, "per_gpu") == "2,890 tokens/s"
        assert round(value(EP, {"overlap": "none"}, "step_time") / value(EP, {}, "step_time"), 2) == 1.68
        assert shown(EP, {}, "weights_read") == "43.3 GB"
        assert shown(EP, {"overlap": "none"}, "weights_read") == "21.7 GB"
        assert round(value(EP, {"overlap": "none"}, "weights_read") / 3.35e12 * 1e3, 1) == 6.5

    def test_small_batch(self) -> None:
        assert shown(EP, {"batch": 16}, "exchange_time") == "3.05 ms"
        assert shown(EP, {"batch": 16}, "step_time") == "14.6 ms"
        assert shown(EP, {"batch": 16, "overlap": "none"}, "step_time") == "11.2 ms"

    def test_imbalance(self) -> None:
        assert shown(EP, {"balance": 0.8}, "exchange_time") == "30.5 ms"
        assert EP.run({"balance": 0.8}).values["hidden"] == "no: 4.14 ms exposed"
        assert "4.14 ms exposed" in LESSON
        assert shown(EP, {"balance": 0.8}, "per_gpu") == "4,200 tokens/s"


NODE = {"chip": "b200", "ep": 8, "redundant": 0, "batch": 64, "overlap": "none"}


class TestQuantisedWeights:
    def test_fp8(self) -> None:
        assert shown(EP, NODE, "weights_read") == "98.4 GB"
        assert shown(EP, NODE, "step_time") == "15.1 ms"
        assert shown(EP, NODE, "per_node_rate") == "33,900 tokens/s"
        assert shown(EP, NODE, "per_user") == "66.2 tokens/s"

    def test_four_bit(self) -> None:
        four = {**NODE, "weight_bytes": "0.5625"}
        assert shown(EP, four, "weights_read") == "55.3 GB"
        assert shown(EP, four, "step_time") == "9.72 ms"
        assert shown(EP, four, "per_node_rate") == "52,700 tokens/s"
        assert shown(EP, four, "per_user") == "103 tokens/s"

    def test_bf16_does_not_fit(self) -> None:
        assert EP.run({**NODE, "weight_bytes": "2"}).values["fits"] == "no: needs 219 GB of 180 GB"
        assert "219 GB of a GPU's 180" in LESSON


class TestDisaggregation:
    def test_transfer(self) -> None:
        assert shown(DIS, {}, "kv_per_token") == "328 kB"
        assert shown(DIS, {}, "kv_per_request") == "1.34 GB"
        assert shown(DIS, {}, "transfer_time") == "3.36 ms"
        assert shown(DIS, {"nics": 1}, "transfer_time") == "26.8 ms"

    def test_mla(self) -> None:
        mla = {"attention": "mla", "layers": 61, "heads": 128}
        assert shown(DIS, mla, "kv_per_token") == "70.3 kB"
        assert shown(DIS, mla, "kv_per_request") == "288 MB"
        assert shown(DIS, mla, "transfer_time") == "720 µs"

    def test_prefill_and_layerwise(self) -> None:
        assert shown(DIS, {}, "prefill_time") == "152 ms"
        peak = 4096 / value(LT, {"context": 4096}, "prefill_time")  # eight H100s at their peak: 54,500 tokens/s
        assert 0.45 < 27000 / peak < 0.55  # "about half"
        assert shown(DIS, {"transfer": "layerwise"}, "exposed_transfer") == "41.9 µs"
        assert shown(DIS, {"transfer": "layerwise", "nics": 1}, "exposed_transfer") == "336 µs"

    def test_queue_and_goodput(self) -> None:
        assert shown(DIS, {}, "utilisation") == "60.7%"
        assert shown(DIS, {}, "queue_wait") == "117 ms"
        assert shown(DIS, {}, "ttft") == "272 ms"
        assert shown(DIS, {}, "tpot") == "8.43 ms"
        assert shown(DIS, {}, "decode_capacity") == "14.8 requests/s"
        assert shown(DIS, {}, "prefill_capacity") == "13.2 requests/s"
        assert shown(DIS, {}, "goodput") == "10.1 requests/s"
        assert shown(DIS, {}, "goodput_per_gpu") == "0.419 requests/s"
        assert shown(DIS, {"ttft_slo": 200}, "goodput") == "4.9 requests/s"
        assert shown(DIS, {"prefill_instances": 3}, "goodput") == "14.8 requests/s"
        assert shown(DIS, {"prefill_instances": 3}, "goodput_per_gpu") == "0.463 requests/s"

    def test_decode_figures_are_the_latency_calculator_s(self) -> None:
        """7,590 tokens/s and 8.43 ms at 64 sequences: Llama 3 70B on eight H100s, inference at scale's frontier."""
        assert LT.output("total").text(LT.run({}).values["total"]) == "7,590 tokens/s"
        assert LT.output("step_time").text(LT.run({}).values["step_time"]) == "8.43 ms"

    def test_worked_problem_queue(self) -> None:
        """rho 0.9: 0.9 / 0.2 = 4.5 D; rho 0.607: 0.77 D."""
        assert round(0.9 / (2 * 0.1), 9) == 4.5
        rho = value(DIS, {}, "utilisation")
        assert round(rho / (2 * (1 - rho)), 2) == 0.77


class TestOffload:
    def test_pcie_reload(self) -> None:
        """One PCIe Gen5 x16 link, 64 GB/s (512 Gb/s): 21 ms against 152 ms; break-even 1.34 GB / 152 ms = 8.85 GB/s."""
        reload = value(DIS, {"nics": 1, "nic_gbps": 512}, "transfer_time")
        assert shown(DIS, {"nics": 1, "nic_gbps": 512}, "transfer_time") == "21 ms"
        assert round(value(DIS, {}, "prefill_time") / reload) == 7
        breakeven = value(DIS, {}, "kv_per_request") / value(DIS, {}, "prefill_time")
        assert f"{breakeven / 1e9:.2f}" == "8.85"


SHAPE = {"attention": "gqa", "layers": 36, "heads": 64, "kv_heads": 8, "head_dim": 64, "prompt": 131072}


class TestAttentionKinds:
    def test_sliding_window(self) -> None:
        assert shown(DIS, SHAPE, "kv_per_request") == "9.66 GB"
        assert shown(DIS, {**SHAPE, "window": 128, "windowed_layers": 18}, "kv_per_request") == "4.84 GB"

    def test_sparse_reads(self) -> None:
        """DSA at 131,072 tokens, per layer and sequence: 131,072 x 132 + 2,048 x 1,152 = 19.7 MB against 151 MB."""
        dense, sparse = 131072 * 1152, 131072 * (128 + 4) + 2048 * 1152
        assert (round(dense / 1e6), round(sparse / 1e6, 1), round(dense / sparse, 1)) == (151, 19.7, 7.7)
        assert (512 + 64) * 2 == 1152

    def test_mla_against_mha(self) -> None:
        """70.3 kB against 2 x 128 x 128 x 61 x 2 = 4.0 MB."""
        assert round(2 * 128 * 128 * 61 * 2 / 1e6, 1) == 4.0


MTP = {"draft_tokens": 1, "acceptance": 0.85, "draft_cost": 0.02}


class TestDrafts:
    def test_mtp(self) -> None:
        assert shown(SPEC, MTP, "tokens_per_step") == "1.85"
        assert shown(SPEC, MTP, "speedup") == "1.81 ×"
        assert shown(SPEC, {**MTP, "acceptance": 0.9}, "speedup") == "1.86 ×"
        assert shown(SPEC, {**MTP, "verify_cost": 2}, "speedup") == "0.916 ×"

    def test_verification_doubles_the_exchange(self) -> None:
        assert shown(EP, {"batch": 256}, "exchange_time") == "48.8 ms"
        assert 1.8 < value(EP, {"batch": 256}, "exchange_time") / value(EP, {}, "compute_time") < 1.9  # nearly twice
