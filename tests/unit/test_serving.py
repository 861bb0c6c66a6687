"""The serving calculator against hand-worked deployments of Llama 3 70B (the serving-economics lesson).

Figures: NVIDIA H200 (141 GB, 4.8 TB/s, 989 TFLOP/s dense BF16, 700 W) and AMD MI300X (192 GB, 5.3 TB/s, 1,307.4
TFLOP/s, 750 W), as the chip database records them from NVIDIA's H200 page and AMD's ROCm and product pages; Meta's
Llama 3 70B config.json (80 layers, hidden 8,192, 8 KV heads of 128). KV cache per token: 2 x 80 x 8 x 128 x 2 B =
327,680 B, so 2,684,354,560 B per 8,192-token sequence.
"""

from __future__ import annotations

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


def test_three_h200s() -> None:
    """Step: 311.8 GB / (3 x 4.8 TB/s) = 21.65 ms (the FLOPs need only 3.5 ms): 2,956 tokens/s, 46.2 per sequence.

    Energy: 3 x 700 W x 21.65 ms / 64 tokens = 0.7105 J per token, 1.41 tokens per joule, 0.197 kWh per million.
    Cost at the H200's price in the chip database, 5.408 USD per chip-hour (AWS's Capacity Block rate, $43.26 per
    p5e.48xlarge-hour / 8): 3 x 5.408 x 21.653 ms / 3,600 / 64 x 1e6 = 1.5247 USD per million tokens.
    """
    values = SERVING.run({"chip": "h200-sxm", "chips": 3}).values
    step = (140e9 + 64 * KV_8K) / (3 * 4.8e12)
    assert values["fits"] == "yes"
    assert values["max_batch"] == 105
    assert values["step_time"] == pytest.approx(step)
    assert values["step_time"] == pytest.approx(21.65e-3, rel=1e-3)
    assert values["bound"] == "Memory-bound"
    assert values["throughput"] == pytest.approx(64 / step)
    assert values["per_sequence"] == pytest.approx(46.18, abs=0.01)
    assert values["tokens_per_joule"] == pytest.approx(64 / (3 * 700 * step))
    assert values["energy_per_million"] == pytest.approx(0.1974, abs=1e-4)
    assert values["cost_per_million"] == pytest.approx(1.5247, abs=1e-4)


def test_two_mi300x_fit_the_same_batch() -> None:
    """2 x 192 GB = 384 GB holds 311.8 GB; (384 - 140) / 2.684 = 90.9. Step 311.8 GB / 10.6 TB/s = 29.4 ms."""
    values = SERVING.run({"chip": "mi300x", "chips": 2}).values
    assert values["fits"] == "yes"
    assert values["max_batch"] == 90
    assert values["step_time"] == pytest.approx((140e9 + 64 * KV_8K) / 10.6e12)
    assert values["throughput"] == pytest.approx(2175.8, abs=0.1)


def test_long_context_decode_never_turns_compute_bound() -> None:
    """At 8,192 tokens each sequence's cache (2.68 GB) costs more read time than its 161 GFLOPs of compute."""
    result = SERVING.run({"chip": "h200-sxm"})
    assert result.values["compute_bound_batch"] == "Never"
    assert result.notes["compute_bound_batch"] == "KV-cache reads grow with the batch as fast as its FLOPs."


def test_short_context_turns_compute_bound() -> None:
    """At 1,024 tokens: ridge 989 / 4.8 = 206.04; cache 335.5 MB per sequence; FLOPs per sequence 140e9 + 4 x 80 x
    1,024 x 8,192 = 142.68e9; B = 206.04 x 140e9 / (142.68e9 - 206.04 x 335.5e6) = 392.2, so from 393 on."""
    values = SERVING.run({"chip": "h200-sxm", "context": 1024, "batch": 400}).values
    assert values["compute_bound_batch"] == 393
    assert values["bound"] == "Compute-bound"


def test_weights_that_do_not_fit_at_all() -> None:
    values = SERVING.run({"chip": "h200-sxm", "chips": 1, "params_b": 405}).values
    assert values["max_batch"] == 0
    assert str(values["fits"]).endswith("the weights alone do not fit")


def test_pue_scales_energy_not_cost() -> None:
    base = SERVING.run({"chip": "h200-sxm", "chips": 3}).values
    building = SERVING.run({"chip": "h200-sxm", "chips": 3, "pue": 1.5}).values
    assert building["energy_per_million"] == pytest.approx(1.5 * base["energy_per_million"])
    assert building["cost_per_million"] == base["cost_per_million"]


def test_chart_stops_being_solid_where_memory_runs_out() -> None:
    chart = SERVING.run({"chip": "h200-sxm", "chips": 2}).chart
    assert chart is not None
    points = chart["layer"][0]["data"]["values"]
    assert {p["fits"] for p in points if p["batch"] <= 52} == {"fits in memory"}
    assert {p["fits"] for p in points if p["batch"] > 52} == {"does not fit"}


def test_serving_lesson_table() -> None:
    """The figures docs/lessons/serving-economics.md prints, recomputed (rounded as the page rounds them)."""
    h200 = SERVING.run({"chip": "h200-sxm", "chips": 3}).values
    mi300x = SERVING.run({"chip": "mi300x", "chips": 2}).values
    assert round(h200["step_time"] * 1e3, 1) == 21.7
    assert round(mi300x["step_time"] * 1e3, 1) == 29.4
    assert (round(h200["throughput"]), round(mi300x["throughput"])) == (2956, 2176)
    assert (round(h200["per_sequence"], 1), round(mi300x["per_sequence"], 1)) == (46.2, 34.0)
    assert (round(h200["energy_per_million"], 2), round(mi300x["energy_per_million"], 2)) == (0.20, 0.19)
    assert (round(h200["tokens_per_joule"], 2), round(mi300x["tokens_per_joule"], 2)) == (1.41, 1.45)
    assert (round(h200["cost_per_million"], 2), round(mi300x["cost_per_million"], 2)) == (1.52, 1.38)


def test_more_chips_do_not_change_energy_per_token_while_memory_bound() -> None:
    two = SERVING.run({"chip": "h200-sxm", "chips": 2, "batch": 32}).values
    four = SERVING.run({"chip": "h200-sxm", "chips": 4, "batch": 32}).values
    assert two["energy_per_million"] == pytest.approx(four["energy_per_million"])
    assert four["per_sequence"] == pytest.approx(2 * two["per_sequence"])


def test_the_price_defaults_to_the_chips_price_in_the_database() -> None:
    """The H200's 5.408 USD fills the field whatever it held: 1.5247 USD per million tokens, as at the default."""
    typed = SERVING.run({"chip": "h200-sxm", "chips": 3, "price_per_hour": 99.0})
    values, _ = SERVING.check({"chip": "h200-sxm", "price_per_hour": 99.0})
    assert values["price_per_hour"] == 5.408
    assert typed.values["cost_per_million"] == pytest.approx(1.5247, abs=1e-4)
    assert "cost_per_million" not in typed.notes


def test_a_chip_without_a_price_keeps_the_field_and_says_so() -> None:
    """The MI300X has no price in the database: the field's 2 USD stays, 2 x 2 x 29.415 ms / 3,600 / 64 x 1e6 =
    0.5107 USD per million tokens, with a note that names the chip."""
    result = SERVING.run({"chip": "mi300x", "chips": 2, "price_per_hour": 2.0})
    assert result.values["cost_per_million"] == pytest.approx(0.5107, abs=1e-4)
    assert result.notes["cost_per_million"] == (
        "No published price for the AMD Instinct MI300X is in the chip database: this uses the price in the field. "
        "Type what you pay."
    )


def test_custom_figures_use_the_typed_price_without_a_note() -> None:
    result = SERVING.run(
        {"peak_tflops": 989, "bandwidth_tbs": 4.8, "memory_gb": 141, "power_w": 700, "price_per_hour": 10.816}
    )
    h200 = SERVING.run({"chip": "h200-sxm"})
    assert result.values["cost_per_million"] == pytest.approx(2 * h200.values["cost_per_million"])
    assert "cost_per_million" not in result.notes
