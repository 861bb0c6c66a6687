"""The expert-parallel decode planner, worked by hand against its sources.

Sources: DeepSeek-AI, "DeepSeek-V3 Technical Report", 2024 (arXiv 2412.19437), section 3.4 and its config.json: 671 B
parameters, 37 B active, 256 routed experts, 8 per token, 61 layers of which the first 3 dense, hidden 7,168, 128
heads, MLA latent 512 + RoPE key 64; decode over 320 GPUs, one expert each, with 64 GPUs for redundant and shared
experts. DeepSeek-AI, "DeepSeek-V3/R1 Inference System Overview" (open-infra-index, 2025): prefill EP32 with 32
redundant experts, 9 routed experts a GPU; decode EP144 over 18 nodes, 2 routed experts a GPU; FP8 dispatch, BF16
combine; a mean of 4,989 cached tokens. DeepEP's legacy README (deepseek-ai/DeepEP, docs/legacy.md): low-latency
kernels at 128 tokens, hidden 7,168, top-8, FP8 dispatch and BF16 combine, EP256: dispatch 194 us at 39 GB/s, combine
360 us at 40 GB/s, over one 400 Gb/s CX7 NIC a GPU. H100 SXM: 3.35 TB/s, 989.4 / 1,978.9 TFLOP/s BF16 / FP8 dense.
"""

from __future__ import annotations

import pytest

from calckit.book import calculator as get

EP = get("expert-parallel")

ROUTED = (671 - 37) * 256 / 248 * 1e9  # P - P_a = (E - k) experts' worth, so all E experts: 654.45 B
REPLICATED = 671e9 - ROUTED  # 16.55 B: attention, shared experts, dense layers, embeddings
EXPERT = ROUTED / 256  # one routed expert over the 58 MoE layers, 2.556 B (3 x 7,168 x 2,048 x 58 = 2.554 B)
KV_TOKEN = (512 + 64) * 61 * 2  # MLA in BF16: 70,272 bytes


def run(**inputs: object) -> dict[str, object]:
    return dict(EP.run(inputs).values)


class TestExpertsTouched:
    @pytest.mark.parametrize(
        ("tokens", "expected"),
        [
            (1, 8.0),  # one token touches its own k
            (32, 256 * (1 - (31 / 32) ** 32)),  # 163.3
            (256, 256 * (1 - (1 - 8 / 256) ** 256)),  # issue 47's 99.97%
        ],
    )
    def test_the_formula(self, tokens: int, expected: float) -> None:
        """E (1 - (1 - k/E)^B) of E experts: each is missed by a token with probability 1 - k/E (one GPU, so the
        global batch is the batch)."""
        assert run(ep=1, batch=tokens)["touched"] == pytest.approx(expected)

    def test_share_at_256_tokens(self) -> None:
        assert run(ep=1, batch=256)["touched_share"] == pytest.approx(0.9997, abs=5e-5)

    def test_the_calculator_counts_the_global_batch(self) -> None:
        """At EP144 with 128 sequences a GPU, the global batch is 18,432: every expert is touched."""
        assert run()["touched"] == pytest.approx(256)
        assert run(ep=2, batch=16)["touched"] == pytest.approx(run(ep=1, batch=32)["touched"])


class TestPlacement:
    """Expert slots a GPU: (routed + redundant) / GPUs, as DeepSeek's deployments place them."""

    def test_decode_ep144(self) -> None:
        assert run()["experts_per_rank"] == 2  # (256 + 32) / 144

    def test_prefill_ep32(self) -> None:
        assert run(ep=32)["experts_per_rank"] == 9  # (256 + 32) / 32, "9 routed experts"

    def test_v3_report_ep320(self) -> None:
        assert run(ep=320, redundant=64)["experts_per_rank"] == 1  # 256 + 64 slots on 320 GPUs

    def test_nodes(self) -> None:
        """144 GPUs, 8 a node: DeepSeek's 18 nodes; 12 GPUs fill two nodes, the second half full."""
        assert run()["nodes"] == 18
        assert run(ep=12)["nodes"] == 2

    def test_tokens_per_expert(self) -> None:
        """18,432 tokens x 8 / 256 = 576 rows per expert matmul."""
        assert run()["tokens_per_expert"] == pytest.approx(576)


class TestBytes:
    def test_weights_read_without_overlap(self) -> None:
        """The replicated part and the two slots' experts, all touched: 16.55 + 2 x 2.556 = 21.66 GB in FP8."""
        assert run(overlap="none")["weights_read"] == pytest.approx(REPLICATED + 2 * EXPERT)
        assert run(overlap="none")["weights_read"] == pytest.approx(21.66e9, rel=1e-3)

    def test_overlap_reads_the_weights_twice(self) -> None:
        assert run()["weights_read"] == pytest.approx(2 * (REPLICATED + 2 * EXPERT))

    def test_kv_read(self) -> None:
        """128 sequences x 4,989 tokens x 70,272 bytes = 44.87 GB."""
        assert run()["kv_read"] == pytest.approx(128 * 4989 * KV_TOKEN)

    def test_memory(self) -> None:
        assert run()["memory"] == pytest.approx(REPLICATED + 2 * EXPERT + 128 * 4989 * KV_TOKEN)
        assert run()["fits"] == "yes"
        assert str(run(batch=256)["fits"]).startswith("no: needs")


class TestAllToAll:
    def test_bytes_per_layer(self) -> None:
        """128 tokens x 8 copies x 7,168 values: FP8 with a 4-byte scale per 128 values, and BF16 back."""
        values = run()
        assert values["dispatch_bytes"] == pytest.approx(128 * 8 * 7168 * (1 + 4 / 128))  # 7.57 MB
        assert values["combine_bytes"] == pytest.approx(128 * 8 * 7168 * 2)  # 14.68 MB
        assert run(dispatch="bf16")["dispatch_bytes"] == pytest.approx(128 * 8 * 7168 * 2)

    def test_layer_time_at_line_rate(self) -> None:
        """(7.57 + 14.68) MB x (1 - 8/144) off the node, over 50 GB/s a GPU: 420 us; 58 MoE layers: 24.4 ms."""
        values = run()
        per_layer = 128 * 8 * 7168 * (1 + 4 / 128 + 2) * (1 - 8 / 144) / 50e9
        assert values["layer_exchange"] == pytest.approx(per_layer)
        assert values["exchange_time"] == pytest.approx(58 * per_layer)

    def test_matches_deepep_measured(self) -> None:
        """DeepEP's EP256 low-latency kernels at 128 tokens: 194 us + 360 us = 554 us at the 39 GB/s they reach; the
        planner at 39 GB/s a GPU (8 x 312 Gb/s a node) gives 553 us, and the bytes DeepEP moves at its bandwidths are
        ours: 39 GB/s x 194 us = 7.57 MB dispatched, 40 GB/s x 360 us = 14.4 MB combined."""
        values = run(ep=256, node_nic_gbps=2496)
        assert values["layer_exchange"] == pytest.approx(554e-6, rel=0.01)
        assert values["dispatch_bytes"] == pytest.approx(39e9 * 194e-6, rel=0.01)
        assert values["combine_bytes"] == pytest.approx(40e9 * 360e-6, rel=0.02)

    def test_one_node_has_no_exchange(self) -> None:
        values = run(ep=8, chip="b200", redundant=0, batch=64, overlap="none")
        assert values["exchange_time"] == 0
        assert values["hidden"] == "nothing to hide: no all-to-all leaves the node"


class TestStep:
    def test_default_step_by_hand(self) -> None:
        """Attention: 44.87 GB / 3.35 TB/s = 13.39 ms (its 10.85 TFLOP take 10.97 ms at BF16: memory-bound).
        Matmuls per micro-batch: 21.66 GB / 3.35 TB/s = 6.47 ms, twice with overlap: 12.93 ms (FLOPs 9.47 T / 1,979 T
        = 4.79 ms). Compute 26.3 ms against 24.4 ms of all-to-all: hidden, and the step is 26.3 ms."""
        values = run()
        attention = 128 * 4989 * KV_TOKEN / 3.35e12
        assert attention > 128 * 4989 * 61 * 278_528 / 989.4e12
        matmuls = 2 * (REPLICATED + 2 * EXPERT) / 3.35e12
        assert values["compute_time"] == pytest.approx(attention + matmuls)
        assert values["step_time"] == pytest.approx(attention + matmuls)
        assert str(values["hidden"]).startswith("yes")
        assert values["per_gpu"] == pytest.approx(128 / (attention + matmuls))
        assert values["per_node_rate"] == pytest.approx(8 * 128 / (attention + matmuls))

    def test_without_overlap_the_times_add(self) -> None:
        values = run(overlap="none")
        attention = 128 * 4989 * KV_TOKEN / 3.35e12
        matmuls = (REPLICATED + 2 * EXPERT) / 3.35e12
        exchange = 58 * 128 * 8 * 7168 * (3 + 4 / 128) * (1 - 8 / 144) / 50e9
        assert values["step_time"] == pytest.approx(attention + matmuls + exchange)

    def test_overlap_loses_at_small_batches(self) -> None:
        """Two micro-batches read the weights twice: at 16 sequences a GPU that costs more than the exchange it hides
        (SGLang measured TBO 27% slower at 32 tokens a GPU, 25.5% faster at 256)."""
        assert run(batch=16)["step_time"] > run(batch=16, overlap="none")["step_time"]
        assert run()["step_time"] < run(overlap="none")["step_time"]

    def test_imbalance_waits_for_the_busiest(self) -> None:
        """At a balance of 0.8 the busiest GPU exchanges 1 / 0.8 of the mean: 24.4 / 0.8 = 30.5 ms, now exposed."""
        values = run(balance=0.8)
        assert values["exchange_time"] == pytest.approx(run()["exchange_time"] / 0.8)
        assert str(values["hidden"]).startswith("no:")


class TestClamps:
    """Inputs that contradict each other are read as the nearest model that makes sense, never refused: a reader moving
    one field at a time passes through such states."""

    def test_active_at_most_total(self) -> None:
        assert run(active_b=700)["per_gpu"] == run(active_b=671)["per_gpu"]

    def test_one_moe_layer_at_least(self) -> None:
        """With every layer said to be dense, one MoE layer is left: the exchange of one layer a step."""
        assert run(dense_layers=61)["exchange_time"] == pytest.approx(run()["layer_exchange"])

    def test_fewer_gpus_than_a_node(self) -> None:
        """Four GPUs with eight a node: one node, nothing leaves it."""
        values = run(ep=4)
        assert values["nodes"] == 1
        assert values["exchange_time"] == 0
