"""The latency-throughput calculator against hand-worked cases: Llama 3 70B (Meta's config.json) in BF16 on 8 H100
SXM (chip database: 989.4 TFLOP/s dense BF16, 3.35 TB/s, 80 GB, 700 W, AWS Capacity Block 4.916 USD per GPU-hour)."""

from __future__ import annotations

import math

import pytest

from calckit.book import calculator as get

LT = get("latency-throughput")
KV_SEQ = 327_680 * 4096  # bytes of cache per sequence at 4,096 tokens


def test_batch_64_by_hand() -> None:
    """Weights: 140e9 / (8 x 3.35e12) = 5.224 ms. Caches: 64 x 1.342e9 / 26.8e12 = 3.205 ms. Sum 8.429 ms."""
    values = LT.run({"batch": 64}).values
    weights, caches = 140e9 / 26.8e12, 64 * KV_SEQ / 26.8e12
    assert values["step_time"] == pytest.approx(weights + caches)
    assert values["per_user"] == pytest.approx(1 / (weights + caches))
    assert values["total"] == pytest.approx(64 / (weights + caches))
    assert values["max_batch"] == (640e9 - 140e9) // KV_SEQ == 372
    # The smallest whole batch whose weight FLOPs take as long as the weights' reads: 989.4 / 3.35 = 295.3, so 296
    # (at 295 the FLOPs take 5.218 ms against 5.224 ms of reads).
    assert values["critical_batch"] == math.ceil(989.4 / 3.35) == 296
    assert 2 * 70e9 * 295 / 7.9152e15 < 140e9 / 26.8e12 <= 2 * 70e9 * 296 / 7.9152e15


def test_target_picks_the_largest_batch_that_meets_it() -> None:
    """At 50 tokens/s (20 ms) the step may take 20 ms: 5.224 ms + B x 0.05008 ms <= 20 ms gives B = 295."""
    values = LT.run({}).values
    per_sequence = KV_SEQ / 26.8e12
    expected = int((0.02 - 140e9 / 26.8e12) / per_sequence)
    assert values["target_batch"] == expected == 295
    step = 140e9 / 26.8e12 + expected * per_sequence
    assert values["target_per_user"] >= 50
    # 8 chips x 4.916 USD/h x step / 3600 / batch x 1e6; 8 x 700 W x step / batch x 1e6.
    assert values["cost_per_million_output"] == pytest.approx(8 * 4.916 / 3600 * step / expected * 1e6)
    assert values["energy_per_million_output"] == pytest.approx(8 * 700 * step / expected * 1e6)


def test_unreachable_target_says_why() -> None:
    result = LT.run({"target_rate": 1000})
    assert result.values["target_batch"] == "—"
    assert "slower" in result.notes["target_batch"]
    result = LT.run({"chips": 1})
    assert result.values["target_batch"] == "—"
    assert "do not fit" in result.notes["target_batch"]
