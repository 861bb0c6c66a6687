"""Cases worked by hand that neither the issue nor the lessons list, against the calculators: collective costs,
critical batches and speculative speed-ups. The formulas are the primary sources' (Thakur et al. 2005 for the ring
terms; the scaling book for tori and its tensor-parallel bound, here with a three-matrix MLP; Leviathan et al. 2023)."""

from __future__ import annotations

import pytest

from calckit.book import calculator as get
from calculators.chips import get_chip

COLLECTIVE, EXPLORER, SPECULATIVE = get("collective"), get("parallelism"), get("speculative")


def test_two_axis_torus_all_gather_of_a_gigabyte() -> None:
    """4 x 4 torus, 45 GB/s per link each way: 15/16 x 1e9 / (2 axes x 2 directions x 45e9) + 2 + 2 hops of 1 us."""
    inputs = {"op": "all-gather", "topology": "torus-2d", "chips": 16, "link_gbs": 45, "latency_us": 1, "size_mb": 1000}
    assert COLLECTIVE.run(inputs).values["time"] == pytest.approx(15 / 16 * 1e9 / 180e9 + 4e-6)


def test_reduce_scatter_over_four_nodes() -> None:
    """4 nodes of 8, 256 MB: across 3/4 x 256e6 / 8 over 50 GB/s (480 us), within 7/8 x 256e6 over 450 GB/s
    (497.8 us), pipelined so the slower, here NVLink's, sets the pace; 3 + 7 steps."""
    values = COLLECTIVE.run({"op": "reduce-scatter", "topology": "two-level", "chips": 32, "size_mb": 256}).values
    assert values["time"] == pytest.approx(7 / 8 * 256e6 / 450e9 + 3 * 2.7e-6 + 7 * 0.6e-6)


def test_all_to_all_on_a_ring_of_six() -> None:
    """Distances 1, 2, 3, 2, 1 to the other five: 9 shard-hops of 16e6 / 6 bytes, both directions; 3 steps."""
    inputs = {"op": "all-to-all", "topology": "ring", "chips": 6, "link_gbs": 100, "latency_us": 1, "size_mb": 16}
    assert COLLECTIVE.run(inputs).values["time"] == pytest.approx(16e6 / 6 * 9 / 200e9 + 3e-6)


def test_b200_data_parallel_over_a_400g_nic() -> None:
    b200 = get_chip("b200").peak("bf16").value * 1e12
    """Alone on its 400 Gb/s NIC, C / W; with eight-way tensor parallelism in the node, each chip reduces an eighth of
    the gradients over its own NIC, so the bound per chip is eight times lower."""
    alone = {"chip": "b200", "domain": 1, "tp": 1}
    assert EXPLORER.run(alone).values["dp_tokens_per_chip"] == pytest.approx(b200 / 50e9)
    assert EXPLORER.run({"chip": "b200"}).values["dp_tokens_per_chip"] == pytest.approx(b200 / (8 * 50e9))


def test_eight_experts_top_two_quadruple_the_critical_batch() -> None:
    values = EXPLORER.run({"experts": 8, "top_k": 2, "params_b": 47, "active_b": 13}).values
    assert values["expert_critical_batch"] == pytest.approx(989.4 / 3.35 * 4)


def test_tensor_bound_on_one_v5p_axis_matches_the_scaling_book() -> None:
    """The scaling book's Y < F W / C is for a two-matrix MLP: 28,672 / 2,550 = 11.2 on one v5p axis. With three
    matrices (SwiGLU) the MLP's compute is 1.5 times larger, so 16.9; the whole layer, attention included, 16.7."""
    values = EXPLORER.run({"chip": "tpu-v5p", "network": "torus", "link_gbs": 90}).values
    assert values["tp_limit"] == pytest.approx(1 + 3 * 70e9 * 180e9 / (8 * 80 * 8192 * 459e12))
    assert values["tp_limit"] == pytest.approx(1.5 * 28672 * 180e9 / 459e12, rel=0.02)


def test_speculative_seventy_percent_five_drafts() -> None:
    values = SPECULATIVE.run({"acceptance": 0.7, "draft_tokens": 5, "draft_cost": 0.02}).values
    assert values["tokens_per_step"] == pytest.approx((1 - 0.7**6) / 0.3)
    assert values["speedup"] == pytest.approx((1 - 0.7**6) / 0.3 / 1.1)
