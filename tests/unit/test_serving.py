"""The serving calculator against hand-worked deployments of Llama 3 70B (the serving-economics lesson).

Figures: NVIDIA H200 (141 GB, 4.8 TB/s, 989 TFLOP/s dense BF16, 700 W) and AMD MI300X (192 GB, 5.3 TB/s, 1,307.4
TFLOP/s, 750 W), as the chip database records them from NVIDIA's H200 page and AMD's ROCm and product pages; Meta's
Llama 3 70B config.json (80 layers, hidden 8,192, 8 KV heads of 128). KV cache per token: 2 x 80 x 8 x 128 x 2 B =
327,680 B, so 2,684,354,560 B per 8,192-token sequence.
"""

from __future__ import annotations

from typing import ClassVar

import pytest

from calckit.book import calculator as get

SERVING = get("serving")
KV_8K = 327_680 * 8192


def test_two_h200s_run_out_of_memory_at_batch_64() -> None:
    """140 GB of weights + 64 x 2.684 GB = 311.8 GB > 2 x 141 GB; (282 - 140) / 2.684 = 52.9, so 52 sequences fit."""
    values = SERVING.run({"chip": "h200-sxm", "chips": 2}).values
    assert values["memory_needed"] == 140e9 + 64 * KV_8K
    assert str(values["fits"]).startswith("no: needs 312 GB of 282 GB; at most 52 sequences fit")
    assert values["max_batch"] == 52


def test_four_h200s() -> None:
    """Tensor parallelism over 4 (64 query heads / 4 = 16, 8 KV heads / 4 = 2, F = 28,672 / 4 = 7,168 per chip).

    Step: both kernels memory-bound, so 311.8 GB / (4 x 4.8 TB/s) = 16.24 ms (attention 171.8 GB / 19.2 TB/s =
    8.95 ms, then the weights 140 GB / 19.2 TB/s = 7.29 ms; their FLOPs need 2 x 70e9 x 64 / 3.956e15 = 2.26 ms):
    3,941 tokens/s, 61.6 per sequence. Energy: 4 x 700 W x 16.24 ms / 64 = 0.7105 J per token, 1.41 tokens per joule,
    0.197 kWh per million. Cost at 5.408 USD per chip-hour (AWS's Capacity Block rate, $43.26 per p5e.48xlarge-hour
    / 8): 4 x 5.408 x 16.24 ms / 3,600 / 64 x 1e6 = 1.5247 USD per million tokens.
    """
    result = SERVING.run({"chip": "h200-sxm", "chips": 4})
    values = result.values
    step = (140e9 + 64 * KV_8K) / (4 * 4.8e12)
    assert values["fits"] == "yes"
    assert values["max_batch"] == 157
    assert values["step_time"] == pytest.approx(step)
    assert values["attention_time"] == pytest.approx(64 * KV_8K / 19.2e12)
    assert values["matmul_time"] == pytest.approx(140e9 / 19.2e12)
    assert values["bound"] == "Memory-bound"
    assert values["throughput"] == pytest.approx(3941.0, abs=0.1)
    assert values["per_sequence"] == pytest.approx(61.58, abs=0.01)
    assert values["tokens_per_joule"] == pytest.approx(64 / (4 * 700 * step))
    assert values["energy_per_million_output"] == pytest.approx(0.1974, abs=1e-4)
    assert values["cost_per_million_output"] == pytest.approx(1.5247, abs=1e-4)
    assert "step_time" not in result.notes


def test_three_h200s_cannot_be_split_by_tensor_parallelism() -> None:
    """Issue 24, item 4: 64 query heads, 8 KV heads (and F = 28,672 = 2^12 x 7) do not divide by 3. vLLM checks
    that the query heads divide by the tensor-parallel size and that the KV heads divide it or are divided by it."""
    result = SERVING.run({"chip": "h200-sxm", "chips": 3})
    note = result.notes["step_time"]
    assert note.startswith("Tensor parallelism over 3 chips does not divide 64 query heads and 8 KV heads")
    assert "(it can over 2, 4, 8, 16, 32, 64)" in note
    assert note in result.summary
    for chips in (1, 2, 4, 8, 16):
        assert "step_time" not in SERVING.run({"chip": "h200-sxm", "chips": chips}).notes


def test_three_h200s_as_a_pipeline() -> None:
    """The serving lesson's pipeline: 80 layers in stages of 27, 27 and 26, the batch of 64 in three microbatches
    (22, 21, 21) kept in flight. The largest stage holds 27/80 of the 70 B weights, 23.625 B parameters (47.25 GB),
    and 27 layers of cache for its microbatch: 22 x 27 x 4,096 B x 8,192 = 19.93 GB; one pass 67.18 GB / 4.8 TB/s =
    14.00 ms. A token passes all three stages: 42.0 ms, 23.8 tokens/s per sequence, 64 / 42.0 ms = 1,524 tokens/s.
    (Memory: 47.25 GB + 64 x 27 x 4,096 x 8,192 B = 105.2 GB of the stage's 141 GB.)"""
    stage = SERVING.run({"chip": "h200-sxm", "chips": 1, "params_b": 70 * 27 / 80, "layers": 27, "batch": 22}).values
    assert stage["step_time"] == pytest.approx((47.25e9 + 22 * 27 * 4096 * 8192) / 4.8e12)
    assert stage["step_time"] == pytest.approx(14.00e-3, abs=0.005e-3)
    token = 3 * stage["step_time"]
    assert 1 / token == pytest.approx(23.8, abs=0.05)
    assert 64 / token == pytest.approx(1524, abs=1)
    whole_batch = SERVING.run({"chip": "h200-sxm", "chips": 1, "params_b": 70 * 27 / 80, "layers": 27, "batch": 64})
    assert whole_batch.values["fits"] == "yes"
    assert whole_batch.values["memory_needed"] == pytest.approx(47.25e9 + 64 * 27 * 4096 * 8192)


def test_two_mi300x_fit_the_same_batch() -> None:
    """2 x 192 GB = 384 GB holds 311.8 GB; (384 - 140) / 2.684 = 90.9. Step 311.8 GB / 10.6 TB/s = 29.4 ms."""
    values = SERVING.run({"chip": "mi300x", "chips": 2}).values
    assert values["fits"] == "yes"
    assert values["max_batch"] == 90
    assert values["step_time"] == pytest.approx((140e9 + 64 * KV_8K) / 10.6e12)
    assert values["throughput"] == pytest.approx(2175.8, abs=0.1)


class TestKvReadsAndWeightMatmulsAreSeparateKernels:
    """Issue 24, item 3: Llama 3 70B on 2 x H200 (989 TFLOP/s and 4.8 TB/s each), 1,024 tokens of context, batch 400.

    Attention reads 400 x 327,680 x 1,024 B = 134.2 GB of cache: 134.2e9 / 9.6e12 = 13.98 ms (its 4 x 80 x 1,024 x
    8,192 x 400 = 1.07e12 FLOPs need 0.54 ms). The weight matmuls read 140 GB (14.58 ms) and do 2 x 70e9 x 400 =
    5.6e13 FLOPs (5.6e13 / 1.978e15 = 28.31 ms): compute-bound. Step 13.98 + 28.31 = 42.29 ms, where one roofline
    for the whole step gave max(274.2 GB / 9.6e12, 5.71e13 / 1.978e15) = 28.9 ms (the book's old figure).
    The weight matmuls turn compute-bound at ridge x 2 bytes / 2 FLOPs = 989 / 4.8 = 206.04, so from batch 207;
    counting the activations each matmul also reads and writes, as the matmul calculator does for one MLP matrix,
    moves it to 213 (212.9 for an 8,192 x 28,672 matrix on an H200).
    """

    CASE: ClassVar[dict[str, object]] = {"chip": "h200-sxm", "chips": 2, "context": 1024, "batch": 400}

    def test_step(self) -> None:
        values = SERVING.run(self.CASE).values
        kv, weights = 400 * 327_680 * 1024, 140e9
        assert values["attention_time"] == pytest.approx(kv / 9.6e12)
        assert values["matmul_time"] == pytest.approx(2 * 70e9 * 400 / 1.978e15)
        assert values["step_time"] == pytest.approx(42.29e-3, abs=0.005e-3)
        assert values["bound"] == "Weight matmuls compute-bound"
        one_roofline = max((weights + kv) / 9.6e12, (2 * 70e9 + 4 * 80 * 1024 * 8192) * 400 / 1.978e15)
        assert one_roofline == pytest.approx(28.9e-3, abs=0.05e-3)

    def test_compute_bound_batch(self) -> None:
        assert SERVING.run(self.CASE).values["compute_bound_batch"] == 207
        matrix = get("matmul").run({"chip": "h200-sxm", "d_model": 8192, "d_ff": 28672}).values
        assert round(matrix["critical_batch"]) == 213

    def test_the_batch_does_not_depend_on_the_context(self) -> None:
        """Attention is memory-bound at any batch (8 FLOP per byte of cache for Llama 3 70B: 4 x 8,192 over 2 x 8 x
        128 x 2 bytes per position and layer), so the weight matmuls alone decide where compute takes over."""
        batches = {SERVING.run({**self.CASE, "context": c}).values["compute_bound_batch"] for c in (1, 1024, 8192)}
        assert batches == {207}
        long = SERVING.run({"chip": "h200-sxm", "chips": 2, "batch": 400, "context": 8192}).values
        assert long["attention_time"] == pytest.approx(400 * KV_8K / 9.6e12)


def test_weights_that_do_not_fit_at_all() -> None:
    values = SERVING.run({"chip": "h200-sxm", "chips": 1, "params_b": 405}).values
    assert values["max_batch"] == 0
    assert str(values["fits"]).endswith("the weights alone do not fit")


def test_pue_scales_energy_not_cost() -> None:
    base = SERVING.run({"chip": "h200-sxm", "chips": 3}).values
    building = SERVING.run({"chip": "h200-sxm", "chips": 3, "pue": 1.5}).values
    assert building["energy_per_million_output"] == pytest.approx(1.5 * base["energy_per_million_output"])
    assert building["cost_per_million_output"] == base["cost_per_million_output"]


def test_chart_stops_being_solid_where_memory_runs_out() -> None:
    chart = SERVING.run({"chip": "h200-sxm", "chips": 2}).chart
    assert chart is not None
    points = chart["layer"][0]["data"]["values"]
    assert {p["fits"] for p in points if p["batch"] <= 52} == {"fits in memory"}
    assert {p["fits"] for p in points if p["batch"] > 52} == {"does not fit"}


def test_serving_lesson_table() -> None:
    """The figures docs/lessons/serving-economics.md prints, recomputed (rounded as the page rounds them)."""
    h200 = SERVING.run({"chip": "h200-sxm", "chips": 4}).values
    mi300x = SERVING.run({"chip": "mi300x", "chips": 2}).values
    assert round(h200["step_time"] * 1e3, 1) == 16.2
    assert round(mi300x["step_time"] * 1e3, 1) == 29.4
    assert (round(h200["throughput"]), round(mi300x["throughput"])) == (3941, 2176)
    assert (round(h200["per_sequence"], 1), round(mi300x["per_sequence"], 1)) == (61.6, 34.0)
    assert (round(h200["energy_per_million_output"], 2), round(mi300x["energy_per_million_output"], 2)) == (0.20, 0.19)
    assert (round(h200["tokens_per_joule"], 2), round(mi300x["tokens_per_joule"], 2)) == (1.41, 1.45)
    assert (round(h200["cost_per_million_output"], 2), round(mi300x["cost_per_million_output"], 2)) == (1.52, 1.38)


def test_more_chips_do_not_change_energy_per_token_while_memory_bound() -> None:
    two = SERVING.run({"chip": "h200-sxm", "chips": 2, "batch": 32}).values
    four = SERVING.run({"chip": "h200-sxm", "chips": 4, "batch": 32}).values
    assert two["energy_per_million_output"] == pytest.approx(four["energy_per_million_output"])
    assert four["per_sequence"] == pytest.approx(2 * two["per_sequence"])


def test_the_price_defaults_to_the_chips_price_in_the_database() -> None:
    """The H200's 5.408 USD fills the field whatever it held: 1.5247 USD per million tokens, as at the default."""
    typed = SERVING.run({"chip": "h200-sxm", "chips": 3, "price_per_hour": 99.0})
    values, _ = SERVING.check({"chip": "h200-sxm", "price_per_hour": 99.0})
    assert values["price_per_hour"] == 5.408
    assert typed.values["cost_per_million_output"] == pytest.approx(1.5247, abs=1e-4)
    assert "cost_per_million_output" not in typed.notes


def test_a_chip_without_a_price_keeps_the_field_and_says_so() -> None:
    """The MI300X has no price in the database: the field's 2 USD stays, 2 x 2 x 29.415 ms / 3,600 / 64 x 1e6 =
    0.5107 USD per million tokens, with a note that names the chip."""
    result = SERVING.run({"chip": "mi300x", "chips": 2, "price_per_hour": 2.0})
    assert result.values["cost_per_million_output"] == pytest.approx(0.5107, abs=1e-4)
    assert result.notes["cost_per_million_output"] == (
        "No published price for the AMD Instinct MI300X is in the chip database: this uses the price in the field. "
        "Type what you pay."
    )


def test_custom_figures_use_the_typed_price_without_a_note() -> None:
    result = SERVING.run(
        {"peak_tflops": 989, "bandwidth_tbs": 4.8, "memory_gb": 141, "power_w": 700, "price_per_hour": 10.816}
    )
    h200 = SERVING.run({"chip": "h200-sxm"})
    assert result.values["cost_per_million_output"] == pytest.approx(2 * h200.values["cost_per_million_output"])
    assert "cost_per_million_output" not in result.notes
