"""The KV cache: bytes per token for each kind of attention, sharded over tensor-parallel chips, paged, quantised.

Per token and layer, attention keeps (Shazeer 2019 for MQA; Ainslie et al. 2023 for GQA; DeepSeek-AI 2024,
DeepSeek-V2, section 2.1, for MLA):

- MHA: a key and a value for every head, 2 x heads x head size values;
- GQA: the same for each of the `kv_heads` groups, 2 x kv_heads x head size;
- MQA: one shared key and value, 2 x head size;
- MLA: one compressed latent of `latent` values plus a decoupled RoPE key of `rope_dim` values (512 + 64 in
  DeepSeek-V2 and V3), shared by all heads.

Tensor parallelism over T chips splits the KV heads: each chip holds kv_heads / T of them, or one replica of a head
when T exceeds the heads (Megatron-style). MLA's latent belongs to no head, so every chip of a tensor-parallel group
holds all of it. Paged allocation (Kwon et al. 2023, vLLM) hands out blocks of `block` tokens as a sequence grows,
so a sequence wastes less than one block; a contiguous allocator reserves the maximum length up front.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from calckit.charts import POINT_COLOR, decade_domain, layered, log_axis
from calckit.errors import InputError
from calckit.spec import Calculator, Choice, Input, Output, Result, Value, number, text

__all__ = ["KINDS", "KV_CACHE", "kv_values_per_token_layer"]

KINDS = {
    "mha": "Multi-head (MHA)",
    "gqa": "Grouped-query (GQA)",
    "mqa": "Multi-query (MQA)",
    "mla": "Multi-head latent (MLA)",
}


def kv_values_per_token_layer(
    kind: str, heads: float, kv_heads: float, head_dim: float, latent: float, rope: float
) -> float:
    """Values one token keeps in one layer."""
    if kind == "mha":
        return 2 * heads * head_dim
    if kind == "gqa":
        return 2 * kv_heads * head_dim
    if kind == "mqa":
        return 2 * head_dim
    return latent + rope


def _per_chip_share(kind: str, heads: int, kv_heads: int, tp: int) -> float:
    """The share of one token's cache that each of `tp` chips holds."""
    if kind == "mla":
        return 1.0
    groups = {"mha": heads, "gqa": kv_heads, "mqa": 1}[kind]
    return max(groups / tp, 1.0) / groups


def _text(key: str, value: Value) -> str:
    return KV_CACHE.output(key).text(value)


def _resolve(values: dict[str, Value]) -> dict[str, Value]:
    """Grouped-query attention shares each KV head among query heads, so a model has no more KV heads than query
    heads: more is a slip to point out, not a figure to lower quietly."""
    heads, kv_heads = int(number(values, "heads")), int(number(values, "kv_heads"))
    if text(values, "attention") == "gqa" and kv_heads > heads:
        advice = f"Use {heads:,} or fewer: a model has no more KV heads than query heads (you typed {kv_heads:,})."
        raise InputError("kv_heads", f"<= heads ({heads:,})", kv_heads, advice)
    return values


def _compute(inputs: Mapping[str, Value]) -> Result:
    kind = text(inputs, "attention")
    layers, heads = int(number(inputs, "layers")), int(number(inputs, "heads"))
    kv_heads = int(number(inputs, "kv_heads"))  # no more than `heads` (_resolve)
    head_dim = int(number(inputs, "head_dim"))
    latent, rope = int(number(inputs, "latent")), int(number(inputs, "rope_dim"))
    size = float(text(inputs, "kv_bytes"))
    tp, block = int(number(inputs, "tp")), int(number(inputs, "block"))
    context, longest = number(inputs, "context"), number(inputs, "max_context")
    batch = number(inputs, "batch")
    values = kv_values_per_token_layer(kind, heads, kv_heads, head_dim, latent, rope)
    per_token = values * layers * size
    mha = 2 * heads * head_dim * layers * size
    per_chip_token = per_token * _per_chip_share(kind, heads, kv_heads, tp)
    paged_tokens = math.ceil(context / block) * block
    reserved_tokens = max(longest, context)
    per_chip_batch = per_chip_token * paged_tokens * batch
    summary = (
        f"{KINDS[kind]} keeps {_text('per_token', per_token)} per token ({_text('vs_mha', per_token / mha)} of "
        f"multi-head attention's); a batch of {int(batch):,} at {int(context):,} tokens takes "
        f"{_text('batch_per_chip', per_chip_batch)} " + (f"on each of {tp:,} chips" if tp > 1 else "on one chip") + ", "
        f"paged in blocks of {block:,}, against "
        f"{_text('reserved_per_chip', per_chip_token * reserved_tokens * batch)} reserved at the maximum length."
    )
    return Result(
        {
            "per_token": per_token,
            "vs_mha": per_token / mha,
            "per_token_chip": per_chip_token,
            "per_sequence": per_token * context,
            "batch_per_chip": per_chip_batch,
            "paged_waste": (paged_tokens - context) / paged_tokens,
            "reserved_per_chip": per_chip_token * reserved_tokens * batch,
            "reserved_waste": (reserved_tokens - context) / reserved_tokens,
        },
        summary,
        chart=_chart(
            kind,
            {k: kv_values_per_token_layer(k, heads, kv_heads, head_dim, latent, rope) * layers * size for k in KINDS},
            summary,
        ),
    )


def _chart(kind: str, per_token: dict[str, float], summary: str) -> dict[str, Any]:
    """Bytes per token for each kind of attention with this model's shape, the chosen one marked."""
    domain = _domain(per_token)
    bars = [
        {"attention": KINDS[k], "bytes": value, "chosen": "chosen" if k == kind else "other"}
        for k, value in per_token.items()
    ]
    return layered(
        "KV cache per token by kind of attention. " + summary,
        [
            {
                "data": {"values": bars},
                "mark": {"type": "bar"},
                "encoding": {
                    "y": {"field": "attention", "type": "nominal", "title": None, "sort": None},
                    "x": log_axis("bytes", "Bytes per token, all layers", domain),
                    # A bar on a log scale needs a start: the domain's lower end, not zero.
                    "x2": {"datum": domain[0]},
                    "color": {
                        "field": "chosen",
                        "type": "nominal",
                        "title": None,
                        "scale": {"domain": ["chosen", "other"], "range": [POINT_COLOR, "#adb5bd"]},
                        # Below the plot: on a phone a legend at the side takes a third of the width.
                        "legend": {"orient": "bottom", "direction": "vertical"},
                    },
                    "tooltip": [
                        {"field": "attention", "type": "nominal"},
                        {"field": "bytes", "type": "quantitative", "title": "bytes per token", "format": ".3~s"},
                    ],
                },
            }
        ],
        height=180,
    )


def _domain(per_token: dict[str, float]) -> tuple[float, float]:
    """Whole decades around the bars, at least one wide even when every kind keeps the same bytes."""
    return decade_domain(min(per_token.values()) / 2, max(per_token.values()) * 2, margin=0)


_MLA = ("attention", ("mla",))
_GQA = ("attention", ("gqa",))

KV_CACHE = Calculator(
    name="kv-cache",
    title="KV cache per token: MHA, GQA, MQA and MLA",
    description=(
        "The bytes of KV cache per token for each kind of attention, per chip under tensor parallelism, paged or "
        "reserved, at any precision."
    ),
    inputs=(
        Input(
            "attention",
            "Attention",
            kind="choice",
            default="gqa",
            choices=tuple(Choice(k, v) for k, v in KINDS.items()),
        ),
        # Defaults: Llama 3 70B (Meta's config.json: 80 layers, 64 query heads and 8 KV heads of 128).
        Input("layers", "Layers", kind="integer", default=80, min=1, max=10_000),
        Input("heads", "Query heads", kind="integer", default=64, min=1, max=10_000),
        Input("kv_heads", "KV heads", kind="integer", default=8, min=1, max=10_000, shown_when=_GQA),
        Input("head_dim", "Head size", kind="integer", default=128, min=1, max=100_000),
        # DeepSeek-V2 and V3: d_c = 512, d_h^R = 64 (DeepSeek-AI 2024, section 2.1.2 and appendix).
        Input("latent", "Latent size d_c", kind="integer", default=512, min=1, max=100_000, shown_when=_MLA),
        Input("rope_dim", "RoPE key size", kind="integer", default=64, min=0, max=100_000, shown_when=_MLA),
        Input(
            "kv_bytes",
            "Bytes per cached value",
            kind="choice",
            default="2",
            choices=(
                Choice("2", "2 (BF16 / FP16)"),
                Choice("1", "1 (FP8 / INT8)"),
                Choice("0.5", "0.5 (4-bit)"),
            ),
        ),
        Input("tp", "Tensor-parallel chips", kind="integer", default=1, min=1, max=10_000),
        Input("context", "Tokens per sequence", kind="integer", default=8192, min=1, max=1e8),
        Input(
            "max_context",
            "Longest sequence allowed",
            unit="tokens",
            kind="integer",
            default=32768,
            min=1,
            max=1e8,
            help="What a contiguous allocator reserves for every sequence.",
        ),
        Input("block", "Page size", unit="tokens", kind="integer", default=16, min=1, max=1e6, help="vLLM: 16."),
        Input("batch", "Sequences", kind="integer", default=64, min=1, max=1e6),
    ),
    outputs=(
        Output("per_token", "Per token, all layers", unit="B", format="si"),
        Output("vs_mha", "Against multi-head attention", format="percent"),
        Output("per_token_chip", "Per token, on each chip", unit="B", format="si"),
        Output("per_sequence", "Per sequence", unit="B", format="si"),
        Output("batch_per_chip", "Whole batch, each chip, paged", unit="B", format="si"),
        Output("paged_waste", "Paged: share allocated but unused", format="percent"),
        Output("reserved_per_chip", "Whole batch, each chip, reserved at the longest", unit="B", format="si"),
        Output("reserved_waste", "Reserved: share allocated but unused", format="percent"),
    ),
    compute=_compute,
    resolve=_resolve,
)
