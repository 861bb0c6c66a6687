"""KV cache per token against hand-worked cases. Shapes: Meta's Llama 3 70B config.json (80 layers, 64 query heads,
8 KV heads of 128); DeepSeek-V3's config.json (61 layers, kv_lora_rank 512, qk_rope_head_dim 64; DeepSeek-V2
paper, section 2.1: (d_c + d_h^R) x l values per token); vLLM's default block of 16 tokens (Kwon et al. 2023)."""

from __future__ import annotations

import pytest

from calckit.book import calculator as get

KV = get("kv-cache")


@pytest.mark.parametrize(
    ("kind", "per_token"),
    [("mha", 2 * 64 * 128 * 80 * 2), ("gqa", 2 * 8 * 128 * 80 * 2), ("mqa", 2 * 128 * 80 * 2), ("mla", 576 * 80 * 2)],
)
def test_llama3_70b_shape(kind: str, per_token: int) -> None:
    assert KV.run({"attention": kind}).values["per_token"] == per_token


def test_gqa_is_327_680_bytes() -> None:
    """The serving lesson's 320 KiB: 2 x 80 x 8 x 128 x 2."""
    values = KV.run({}).values
    assert values["per_token"] == 327_680
    assert values["vs_mha"] == pytest.approx(0.125)


def test_deepseek_v3_mla() -> None:
    values = KV.run({"attention": "mla", "layers": 61, "heads": 128}).values
    assert values["per_token"] == 70_272
    assert values["vs_mha"] == pytest.approx(576 / (2 * 128 * 128))


def test_tensor_parallel_split_and_replication() -> None:
    """8 KV heads over 4 chips: 2 each, a quarter; over 16 chips each chip still holds a whole head, an eighth."""
    assert KV.run({"tp": 4}).values["per_token_chip"] == 327_680 / 4
    assert KV.run({"tp": 16}).values["per_token_chip"] == 327_680 / 8
    # MLA's latent is shared by all heads: every chip keeps all of it.
    assert KV.run({"attention": "mla", "tp": 8}).values["per_token_chip"] == 576 * 80 * 2


def test_paging() -> None:
    """1,000 tokens in blocks of 16: 63 blocks, 1,008 slots, 8 unused (0.79%); reserved for 32,768: 96.9% unused."""
    values = KV.run({"context": 1000, "batch": 1}).values
    assert values["paged_waste"] == pytest.approx(8 / 1008)
    assert values["batch_per_chip"] == 1008 * 327_680
    assert values["reserved_waste"] == pytest.approx(31_768 / 32_768)


def test_quantised_cache_halves() -> None:
    assert KV.run({"kv_bytes": "1"}).values["per_token"] == 327_680 / 2


def test_more_kv_heads_than_query_heads_is_a_message_not_a_clamp() -> None:
    """Issue 41: 100 KV heads with 64 query heads was computed as 64 without a word."""
    _, errors = KV.check({"attention": "gqa", "heads": 64, "kv_heads": 100})
    assert [(error.field, error.hint) for error in errors] == [
        ("kv_heads", "Use 64 or fewer: a model has no more KV heads than query heads (you typed 100).")
    ]
    assert KV.check({"attention": "gqa", "heads": 64, "kv_heads": 64})[1] == []  # as many is multi-head attention
    assert KV.check({"attention": "mha", "heads": 64, "kv_heads": 100})[1] == []  # not asked for, not shown
