"""The shared decode-step model (calculators/decode_step.py) worked by hand: a dense model gives the dense step of
before, DeepSeek-V3 on eight H200s reads what one token touches at batch 1 and every expert at batch 256, each kind
of attention has its FLOPs per byte, and the bill prices input tokens apart from output tokens.

Sources: DeepSeek-AI, "DeepSeek-V3 Technical Report", 2024, arXiv:2412.19437, section 4.2 "Hyper-Parameters": 61
layers, hidden 7,168; MLA with 128 heads of 128, d_c = 512, d_h^R = 64; every FFN but the first three is MoE, with 1
shared and 256 routed experts of intermediate size 2,048, 8 routed experts per token; 671 B parameters, 37 B active.
H200 SXM from the chip database: 4.8 TB/s, 1,979 TFLOP/s dense FP8, 141 GB. Llama 3 70B from Meta's config.json.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from typing import Any

import pytest

from calckit.book import calculator as get
from calckit.errors import InputError
from calculators.decode_step import Transformer, decode_of
from calculators.latency_throughput import decode_at

SERVING, LT, INFERENCE, COMPARE = get("serving"), get("latency-throughput"), get("inference"), get("compare")

V3 = {
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
    "head_dim": 128,
    "latent": 512,
    "rope_dim": 64,
    "kv_bytes": "2",
    "context": 4096,
}
BANDWIDTH, PEAK = 8 * 4.8e12, 8 * 1979e12
V3_CACHE = (512 + 64) * 61 * 2 * 4096  # bytes per sequence: 70,272 per token


class TestDeepSeekV3:
    def test_routed_share_matches_the_architecture(self) -> None:
        """(P - A) / (1 - k/E) = 634 / (31/32) = 654.5 B routed parameters; the report's shapes give 58 MoE layers x
        256 experts x 3 matrices x 7,168 x 2,048 = 653.9 B. The dense share left, 16.5 B, is attention, the shared
        experts, the three dense layers and the embeddings."""
        model = decode_of(SERVING.check(V3)[0], chips=8).model
        assert model.routed == pytest.approx(634e9 * 32 / 31)
        assert model.routed == pytest.approx(58 * 256 * 3 * 7168 * 2048, rel=0.002)
        assert model.dense == pytest.approx(16.5e9, rel=0.01)

    def test_batch_1_reads_what_one_token_touches(self) -> None:
        """Issue 47: one token touches about 37 GB in FP8, 37e9 / 38.4e12 = 0.964 ms (the calculators of before read
        all 671 GB, 17.5 ms). Attention reads 70,272 B x 4,096 = 288 MB of BF16 cache, 7.5 us."""
        values = SERVING.run({**V3, "batch": 1}).values
        assert values["weights_read"] == pytest.approx(37e9)
        assert values["matmul_time"] == pytest.approx(0.96e-3, rel=0.15)
        assert values["matmul_time"] == pytest.approx(37e9 / BANDWIDTH)
        assert values["step_time"] == pytest.approx(37e9 / BANDWIDTH + V3_CACHE / BANDWIDTH)
        assert values["experts_read"] == pytest.approx(8 / 256)

    def test_batch_256_reads_every_expert_and_stays_memory_bound(self) -> None:
        """Issue 47: at batch 256, 1 - (1 - 8/256)^256 = 99.97% of the experts are read: about 671 GB, 17.5 ms, while
        the FLOPs, 2 x 37e9 x 256 = 18.9 TFLOP, take 1.2 ms. By kernel: the dense share is just compute-bound
        (2 x 16.5e9 x 256 / 15.83e15 = 0.53 ms against 0.43 ms of reads), the experts read 654.3 GB in 17.04 ms;
        attention reads 256 x 288 MB = 73.7 GB in 1.92 ms (its FLOPs, 242 per byte, take 1.13 ms)."""
        values = SERVING.run({**V3, "batch": 256}).values
        touched = 1 - (1 - 8 / 256) ** 256
        assert values["experts_read"] == pytest.approx(0.9997, abs=1e-4)
        assert values["weights_read"] == pytest.approx(671e9, rel=0.001)
        assert values["matmul_time"] == pytest.approx(17.5e-3, rel=0.15)
        dense, routed = 671e9 - 634e9 * 32 / 31, 634e9 * 32 / 31
        by_hand = max(dense / BANDWIDTH, 2 * dense * 256 / PEAK) + routed * touched / BANDWIDTH
        assert values["matmul_time"] == pytest.approx(by_hand)
        assert values["matmul_time"] == pytest.approx(17.57e-3, abs=0.01e-3)
        assert values["bound"] == "Memory-bound"
        flops_time = 2 * 37e9 * 256 / PEAK
        assert flops_time == pytest.approx(1.2e-3, rel=0.01)
        assert values["attention_time"] == pytest.approx(256 * V3_CACHE / BANDWIDTH)
        assert values["step_time"] == pytest.approx(by_hand + 256 * V3_CACHE / BANDWIDTH)

    def test_where_the_step_turns(self) -> None:
        """90% of the experts from batch ln(0.1) / ln(31/32) = 72.5, so 73; the experts' matmuls turn compute-bound
        near ridge x bytes / 2 x E / k = 1,979 / 4.8 / 2 x 32 = 6,597 (by then every expert is read)."""
        values = SERVING.run(V3).values
        assert values["experts_batch"] == 73
        assert 1 - (31 / 32) ** 72 < 0.9 <= 1 - (31 / 32) ** 73
        assert values["compute_bound_batch"] == math.ceil(1979 / 4.8 / 2 * 32) == 6597

    def test_on_a_chip_of_low_ridge_the_experts_turn_before_every_one_is_read(self) -> None:
        """At 4 FLOP per byte (FP8, one byte a weight), 2 (k/E) B / 4 >= 1 - (1 - k/E)^B first holds at B = 52
        (0.8125 >= 0.808; at 51, 0.797 < 0.802): below the 4 / 2 x 32 = 64 at which every expert would be read, so
        the bisection turns on both sides before it lands there."""
        plan = decode_of(SERVING.check(V3)[0], chips=8)
        assert plan.model.bytes_per_param == 1 and plan.model.top_k / plan.model.experts == 1 / 32
        assert [2 * batch / 32 / 4 >= 1 - (31 / 32) ** batch for batch in (51, 52)] == [False, True]
        assert dataclasses.replace(plan, peak=4 * plan.bandwidth).compute_bound_batch() == 52

    def test_the_latency_calculator_agrees(self) -> None:
        for batch in (1, 256):
            lt = LT.run({**V3, "batch": batch, "chips": 8}).values
            assert lt["step_time"] == pytest.approx(SERVING.run({**V3, "batch": batch}).values["step_time"])

    def test_inference_on_one_chip_and_compare_at_batch_1(self) -> None:
        """One H200 reads 37 GB in 7.71 ms at batch 1; the chip comparison ranks by those reads, not by 671 GB."""
        one = {key: value for key, value in V3.items() if key != "chips"}
        assert INFERENCE.run({**one, "batch": 1}).values["decode_time"] == pytest.approx(
            37e9 / 4.8e12 + V3_CACHE / 4.8e12
        )
        table = COMPARE.run(
            {"chips": ["h200-sxm", "mi300x"], "params_b": 671, "active_b": 37, "experts": 256, "top_k": 8}
        ).table
        assert table is not None and table.rows[0][-1] == f"{4.8e12 / 74e9:.3g} token/s (does not fit)"


class TestDenseIsUnchanged:
    """A dense model (experts = 1, whatever active_b says) gives the step of before: these are the formulas of
    calculators/serving.py and latency_throughput.py at commit 9054da2, copied."""

    @staticmethod
    def before(inputs: dict[str, Any], chips: float) -> tuple[float, float, int]:
        params = inputs["params_b"] * 1e9
        weights = params * float(inputs["bytes_per_param"])
        kv = 2 * inputs["layers"] * inputs["kv_heads"] * inputs["head_dim"] * float(inputs["kv_bytes"])
        bandwidth, peak = chips * inputs["bandwidth_tbs"] * 1e12, chips * inputs["peak_tflops"] * 1e12
        batch, context, prompt = inputs["batch"], inputs["context"], inputs["prompt"]
        layers, hidden = inputs["layers"], inputs["hidden"]
        attention = max(batch * kv * context / bandwidth, batch * 4 * layers * context * hidden / peak)
        step = attention + max(weights / bandwidth, batch * 2 * params / peak)
        prefill = (2 * params * prompt + 2 * layers * prompt**2 * hidden) / peak
        return step, prefill, math.ceil(peak * weights / (2 * params * bandwidth))

    @pytest.mark.parametrize(
        ("params_b", "layers", "hidden", "kv_heads", "bytes_per_param", "kv_bytes"),
        [(70, 80, 8192, 8, "2", "2"), (8.03, 32, 4096, 8, "1", "2"), (405, 126, 16384, 16, "0.5625", "1")],
    )
    def test_against_the_formulas_of_before(
        self, params_b: float, layers: int, hidden: int, kv_heads: int, bytes_per_param: str, kv_bytes: str
    ) -> None:
        for chips, batch, context, active in itertools.product((1, 8), (1, 64, 1000), (1, 4096), (params_b, 1.0)):
            inputs = {
                "chip": "custom",
                "peak_tflops": 989.4,
                "bandwidth_tbs": 3.35,
                "memory_gb": 80,
                "params_b": params_b,
                "active_b": active,  # ignored: one expert is dense
                "layers": layers,
                "hidden": hidden,
                "kv_heads": kv_heads,
                "head_dim": 128,
                "bytes_per_param": bytes_per_param,
                "kv_bytes": kv_bytes,
                "batch": batch,
                "context": context,
                "prompt": 2048,
                "chips": chips,
            }
            step, prefill, turn = self.before(inputs, chips)
            served = SERVING.run(inputs).values
            assert served["step_time"] == pytest.approx(step, rel=1e-12)
            assert served["prefill_time"] == pytest.approx(prefill, rel=1e-12)
            assert served["compute_bound_batch"] == turn
            latency = LT.run(inputs).values
            assert latency["step_time"] == pytest.approx(step, rel=1e-12)
            assert latency["critical_batch"] == turn
            one = {key: value for key, value in inputs.items() if key != "chips"}
            assert INFERENCE.run(one).values["decode_time"] == pytest.approx(self.before(inputs, 1)[0], rel=1e-12)

    def test_every_expert_active_is_dense(self) -> None:
        """Active = total with experts > 1 reads and computes exactly as the dense model does."""
        dense = SERVING.run({"batch": 100}).values
        all_active = SERVING.run({"batch": 100, "experts": 8, "top_k": 2, "active_b": 70}).values
        assert all_active["step_time"] == dense["step_time"]


class TestAttentionKinds:
    """FLOPs per byte of cache at decode, per cached token and layer."""

    @staticmethod
    def intensity(**inputs: Any) -> float:
        value = LT.run(inputs).values["attention_intensity"]
        assert isinstance(value, float)
        return value

    def test_gqa_mha_mqa(self) -> None:
        """Llama 3 70B (64 query heads of 128, 8 KV heads), 16-bit cache: 4 x 64 x 128 = 32,768 FLOPs over
        2 x 8 x 128 x 2 = 4,096 bytes, 8; MHA over 2 x 64 x 128 x 2 bytes, 1; MQA over 2 x 128 x 2, 64
        (2 x heads / bytes per value)."""
        assert self.intensity() == 8
        assert self.intensity(attention="mha") == 1
        assert self.intensity(attention="mqa") == 64
        assert self.intensity(attention="mqa", kv_bytes="1") == 128

    def test_absorbed_mla(self) -> None:
        """128 heads, latent 512, rope 64, 16-bit cache: 2 x 128 x 576 + 2 x 128 x 512 = 278,528 FLOPs over
        576 x 2 = 1,152 bytes: 241.8 FLOP/byte, near an H100's ridge of 295 (DeepSeek-V2, section 2.1.2)."""
        assert self.intensity(attention="mla", heads=128) == pytest.approx(278_528 / 1_152)
        assert self.intensity(attention="mla", heads=128) == pytest.approx(241.8, abs=0.05)

    def test_mla_decode_attention_turns_compute_bound_on_an_h100_in_fp8(self) -> None:
        """At 1 byte per cached value MLA does 483.6 FLOP per byte, past the H100's BF16 ridge of 295: attention's
        FLOPs then set its time, 278,528 x 61 layers x 4,096 tokens / 989.4 TFLOP/s = 70.3 us per sequence."""
        inputs = {"chips": 1, "attention": "mla", "heads": 128, "layers": 61, "kv_bytes": "1", "batch": 1}
        plan = decode_at(LT.check(inputs)[0])
        assert plan.attention_time(1) == pytest.approx(278_528 * 61 * 4096 / 989.4e12)
        assert plan.attention_time(1) > plan.kv_per_sequence / plan.bandwidth

    def test_kv_bytes_come_from_the_kv_cache_calculator(self) -> None:
        kv = get("kv-cache")
        for kind in ("mha", "gqa", "mqa", "mla"):
            ours = INFERENCE.run({"attention": kind, "layers": 80, "hidden": 8192, "heads": 64}).values
            theirs = kv.run({"attention": kind, "layers": 80, "heads": 64}).values
            assert ours["kv_per_token"] == theirs["per_token"], kind


class TestBill:
    def test_prefill_priced_per_input_token(self) -> None:
        """Issue 47: 8 H100s at 4.916 USD per GPU-hour, 4,096-token prompts: a prefill takes
        (2 x 70e9 x 4,096 + 2 x 80 x 4,096^2 x 8,192) / 7.915e15 = 75.2 ms, 0.000821 USD. Per million input tokens
        that is 0.20 USD; spread over 512 output tokens it would be 1.61 USD per million (the issue's "about 1.60"),
        more than the 0.74 USD the decode costs."""
        values = LT.run({}).values
        prefill = (2 * 70e9 * 4096 + 2 * 80 * 4096**2 * 8192) / (8 * 989.4e12)
        dollars = 8 * 4.916 / 3600 * prefill
        assert values["cost_per_million_input"] == pytest.approx(dollars / 4096 * 1e6)
        assert f"{float(values['cost_per_million_input']):.2f}" == "0.20"
        assert f"{dollars / 512 * 1e6:.2f}" == "1.61"
        assert f"{float(values['cost_per_million_output']):.2f}" == "0.74"
        assert values["energy_per_million_input"] == pytest.approx(8 * 700 * prefill / 4096 * 1e6)

    def test_serving_prices_both(self) -> None:
        values = SERVING.run({"chip": "h200-sxm", "chips": 4}).values
        prefill = (2 * 70e9 * 4096 + 2 * 80 * 4096**2 * 8192) / (4 * 989e12)
        assert values["cost_per_million_input"] == pytest.approx(4 * 5.408 / 3600 * prefill / 4096 * 1e6)
        assert values["energy_per_million_input"] == pytest.approx(4 * 700 * prefill / 4096 * 1e6 / 3.6e6)


class TestChunkedPrefill:
    """A chunk of prefill mixed into a decode step adds its tokens to the weight matmuls' batch: free while batch +
    chunk stays under the critical batch of 296, and no saving once the decode batch alone is there. The chunk's own
    causal attention (a first chunk's, 2 x 80 x 512^2 x 8,192 FLOPs) is added either way."""

    @staticmethod
    def mixed_and_apart(batch: int, chunk: int) -> tuple[float, float]:
        plan = decode_at(LT.check({})[0])
        own_attention = (plan.model.prefill_flops(chunk) - 2 * plan.model.active * chunk) / plan.peak
        mixed = plan.attention_time(batch) + plan.weight_time(batch + chunk) + own_attention
        return mixed, plan.step(batch) + plan.prefill(chunk)

    def test_at_the_target_batch_it_saves_nothing(self) -> None:
        """Batch 295 and a 512-token chunk: 14.8 ms of attention + 2 x 70e9 x 807 / 7.915e15 = 14.3 ms of matmuls,
        29.1 ms; apart, 20.0 + 9.1 ms, 29.1 ms (the issue's 29.0 leaves out the chunk's own attention)."""
        mixed, apart = self.mixed_and_apart(295, 512)
        assert f"{mixed * 1e3:.1f}" == f"{apart * 1e3:.1f}" == "29.1"

    def test_under_the_critical_batch_it_rides_free(self) -> None:
        """Batch 64 and a chunk of 295 - 64 = 231: the matmuls stay memory-bound, so the chunk adds only its own
        attention; apart it would take 4.1 ms more. One token more and they turn compute-bound."""
        mixed, apart = self.mixed_and_apart(64, 231)
        plan = decode_at(LT.check({})[0])
        assert plan.weight_time(64 + 231) == plan.weight_time(64) < plan.weight_time(64 + 232)
        assert mixed < LT.run({}).values["step_time"] + 0.1e-3  # type: ignore[operator]
        assert f"{(apart - mixed) * 1e3:.1f}" == "4.1"


class TestBadModels:
    def test_too_few_active_parameters(self) -> None:
        """8 of 256 experts is 1/32 of the routed parameters: 671 B can have no fewer than 21 B active."""
        with pytest.raises(InputError) as caught:
            SERVING.run({**V3, "active_b": 10})
        assert caught.value.field == "active_b"

    def test_more_experts_per_token_than_experts(self) -> None:
        with pytest.raises(InputError) as caught:
            SERVING.run({**V3, "top_k": 300})
        assert caught.value.field == "top_k"

    def test_a_dense_model_ignores_active(self) -> None:
        assert SERVING.run({"active_b": 1}).values == SERVING.run({}).values


def test_transformer_of_mla_uses_its_heads() -> None:
    """DeepSeek-V3's 128 query heads are not hidden / head size (7,168 / 128 = 56)."""
    model: Transformer = decode_of(SERVING.check(V3)[0]).model
    assert model.heads == 128 and model.attention_flops_per_token == 278_528 * 61
