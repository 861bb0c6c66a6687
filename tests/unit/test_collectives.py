"""The collective calculator against hand-worked cases.

Sources: the alpha-beta costs of ring algorithms from Thakur, Rabenseifner and Gropp, "Optimization of Collective
Communication Operations in MPICH", IJHPCA 2005 (all-gather (p - 1) a + (p - 1)/p n b; all-reduce twice that);
the ICI cases from jax-ml/scaling-book, "Sharded Matrices and How to Multiply Them" (AllGather = V / W_bidirectional
per axis, about 1 us per hop, AllToAll a quarter of an AllGather of the whole array on a bidirectional ring).
"""

from __future__ import annotations

import pytest

from calckit.book import calculator as get
from calculators.collectives import collective_cost, torus_shape

COLLECTIVE = get("collective")


def test_switched_all_reduce_by_hand() -> None:
    """8 H100s on NVSwitch, 64 MB: 2 x 7/8 x 64e6 / 450e9 = 248.9 us of bandwidth, 2 x 7 x 0.6 = 8.4 us of latency."""
    values = COLLECTIVE.run({}).values
    assert values["bandwidth_time"] == pytest.approx(248.89e-6, rel=1e-4)
    assert values["latency_time"] == pytest.approx(8.4e-6)
    assert values["time"] == pytest.approx(257.29e-6, rel=1e-4)
    # nccl-tests' bus bandwidth: 64e6 / 257.29e-6 x 2 x 7/8 = 435 GB/s, just under the 450 nominal.
    assert values["busbw"] == pytest.approx(435.3e9, rel=1e-3)
    assert values["crossover"] == pytest.approx(2.16e6, rel=1e-3)
    assert values["bound"] == "Bandwidth-bound"


def test_small_message_is_latency_bound() -> None:
    values = COLLECTIVE.run({"size_mb": 0.001}).values
    assert values["bound"] == "Latency-bound"
    assert values["time"] == pytest.approx(8.4e-6 + 2 * 7 / 8 * 1e3 / 450e9)


def test_scaling_book_two_axis_all_gather() -> None:
    """Scaling book, question 2: a 4 x 4 torus of TPU v4p (45 GB/s one way per link), gathering 2 x 1024 x 4096
    bytes over both axes: about 46 us (V / (2 W_bidi)); ours keeps the (N - 1)/N factor, 15/16 of it, plus 2 + 2 hops
    of 1 us."""
    values = COLLECTIVE.run(
        {"op": "all-gather", "topology": "torus-2d", "chips": 16, "link_gbs": 45, "latency_us": 1, "size_mb": 8.388608}
    ).values
    assert values["bandwidth_time"] == pytest.approx(15 / 16 * 8_388_608 / 180e9)
    assert values["latency_time"] == pytest.approx(4e-6)
    assert values["shape"] == "4 × 4"


def test_scaling_book_latency_bound_gather() -> None:
    """Scaling book, question 3: 256 bytes gathered along an axis of 4 with wraparound: two hops, about 2 us."""
    cost = collective_cost("all-gather", "ring", 256, 4, 45e9, 1e-6)
    assert cost.latency_time == pytest.approx(2e-6)
    assert cost.bandwidth_time < 1e-8


def test_ring_all_to_all_is_a_quarter_of_the_whole_gather() -> None:
    """8 chips of 64 MB each: min(j, 8 - j) sums to 16, so 8e6 x 16 / (2 x 100e9) = 640 us; gathering the whole
    512 MB array takes 512e6 / 200e9 = 2.56 ms, four times as long (scaling book's factor of 1/4)."""
    values = COLLECTIVE.run({"op": "all-to-all", "topology": "ring", "link_gbs": 100, "latency_us": 1}).values
    assert values["bandwidth_time"] == pytest.approx(640e-6)
    assert values["latency_time"] == pytest.approx(4e-6)
    gather = collective_cost("all-gather", "ring", 512e6, 8, 100e9, 0)
    assert gather.bandwidth_time / values["bandwidth_time"] == pytest.approx(4 * 7 / 8)


def test_two_level_all_reduce() -> None:
    """64 GPUs in 8 nodes: across nodes 7/8 x 64e6 / 8 over 50 GB/s = 140 us, within 7/8 x 64e6 over 450 GB/s =
    124.4 us, pipelined so the slower phase sets the pace (scaling book, "How to Think About GPUs"), doubled for the
    all-reduce: 280 us; latency 2 x (7 x 2.7 + 7 x 0.6) = 46.2 us."""
    values = COLLECTIVE.run({"topology": "two-level", "chips": 64}).values
    assert values["bandwidth_time"] == pytest.approx(280e-6, rel=1e-9)
    assert values["latency_time"] == pytest.approx(46.2e-6)
    assert values["shape"] == "8 nodes of 8"


def test_three_axes_divide_the_bandwidth_term() -> None:
    one = collective_cost("all-gather", "ring", 1e9, 64, 90e9, 0).bandwidth_time
    three = collective_cost("all-gather", "torus-3d", 1e9, 64, 90e9, 0).bandwidth_time
    assert one / three == pytest.approx(3)


def test_all_reduce_is_twice_the_gather() -> None:
    for topology in ("ring", "torus-2d", "torus-3d", "switched", "two-level"):
        gather = collective_cost("all-gather", topology, 1e8, 32, 100e9, 1e-6)
        reduce = collective_cost("all-reduce", topology, 1e8, 32, 100e9, 1e-6)
        assert reduce.time == pytest.approx(2 * gather.time)


def test_efficiency_scales_the_bandwidth_term_only() -> None:
    full = COLLECTIVE.run({}).values
    real = COLLECTIVE.run({"efficiency": 0.8}).values
    assert real["bandwidth_time"] == pytest.approx(full["bandwidth_time"] / 0.8)
    assert real["latency_time"] == full["latency_time"]


@pytest.mark.parametrize(
    ("chips", "axes", "shape"), [(64, 3, (4, 4, 4)), (32, 2, (8, 4)), (7, 2, (7, 1)), (256, 2, (16, 16))]
)
def test_torus_shapes(chips: int, axes: int, shape: tuple[int, ...]) -> None:
    assert torus_shape(chips, axes) == shape


class TestTree:
    """NCCL's tree all-reduce, from its cost model (`src/graph/tuning.cc`): latency
    2 ((nRanks / nNodes - 1) intraLat + log2i(nNodes) interLat), bus bandwidth 0.92 of the ring's."""

    def test_1024_gpus_in_128_nodes(self) -> None:
        """2 x (7 x 0.6 + 7 x 2.7) = 46.2 us against the ring's 2 x (7 x 0.6 + 127 x 2.7) = 694.2 us; the bandwidth
        term the ring's 317.9 us over 0.92."""
        two = {"topology": "two-level", "chips": 1024}
        ring, tree = COLLECTIVE.run(two).values, COLLECTIVE.run({**two, "algorithm": "tree"}).values
        assert ring["latency_time"] == pytest.approx(2 * (7 * 0.6e-6 + 127 * 2.7e-6))
        assert tree["latency_time"] == pytest.approx(2 * (7 * 0.6e-6 + 7 * 2.7e-6))
        assert tree["bandwidth_time"] == pytest.approx(ring["bandwidth_time"] / 0.92)
        assert COLLECTIVE.output("time").text(tree["time"]) == "391 µs"

    def test_log2_of_a_node_count_not_a_power_of_two(self) -> None:
        """12 nodes: log2i(12) = 3 levels, as NCCL's integer log."""
        cost = collective_cost("all-reduce", "two-level", 1e6, 96, 450e9, 0.6e-6, algorithm="tree")
        assert cost.latency_time == pytest.approx(2 * (7 * 0.6e-6 + 3 * 2.7e-6))

    def test_one_switch_gains_nothing_and_other_ops_keep_the_ring(self) -> None:
        """In one node NCCL's tree is a chain: 2 x 7 steps, as the ring. Trees are for all-reduce only; a torus keeps
        its rings."""
        assert COLLECTIVE.run({"algorithm": "tree"}).values["latency_time"] == pytest.approx(8.4e-6)
        gather = {"op": "all-gather", "topology": "two-level", "chips": 1024}
        assert COLLECTIVE.run({**gather, "algorithm": "tree"}).values == COLLECTIVE.run(gather).values
        cube = {"topology": "torus-3d", "chips": 64}
        assert COLLECTIVE.run({**cube, "algorithm": "tree"}).values == COLLECTIVE.run(cube).values
