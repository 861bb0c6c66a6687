"""The all-reduce calculator against hand-worked tensor-parallel MLP blocks.

Figures: NVIDIA Hopper whitepaper, 989.4 TFLOP/s dense BF16 (H100 SXM5); NVIDIA H100 data sheet, NVLink 900 GB/s
per GPU (both directions, so 450 GB/s sent); Meta's Llama 3 70B config.json, hidden 8,192, intermediate 28,672,
SwiGLU MLP (gate, up and down projections: three D x F matrices). Megatron-LM (Shoeybi et al., 2019): one all-reduce
per MLP block in the forward pass. A ring all-reduce sends 2 (N - 1) / N of the data from each chip, in 2 (N - 1)
steps (Patarasuk and Yuan, JPDC 2009; NVIDIA, "3x Faster AllReduce with NVSwitch and TensorRT-LLM MultiShot", 2024).
The rule is the scaling book's (Austin et al., "How to Scale Your Model", 2025, "How to Think About GPUs", tensor
parallelism: T_math = 2 * 2 * B D F / (Y C) for a two-matrix MLP against T_comms = 2 * 2 * B D / W, so Y < F W / C),
with the ring's exact (N - 1) / N factor kept and three matrices for SwiGLU.
"""

from __future__ import annotations

import math

import pytest

from calckit.book import calculator as get

ALLREDUCE = get("allreduce")
PEAK, LINK = 989.4e12, 450e9


def test_eight_h100s_llama_70b_mlp_block() -> None:
    """B = 4,096 tokens, N = 8, three matrices.

    Block per chip: 3 x 2 x 4,096 x 8,192 x 28,672 / 8 / 989.4e12 = 729.3 us.
    Sent per chip: 2 x 7/8 x 4,096 x 8,192 x 2 B = 117,440,512 B; at 450 GB/s, 261.0 us.
    Ratio 7 x 2 x 989.4e12 / (3 x 28,672 x 450e9) = 0.3579, a third of the single matrix's 1.0736.
    """
    values = ALLREDUCE.run({"chip": "h100-sxm"}).values
    assert values["compute_time"] == pytest.approx(3 * 2 * 4096 * 8192 * 28672 / 8 / PEAK, rel=1e-9)
    assert values["compute_time"] == pytest.approx(729.28e-6, rel=1e-4)
    assert values["message_bytes"] == 4096 * 8192 * 2
    assert values["bytes_sent"] == 117_440_512
    assert values["comm_time"] == pytest.approx(260.98e-6, rel=1e-4)
    assert values["ratio"] == pytest.approx(0.35786, rel=1e-4)
    assert values["bound"] == "Compute-bound"
    assert values["block_time"] == values["compute_time"]  # 176 MB of weights per chip take 53 us to read
    assert values["overlapped_time"] == values["compute_time"]
    assert values["serial_time"] == pytest.approx(values["comm_time"] + values["compute_time"])


def test_one_matrix_gives_the_old_ratio_three_times_over() -> None:
    """The model the book used to give: one D x F matrix against the whole all-reduce, 1.0736 (issue 24, item 1)."""
    block = ALLREDUCE.run({"chip": "h100-sxm"}).values["ratio"]
    one_matrix = 7 * 2 * PEAK / (28672 * LINK)
    assert one_matrix == pytest.approx(1.0736, rel=1e-4)
    assert block == pytest.approx(one_matrix / 3)


def test_largest_compute_bound_split() -> None:
    """N <= 1 + 3 F W / (s C) = 1 + 3 x 28,672 x 450e9 / (2 x 989.4e12) = 20.56: up to 20 chips.

    The smallest F for which eight chips stay compute-bound: 7 x 2 x 989.4e12 / (3 x 450e9) = 10,260.4.
    """
    values = ALLREDUCE.run({"chip": "h100-sxm"}).values
    bound = 1 + 3 * 28672 * LINK / (2 * PEAK)
    assert bound == pytest.approx(20.56, abs=0.005)
    assert values["max_chips"] == 20
    assert values["min_d_ff"] == pytest.approx(10_260.4, abs=0.1)
    at_edge = ALLREDUCE.run({"chip": "h100-sxm", "chips": 20}).values
    beyond = ALLREDUCE.run({"chip": "h100-sxm", "chips": 21}).values
    assert at_edge["bound"] == "Compute-bound" and at_edge["ratio"] < 1
    assert beyond["bound"] == "Communication-bound" and beyond["ratio"] > 1


def test_scaling_book_two_matrix_rule() -> None:
    """The scaling book's GPU rule for a two-matrix MLP, Y < F W / C: 28,672 x 450e9 / 989.4e12 = 13.04.

    With the ring's (N - 1) / N kept the bound is 1 + 13.04, so 14 chips; the book rounds to 'about 11-way' with
    its F = 28,000 and C / W = 2,475 beyond a node (28,000 / 2,475 = 11.3).
    """
    values = ALLREDUCE.run({"chip": "h100-sxm", "matrices": "2"}).values
    rule = 28672 * LINK / PEAK
    assert rule == pytest.approx(13.04, abs=0.005)
    assert values["max_chips"] == 14
    beyond_node = ALLREDUCE.run({"chip": "h100-sxm", "matrices": "2", "link_gbs": 400, "d_ff": 28000}).values
    assert math.floor(beyond_node["max_chips"] - 1) == 11


def test_the_ratio_does_not_depend_on_the_batch_without_latency() -> None:
    ratios = {ALLREDUCE.run({"chip": "h100-sxm", "batch": b}).values["ratio"] for b in (1, 64, 4096, 65536)}
    assert max(ratios) == pytest.approx(min(ratios))


def test_fixed_step_time_makes_small_batches_latency_bound() -> None:
    """Batch 8 at 1 us per step (the scaling book's figure for a TPU ICI hop, used here only as an example).

    Bandwidth term: 2 x 7/8 x 8 x 8,192 x 2 B / 450e9 = 0.5097 us; fixed: 2 x 7 x 1 us = 14 us; 14.51 us in all.
    Block: 3 x 2 x 8 x 8,192 x 28,672 / 8 / 989.4e12 = 1.424 us at peak (the all-reduce takes 10.2 times as long),
    but each chip reads its 3 x 8,192 x 28,672 x 2 B / 8 = 176.2 MB of weights at 3.35 TB/s: 52.59 us, so the block
    is memory-bound and the all-reduce is 28% of it (the scaling book's inference chapter compares the two the
    same way: at decode, model sharding is limited by ICI time against weight-loading time).
    """
    values = ALLREDUCE.run({"chip": "h100-sxm", "batch": 8, "latency_us": 1}).values
    assert values["message_bytes"] == 131_072
    assert values["comm_time"] == pytest.approx(14e-6 + 2 * 7 / 8 * 131072 / LINK, rel=1e-9)
    assert values["compute_time"] == pytest.approx(1.4244e-6, rel=1e-3)
    assert values["ratio"] == pytest.approx(10.19, abs=0.01)
    assert values["block_time"] == pytest.approx(3 * 8192 * 28672 * 2 / 8 / 3.35e12, rel=1e-9)
    assert values["block_time"] == pytest.approx(52.59e-6, abs=0.005e-6)
    assert values["bound"] == "Memory-bound (weight reads)"
    assert values["overlapped_time"] == values["block_time"]
    assert values["max_chips"] == 20  # the bandwidth-only rule is unchanged


def test_measured_bus_bandwidth_raises_the_ratio() -> None:
    """At 370 GB/s (the scaling book's measured NCCL bus bandwidth on 8 x H100, SHARP off) the ratio is
    7 x 2 x 989.4e12 / (3 x 28,672 x 370e9) = 0.4352, and the largest split 1 + 3 x 28,672 x 370e9 / 1.9788e15
    = 17.1."""
    values = ALLREDUCE.run({"chip": "h100-sxm", "link_gbs": 370}).values
    assert values["ratio"] == pytest.approx(0.4352, abs=0.0001)
    assert values["max_chips"] == 17


def test_fewer_chips() -> None:
    """N = 4: 3 x 2 x 989.4e12 / (3 x 28,672 x 450e9) = 0.1534."""
    values = ALLREDUCE.run({"chip": "h100-sxm", "chips": 4}).values
    assert values["ratio"] == pytest.approx(0.15337, rel=1e-4)
    assert values["bound"] == "Compute-bound"


def test_tree_all_reduce_takes_logarithmic_steps() -> None:
    """NCCL's tree (src/graph/tuning.cc: 2 ((ranks per node - 1) intra + log2i(nodes) inter) latency, bus bandwidth
    0.92 of the ring's), one chip per node: 64 chips, batch 8, 1 us a step. Ring: 2 x 63 = 126 steps; tree:
    2 x log2(64) = 12 steps. Bandwidth: 2 x 63/64 x 131,072 B / (0.92 x 450e9)."""
    ring = ALLREDUCE.run({"chip": "h100-sxm", "batch": 8, "latency_us": 1, "chips": 64}).values
    tree = ALLREDUCE.run({"chip": "h100-sxm", "batch": 8, "latency_us": 1, "chips": 64, "algorithm": "tree"}).values
    assert ring["comm_time"] == pytest.approx(126e-6 + 2 * 63 / 64 * 131072 / LINK)
    assert tree["comm_time"] == pytest.approx(12e-6 + 2 * 63 / 64 * 131072 / (0.92 * LINK))
    # 48 chips: floor(log2 48) = 5 levels, NCCL's integer log.
    tree48 = ALLREDUCE.run({"chip": "h100-sxm", "batch": 8, "latency_us": 1, "chips": 48, "algorithm": "tree"})
    assert tree48.values["comm_time"] == pytest.approx(10e-6 + 2 * 47 / 48 * 131072 / (0.92 * LINK))
    # The bandwidth-only rule sees the tree's 0.92: 1 + 3 x 28,672 x 0.92 x 450e9 / (2 x 989.4e12) = 18.99.
    assert tree["max_chips"] == 18
