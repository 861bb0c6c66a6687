"""A review of the scale lessons' models: cases worked by hand, with shapes, chip counts and precisions that the lesson
tests do not use, each against the public treatment it comes from.

Sources: J. Austin et al., "How to Scale Your Model" (the scaling book), chapters "Sharded Matrices" (ring and torus
collectives, the all-to-all's factor of 1/4 of an all-gather) and "How to Think About GPUs" (beyond the node, the
intra-node and network phases of a collective overlap and the slower sets the time; data parallelism on H100s needs
990e12 / 400e9 = 2,475 tokens per GPU); Shoeybi et al. 2019 (Megatron-LM: two all-reduces per layer forward, two
backward); Huang et al. 2019 (GPipe's bubble); DeepSeek-AI 2024 (DeepSeek-V2, section 2.1: MLA caches 512 + 64 values
per token and layer); Leviathan et al. 2023 (speculative decoding, equation 1 and theorem 3.8); Meta's Llama 3.1 8B
and 405B config.json (32 layers, width 4,096, 8 KV heads of 128; 126 layers, width 16,384).
"""

from __future__ import annotations

import pytest

from calckit.book import calculator as get
from calculators.collectives import collective_cost

COLLECTIVE, EXPLORER, KV, LATENCY, SPECULATIVE = (
    get(name) for name in ("collective", "parallelism", "kv-cache", "latency-throughput", "speculative")
)


def test_ring_all_to_all_is_n_over_8_times_a_switch() -> None:
    """64 chips, 64 MB each, the same 90 GB/s per link each way. Ring: 64e6 / 64 x floor(64^2 / 4) / (2 x 90e9) =
    8 x 64e6 / 90e9 = 5.69 ms. Switch: 63/64 x 64e6 / 90e9 = 700 us. Ratio 8 x 64/63 = 8.13, N / 8 (the lesson said
    N / 4 before this review)."""
    ring = collective_cost("all-to-all", "ring", 64e6, 64, 90e9, 0).bandwidth_time
    switch = collective_cost("all-to-all", "switched", 64e6, 64, 90e9, 0).bandwidth_time
    assert ring == pytest.approx(8 * 64e6 / 90e9)
    assert ring / switch == pytest.approx(8 * 64 / 63)


def test_two_axis_torus_of_eight_by_four() -> None:
    """32 chips as 8 x 4, 16 MB, 45 GB/s per link each way, 1 us per hop: every chip receives 31/32 x 16e6 over its
    four incoming links; an uneven split of the data between the two axis orders balances them, so 86.1 us, plus
    ceil(7/2) + ceil(3/2) = 6 hops."""
    inputs = {"op": "all-gather", "topology": "torus-2d", "chips": 32, "link_gbs": 45, "latency_us": 1, "size_mb": 16}
    values = COLLECTIVE.run(inputs).values
    assert values["shape"] == "8 × 4"
    assert values["time"] == pytest.approx(31 / 32 * 16e6 / (4 * 45e9) + 6e-6)


def test_two_level_all_gather_over_32_nodes() -> None:
    """256 H100s in 32 nodes, 128 MB: across nodes 31/32 x 128e6 / 8 over 50 GB/s = 310 us, within 7/8 x 128e6 over
    450 GB/s = 248.9 us, pipelined: 310 us; steps 31 x 2.7 + 7 x 0.6 = 87.9 us. In all 397.9 us."""
    values = COLLECTIVE.run({"op": "all-gather", "topology": "two-level", "chips": 256, "size_mb": 128}).values
    assert values["bandwidth_time"] == pytest.approx(310e-6)
    assert values["time"] == pytest.approx(310e-6 + 87.9e-6)
    # nccl-tests' bus bandwidth of an all-gather is size / time x (n - 1) / n: without the steps' latency, the node's
    # eight NICs, 8 x 50 x 32/31 x 255/256 = 411 GB/s, not one NIC's 50.
    free = {"latency_us": 0, "scaleout_latency_us": 0}
    values = COLLECTIVE.run({"op": "all-gather", "topology": "two-level", "chips": 256, "size_mb": 128, **free}).values
    assert values["busbw"] == pytest.approx(8 * 50e9 * 32 / 31 * 255 / 256)


def test_pure_fsdp_on_h100_nodes_matches_the_scaling_book() -> None:
    """1,024 H100s, no tensor parallelism: the gather's slow phase moves 127/128 x V / 8 per chip at 50 GB/s, so each
    chip's share goes at 1023/1024 / (127/128 / 400e9) = 402.8 GB/s, and C / W = 2,456 tokens per chip, within 1% of
    the scaling book's 990e12 / 400e9 = 2,475."""
    tokens = EXPLORER.run({"tp": 1}).values["dp_tokens_per_chip"]
    assert tokens == pytest.approx(989.4e12 * (127 / 128) / (1023 / 1024) / 400e9)
    assert tokens == pytest.approx(990e12 / 400e9, rel=0.01)


def test_a_mesh_lowers_the_tokens_each_chip_needs() -> None:
    """Eight-way tensor and four-way pipeline parallelism on a 3-D torus: each chip reduces 1/32 of the gradients over
    its six links, so the bound is 459e12 / (6 x 90e9 x 32) = 26.6 tokens per chip."""
    inputs = {"chip": "tpu-v5p", "network": "torus", "link_gbs": 90, "tp": 8, "pp": 4}
    assert EXPLORER.run(inputs).values["dp_tokens_per_chip"] == pytest.approx(459e12 / (6 * 90e9 * 32))


def test_tensor_limit_for_llama_405b_on_b200() -> None:
    """Per layer and token, 6 P / L FLOPs over T chips against four all-reduces of 2 (T - 1)/T x 2 D bytes:
    T - 1 = 3 P W / (8 L D C) = 3 x 405e9 x 900e9 / (8 x 126 x 16,384 x 2,250e12) = 29.4."""
    inputs = {"chip": "b200", "link_gbs": 900, "params_b": 405, "active_b": 405, "layers": 126, "d_model": 16384}
    limit = EXPLORER.run(inputs).values["tp_limit"]
    assert limit == pytest.approx(1 + 3 * 405e9 * 900e9 / (8 * 126 * 16384 * 2250e12))
    assert limit == pytest.approx(30.4, abs=0.05)


def test_bubble_of_four_stages_and_twelve_microbatches() -> None:
    """(S - 1) / (M + S - 1) = 3 / 15 = 20%."""
    assert EXPLORER.run({"pp": 4, "microbatches": 12}).values["bubble"] == pytest.approx(0.2)


def test_mixtral_shape_critical_batch_on_mi300x() -> None:
    """Eight experts, two per token: the ridge 1,307.4 / 5.3 = 246.7 tokens times E / k = 4, 986.7."""
    inputs = {"chip": "mi300x", "experts": 8, "top_k": 2, "params_b": 47, "active_b": 13}
    assert EXPLORER.run(inputs).values["expert_critical_batch"] == pytest.approx(1307.4 / 5.3 * 4)


@pytest.mark.parametrize(
    ("inputs", "per_token"),
    [
        # Llama 3.1 8B with an FP8 cache: 2 x 32 layers x 8 KV heads x 128 x 1 byte.
        ({"attention": "gqa", "layers": 32, "heads": 32, "kv_heads": 8, "kv_bytes": "1"}, 65_536),
        # DeepSeek-V2: 60 layers of (512 + 64) values, 2 bytes.
        ({"attention": "mla", "layers": 60, "heads": 128, "latent": 512, "rope_dim": 64}, 69_120),
        # MQA on 32 layers of 128: 2 x 128 x 32 x 2 bytes.
        ({"attention": "mqa", "layers": 32, "heads": 32}, 16_384),
    ],
)
def test_kv_cache_per_token(inputs: dict[str, object], per_token: int) -> None:
    assert KV.run(inputs).values["per_token"] == per_token


def test_mqa_is_replicated_over_tensor_parallel_chips() -> None:
    """One KV head cannot be split: each of four chips keeps all of it."""
    values = KV.run({"attention": "mqa", "layers": 32, "heads": 32, "tp": 4}).values
    assert values["per_token_chip"] == values["per_token"] == 16_384


LLAMA_8B = {
    "chip": "h100-sxm",
    "chips": 1,
    "params_b": 8,
    "layers": 32,
    "hidden": 4096,
    "kv_heads": 8,
    "head_dim": 128,
    "context": 8192,
}


def test_llama_8b_decode_on_one_h100() -> None:
    """Weights 16e9 / 3.35e12 = 4.776 ms; each sequence's cache, 131,072 B x 8,192 = 1.074 GB, 0.3205 ms. At batch 16
    the weight matmuls are memory-bound (2 x 8e9 x 16 / 989.4e12 = 0.26 ms) and attention too (4 x 32 x 8,192 x
    4,096 FLOPs, 4.3 us): 4.776 + 16 x 0.3205 = 9.90 ms. Memory: (80 - 16) / 1.074 = 59 sequences. At 100 tokens/s
    per user the step may last 10 ms: (10 - 4.776) / 0.3205 = 16.3, so 16."""
    values = LATENCY.run({**LLAMA_8B, "batch": 16, "target_rate": 100}).values
    cache = 2 * 32 * 8 * 128 * 2 * 8192
    step = 16e9 / 3.35e12 + 16 * cache / 3.35e12
    assert values["step_time"] == pytest.approx(step)
    assert values["max_batch"] == 59
    assert values["target_batch"] == 16
    # The bill at that batch: $4.916 per hour and 700 W for 16 / step tokens per second.
    assert values["cost_per_million_output"] == pytest.approx(4.916 / 3600 * step / 16 * 1e6)
    assert values["energy_per_million_output"] == pytest.approx(700 * step / 16 * 1e6)


def test_llama_8b_prefill_of_8192_tokens() -> None:
    """2 x 8e9 x 8,192 for the weights plus 2 x 32 x 4,096 x 8,192^2 for causal attention, over 989.4 TFLOP/s:
    150.3 ms."""
    values = LATENCY.run({**LLAMA_8B, "prompt": 8192}).values
    assert values["prefill_time"] == pytest.approx((2 * 8e9 * 8192 + 2 * 32 * 4096 * 8192**2) / 989.4e12)


def test_speculative_ninety_percent_seven_drafts() -> None:
    """E = (1 - 0.9^8) / 0.1 = 5.695 tokens per round; with c = 0.1 the round costs 1.7 steps: 3.35 x."""
    values = SPECULATIVE.run({"acceptance": 0.9, "draft_tokens": 7, "draft_cost": 0.1}).values
    assert values["tokens_per_step"] == pytest.approx((1 - 0.9**8) / 0.1)
    assert values["speedup"] == pytest.approx((1 - 0.9**8) / 0.1 / 1.7)
    assert values["speedup"] == pytest.approx(3.35, abs=0.005)
