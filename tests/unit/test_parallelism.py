"""The strategy explorer against hand-worked cases. Conditions from jax-ml/scaling-book, "How to Parallelize a
Transformer for Training": data parallelism and FSDP stay compute-bound while the per-chip batch exceeds C / W
(2,550 on one axis of TPU v5p, 850 over three); GPipe's bubble (S - 1) / (M + S - 1) (Huang et al. 2019); ZeRO's
16 bytes per parameter for mixed-precision Adam and its stages' traffic (Rajbhandari et al. 2020, sections 5 and 7);
activations per layer from Korthikanti et al. 2022, table 2 (tests/unit/test_training_memory.py works them); the
model's FLOPs per token 6 N + 12 L s h, halved for the causal mask (PaLM, appendix B)."""

from __future__ import annotations

import pytest

from calckit.book import calculator as get
from calculators.training_step import Mesh, Model, Network, Training, data_traffic, step_cost

EXPLORER = get("parallelism")
LLAMA = Model(params=70e9, active=70e9, layers=80, width=8192, experts=1, top_k=1)
H100 = Network("switched", 8, 450e9, 50e9, 0.0, 0.0)
# Llama 3 70B's FLOPs per token, causal attention over 8,192 tokens: 6 x 70e9 + 6 x 80 x 8,192 x 8,192.
PER_TOKEN = 6 * 70e9 + 6 * 80 * 8192 * 8192


def test_tpu_v5p_data_parallel_threshold_is_850() -> None:
    values = EXPLORER.run({"chip": "tpu-v5p", "network": "torus", "link_gbs": 90, "tp": 1}).values
    assert values["dp_tokens_per_chip"] == pytest.approx(459e12 / (6 * 90e9)) == pytest.approx(850)


def test_h100_alone_on_its_nic_needs_about_19_800_tokens() -> None:
    assert EXPLORER.run({"domain": 1, "tp": 1}).values["dp_tokens_per_chip"] == pytest.approx(989.4e12 / 50e9)


def test_data_parallel_by_hand() -> None:
    """1,024 chips, 4 Mi tokens: compute 4.522e11 x 4,194,304 / (1,024 x 989.4e12) = 1.872 s. The gradient
    all-reduce of 140 GB, every chip in its own node: 2 x 1023/1024 x 140e9 / 50e9 = 5.59 s, of which the backward's
    1.248 s hides some. Each chip keeps 16 x 70e9 bytes of state and one micro-batch of 4,096 tokens through 80 layers,
    34 x 4,096 x 8,192 bytes a layer (no tensor parallelism, FlashAttention)."""
    cost = step_cost(LLAMA, Mesh(1024, 1, 1), 4_194_304, 989.4e12, Network("switched", 1, 450e9, 50e9, 0, 0), False)
    assert cost.compute == pytest.approx(PER_TOKEN * 4_194_304 / (1024 * 989.4e12))
    assert cost.compute == cost.model_compute
    assert cost.data == pytest.approx(2 * 1023 / 1024 * 140e9 / 50e9)
    assert cost.exposed == pytest.approx(cost.data - cost.compute * 4 / 6)
    assert cost.memory.state == 16 * 70e9
    assert cost.memory.activations == pytest.approx(80 * 34 * 4096 * 8192)


def test_fsdp_costs_one_and_a_half_all_reduces_and_shards_state() -> None:
    dp = step_cost(LLAMA, Mesh(64, 1, 1), 1e6, 989.4e12, H100, False)
    fsdp = step_cost(LLAMA, Mesh(64, 1, 1, data_axis="fsdp"), 1e6, 989.4e12, H100, False)
    assert fsdp.data == pytest.approx(1.5 * dp.data)
    assert fsdp.memory.state == pytest.approx(16 * 70e9 / 64)
    assert fsdp.memory.activations == dp.memory.activations


def test_zero_stages_shard_state_at_data_parallel_traffic() -> None:
    """ZeRO, section 7: stages 1 and 2 move what data parallelism does (a reduce-scatter of the gradients and an
    all-gather of the weights, 2 Psi each way); stage 3 1.5 times that. State per chip from the paper's table: 64
    chips, Psi = 70e9: 4 Psi + 12 Psi / 64, 2 Psi + 14 Psi / 64, 16 Psi / 64."""
    psi, costs = 70e9, {}
    for axis in ("dp", "zero1", "zero2", "fsdp"):
        costs[axis] = step_cost(LLAMA, Mesh(64, 1, 1, data_axis=axis), 1e6, 989.4e12, H100, False)
    assert costs["zero1"].data == pytest.approx(costs["dp"].data)
    assert costs["zero2"].data == pytest.approx(costs["dp"].data)
    assert costs["zero1"].memory.state == pytest.approx(4 * psi + 12 * psi / 64)
    assert costs["zero2"].memory.state == pytest.approx(2 * psi + 14 * psi / 64)
    assert costs["fsdp"].memory.state == pytest.approx(16 * psi / 64)
    # ZeRO-1 and -2 hide under the backward pass only, as data parallelism does; ZeRO-3 under the whole step.
    assert costs["zero1"].exposed == pytest.approx(costs["dp"].exposed)


def test_fp32_gradients_double_the_reduction() -> None:
    """g = 4: data parallelism all-reduces twice the bytes; ZeRO-3 moves 2 + 2 + 4 = 8 bytes a parameter against 6;
    the threshold in tokens per chip rises by the same factors (2, and 8/6)."""
    fp32 = Training(grad_bytes=4.0)
    dp = step_cost(LLAMA, Mesh(64, 1, 1), 1e6, 989.4e12, H100, False)
    dp32 = step_cost(LLAMA, Mesh(64, 1, 1), 1e6, 989.4e12, H100, False, fp32)
    assert dp32.data == pytest.approx(2 * dp.data)
    assert dp32.memory.state == pytest.approx(18 * 70e9)
    fsdp = step_cost(LLAMA, Mesh(64, 1, 1, data_axis="fsdp"), 1e6, 989.4e12, H100, False)
    fsdp32 = step_cost(LLAMA, Mesh(64, 1, 1, data_axis="fsdp"), 1e6, 989.4e12, H100, False, fp32)
    assert fsdp32.data == pytest.approx(fsdp.data * 8 / 6)
    assert data_traffic("fsdp", 4.0) == 8 and data_traffic("dp", 2.0) == 4
    base = EXPLORER.run({}).values["dp_tokens_per_chip"]
    assert EXPLORER.run({"grad_bytes": "4"}).values["dp_tokens_per_chip"] == pytest.approx(base * 8 / 6)
    assert EXPLORER.run({"data_axis": "dp", "grad_bytes": "4"}).values["dp_tokens_per_chip"] == pytest.approx(2 * base)


def test_full_recompute_charges_a_forward_and_its_collectives() -> None:
    """Full recomputation: one more forward, a third of the model's FLOPs; the tensor axis's two forward
    all-reduces per layer run again, 6 instead of 4; the backward window that hides the data axis grows from 4/6 of
    the model's FLOPs to all of them."""
    none = step_cost(LLAMA, Mesh(16, 1, 8), 1_048_576, 989.4e12, H100, False)
    full = step_cost(LLAMA, Mesh(16, 1, 8), 1_048_576, 989.4e12, H100, False, Training(recompute="full"))
    assert full.compute == pytest.approx(none.compute * 4 / 3)
    assert full.model_compute == none.model_compute
    assert full.tensor == pytest.approx(none.tensor * 6 / 4)
    # Selective: the attention core's forward again, 2 L s h per token (causal), no extra traffic.
    selective = step_cost(LLAMA, Mesh(16, 1, 8), 1_048_576, 989.4e12, H100, False, Training(recompute="selective"))
    extra = 2 * 80 * 8192 * 8192 * 1_048_576 / (128 * 989.4e12)
    assert selective.compute - none.compute == pytest.approx(extra)
    assert selective.tensor == none.tensor


def test_the_default_fits_only_with_recomputation() -> None:
    """Llama 3 70B, FSDP over 128 x tensor 8 with sequence parallelism, 4 Mi tokens: each data rank's 32,768 tokens
    (four 8,192-token sequences) in one micro-batch keep 34 x 32,768 x 8,192 / 8 bytes a layer, 91.3 GB over 80
    layers, on top of 1.09 GB of state: more than an H100's 80 GB. Full recomputation keeps 80 layer inputs
    (2 x 32,768 x 8,192 / 8 bytes each, 5.37 GB) and one layer rebuilt (1.14 GB): 7.6 GB in all. So does gradient
    accumulation over four micro-batches of one sequence: 22.8 GB of activations."""
    default = EXPLORER.run({}).values
    assert default["activations"] == pytest.approx(80 * 34 * 32768 * 8192 / 8)
    assert default["fits"] == "no: 92.4 GB of 80 GB" and default["best"] == "none fits"
    full = EXPLORER.run({"recompute": "full"}).values
    assert full["memory"] == pytest.approx(16 * 70e9 / 1024 + 80 * 2 * 32768 * 8192 / 8 + 34 * 32768 * 8192 / 8)
    assert full["fits"] == "yes"
    assert full["efficiency"] > full["mfu"] == pytest.approx(full["efficiency"] * 3 / 4)
    accumulated = EXPLORER.run({"microbatches": 4}).values
    assert accumulated["activations"] == pytest.approx(80 * 34 * 8192 * 8192 / 8) and accumulated["fits"] == "yes"
    # Without sequence parallelism the layer norms' and dropouts' 10 s b h stay whole: 13 s b h a layer.
    no_sp = EXPLORER.run({"sequence_parallel": "no", "recompute": "full"}).values
    assert no_sp["activations"] == pytest.approx(80 * 2 * 32768 * 8192 + 13 * 32768 * 8192)


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
    assert EXPLORER.run({"pp": 8, "tp": 8, "microbatches": 8}).values["bubble"] == pytest.approx(7 / 15)
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
    assert cost.memory.state == pytest.approx(16 * (shared + moe.expert_params / 8))


def test_an_impossible_mesh_is_adjusted_with_a_note() -> None:
    result = EXPLORER.run({"chips": 12, "tp": 8})
    assert "tensor 8 → 4" in result.notes["step"]
    assert "3 data × 1 pipeline × 4 tensor" in result.summary


class TestExpertAllToAll:
    """DeepSeek-V3's shape (61 layers, width 7,168, 256 routed experts, 8 per token; DeepSeek-V3 Technical Report,
    2024) with 64-way expert parallelism over eight H100 nodes, 4,096 tokens per chip, no latency. Each chip's buffer
    of copies is 4,096 x 8 x 7,168 x 2 bytes = 469.8 MB. Without a node limit, 56/64 of it crosses the 50 GB/s NICs
    (GShard's all-to-all, two levels): 8.22 ms per dispatch or combine."""

    MOE = Model(params=671e9, active=37e9, layers=61, width=7168, experts=256, top_k=8, heads=128, seq_len=4096)
    TOKENS = 64 * 4096

    def cost(self, run: Training) -> float:
        return step_cost(self.MOE, Mesh(64, 1, 1, ep=64), self.TOKENS, 989.4e12, H100, False, run).expert

    def test_unlimited_bf16(self) -> None:
        one = 4096 * 8 * 7168 * 2 * 56 / 64 / 50e9
        assert self.cost(Training()) == pytest.approx(4 * 61 * one)

    def test_node_limited_routing_halves_the_network_traffic(self) -> None:
        """At most 4 nodes per token, each reached once over the network: 4 x 7/8 copies cross it instead of
        8 x 56/64 = 7; the NVLink hop inside the node (8 x 7/8 copies at 450 GB/s, 0.91 ms) stays under the
        network's 4.11 ms."""
        one = 4096 * 7168 * 2 * 4 * 7 / 8 / 50e9
        assert one == pytest.approx(4.11e-3, rel=1e-3)
        assert self.cost(Training(node_limit=4)) == pytest.approx(4 * 61 * one)
        assert self.cost(Training(node_limit=4)) == pytest.approx(self.cost(Training()) / 2)
        # A limit at or above k changes nothing but the deduplication: min(k, M) = 8 copies, 8 x 7/8 = 7.
        assert self.cost(Training(node_limit=8)) == pytest.approx(self.cost(Training()))

    def test_fp8_dispatch_keeps_the_combine_in_bf16(self) -> None:
        """DeepSeek-V3's low-precision communication: dispatches (and the combine's gradients) in FP8, combines in
        BF16: half the all-to-alls at half the bytes, 3/4 of the traffic."""
        assert self.cost(Training(dispatch_bytes=1.0)) == pytest.approx(self.cost(Training()) * 3 / 4)

    def test_full_recompute_repeats_the_forward_pair(self) -> None:
        assert self.cost(Training(recompute="full")) == pytest.approx(self.cost(Training()) * 6 / 4)
