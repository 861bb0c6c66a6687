"""Speculative decoding against hand-worked cases of Leviathan, Kalman and Matias, "Fast Inference from
Transformers via Speculative Decoding", ICML 2023: E = (1 - a^(k+1)) / (1 - a) tokens per step (eq. 1) and a
walltime improvement of (1 - a^(k+1)) / ((1 - a)(k c + 1)) (Theorem 3.8)."""

from __future__ import annotations

import pytest

from calckit.book import calculator as get
from calculators.speculative import expected_tokens, speedup

SPECULATIVE = get("speculative")


def test_defaults_by_hand() -> None:
    """a = 0.8, k = 4: (1 - 0.32768) / 0.2 = 3.3616 tokens; at c = 0.05, 3.3616 / 1.2 = 2.80."""
    values = SPECULATIVE.run({}).values
    assert values["tokens_per_step"] == pytest.approx(3.3616)
    assert values["speedup"] == pytest.approx(2.80133, rel=1e-5)
    assert values["wasted"] == pytest.approx(4 - 2.3616)


def test_a_second_case() -> None:
    """a = 0.6, k = 3, c = 0.1: (1 - 0.1296) / 0.4 = 2.176 tokens, 2.176 / 1.3 = 1.674."""
    values = SPECULATIVE.run({"acceptance": 0.6, "draft_tokens": 3, "draft_cost": 0.1}).values
    assert values["tokens_per_step"] == pytest.approx(2.176)
    assert values["speedup"] == pytest.approx(1.67385, rel=1e-5)


def test_limits() -> None:
    assert expected_tokens(1.0, 4) == 5
    assert expected_tokens(0.0, 4) == 1
    assert speedup(0.0, 4, 0.05) == pytest.approx(1 / 1.2)


def test_best_draft_length() -> None:
    """At a = 0.8, c = 0.05 the speed-up peaks at k = 8: 8 gives (1 - 0.8^9)/0.2 / 1.4 = 3.092, 7 and 9 less."""
    values = SPECULATIVE.run({}).values
    assert values["best_draft"] == 8
    assert values["best_speedup"] == pytest.approx((1 - 0.8**9) / 0.2 / 1.4)
    assert speedup(0.8, 7, 0.05) < values["best_speedup"] > speedup(0.8, 9, 0.05)


def test_a_compute_bound_verifier_loses_the_gain() -> None:
    """Verifying k + 1 tokens at k + 1 times a step's cost: 3.3616 / (0.2 + 5) = 0.65, a slow-down."""
    values = SPECULATIVE.run({"verify_cost": 5}).values
    assert values["speedup"] == pytest.approx(3.3616 / 5.2)
    assert "slow-down" in SPECULATIVE.run({"verify_cost": 5}).summary
