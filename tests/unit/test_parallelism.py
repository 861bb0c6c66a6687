"""The strategy explorer against hand-worked cases. Conditions from jax-ml/scaling-book, "How to Parallelize a
Transformer for Training": data parallelism and FSDP stay compute-bound while the per-chip batch exceeds C / W
(2,550 on one axis of TPU v5p, 850 over three); GPipe's bubble (S - 1) / (M + S - 1) (Huang et al. 2019); ZeRO's
16 bytes per parameter for mixed-precision Adam (Rajbhandari et al. 2020)."""

from __future__ import annotations

import pytest

from calckit.book import calculator as get
from calculators.training_step import Mesh, Model, Network, step_cost

EXPLORER = get("parallelism")
LLAMA = Model(params=70e9, active=70e9, layers=80, width=8192, experts=1, top_k=1)
H100 = Network("switched", 8, 450e9, 50e9, 0.0, 0.0)


def test_tpu_v5p_data_parallel_threshold_is_850() -> None:
    values = EXPLORER.run({"chip": "tpu-v5p", "network": "torus", "link_gbs": 90, "tp": 1}).values
    assert values["dp_tokens_per_chip"] == pytest.approx(459e12 / (6 * 90e9)) == pytest.approx(850)


def test_h100_alone_on_its_nic_needs_about_19_800_tokens() -> None:
    assert EXPLORER.run({"domain": 1, "tp": 1}).values["dp_tokens_per_chip"] == pytest.approx(989.4e12 / 50e9)


def test_data_parallel_by_hand() -> None:
    """1,024 chips, 4 Mi tokens: compute 6 x 70e9 x 4,194,304 / (1,024 x 989.4e12) = 1.739 s. The gradient
    all-reduce of 140 GB, every chip in its own node: 2 x 1023/1024 x 140e9 / 50e9 = 5.59 s, of which the backward's
    1.159 s hides some."""
    cost = step_cost(LLAMA, Mesh(1024, 1, 1), 4_194_304, 989.4e12, Network("switched", 1, 450e9, 50e9, 0, 0), False)
    assert cost.compute == pytest.approx(6 * 70e9 * 4_194_304 / (1024 * 989.4e12))
    assert cost.data == pytest.approx(2 * 1023 / 1024 * 140e9 / 50e9)
    assert cost.exposed == pytest.approx(cost.data - cost.compute * 4 / 6)
    assert cost.memory == 16 * 70e9


def test_fsdp_costs_one_and_a_half_all_reduces_and_shards_state() -> None:
    dp = step_cost(LLAMA, Mesh(64, 1, 1), 1e6, 989.4e12, H100, False)
    fsdp = step_cost(LLAMA, Mesh(64, 1, 1, fsdp=True), 1e6, 989.4e12, H100, False)
    assert fsdp.data == pytest.approx(1.5 * dp.data)
    assert fsdp.memory == pytest.approx(16 * 70e9 / 64)


def test_tensor_parallel_by_hand() -> None:
    """8-way in one NVLink node, 1 Mi tokens over 16 data ranks: four all-reduces per layer of 65,536 x 8,192 x 2
    bytes, each 2 x 7/8 x 1.074e9 / 450e9 = 4.176 ms, over 80 layers: 1.336 s."""
    cost = step_cost(LLAMA, Mesh(16, 1, 8), 1_048_576, 989.4e12, H100, False)
    one = 2 * 7 / 8 * 65_536 * 8192 * 2 / 450e9
    assert cost.tensor == pytest.approx(4 * 80 * one)


def test_tensor_limit() -> None:
    """1 + 3 x 70e9 x 450e9 / (8 x 80 x 8,192 x 989.4e12) = 19.2."""
    assert EXPLORER.run({}).values["tp_limit"] == pytest.approx(1 + 3 * 70e9 * 450e9 / (8 * 80 * 8192 * 989.4e12))


def test_bubble() -> None:
    """8 stages, 8 microbatches: 7 / 15 of the step idles; 32 microbatches: 7 / 39."""
    assert EXPLORER.run({"pp": 8, "tp": 8}).values["bubble"] == pytest.approx(7 / 15)
    assert EXPLORER.run({"pp": 8, "tp": 8, "microbatches": 32}).values["bubble"] == pytest.approx(7 / 39)


def test_experts_all_to_all() -> None:
    """A mixture of 64 experts, 8 per token, over 8 chips of one node: four all-to-alls per layer of each chip's
    1,024 tokens x 8 x 8,192 x 2 bytes = 134 MB, each 7/8 x 134e6 / 450e9."""
    moe = Model(params=70e9, active=14e9, layers=80, width=8192, experts=64, top_k=8)
    cost = step_cost(moe, Mesh(8, 1, 1, ep=8), 8192, 989.4e12, H100, False)
    buffer = 1024 * 8 * 8192 * 2
    assert cost.expert == pytest.approx(4 * 80 * 7 / 8 * buffer / 450e9)
    # Experts' state is split 8 ways, the shared part is not.
    shared = moe.shared_params
    assert cost.memory == pytest.approx(16 * (shared + moe.expert_params / 8))


def test_an_impossible_mesh_is_adjusted_with_a_note() -> None:
    result = EXPLORER.run({"chips": 12, "tp": 8})
    assert "tensor 8 → 4" in result.notes["step"]
    assert "3 data × 1 pipeline × 4 tensor" in result.summary
