"""The figures docs/lessons/serving-economics.md quotes, each phrase built from the serving calculator's value.

Hand calculations and sources are in tests/unit/test_serving.py (Llama 3 70B from Meta's config.json; H200 and
MI300X from the chip database, NVIDIA's and AMD's pages).
"""

from __future__ import annotations

import pytest

from calckit.book import calculator as get

from .page_text import assert_says

SERVING, MATMUL = get("serving"), get("matmul")
PAGE = "lessons/serving-economics.md"


def _v(**inputs: object) -> dict[str, float]:
    return {k: v for k, v in SERVING.run(inputs).values.items() if isinstance(v, float)}


def test_table() -> None:
    two, four, mi300x = _v(chip="h200-sxm", chips=2), _v(chip="h200-sxm", chips=4), _v(chip="mi300x", chips=2)
    assert_says(
        PAGE,
        f"| largest batch that fits | {two['max_batch']:.0f} | {four['max_batch']:.0f} | {mi300x['max_batch']:.0f} |",
        f"| time per step, at least | (out of memory) | {four['step_time'] * 1e3:.1f} ms | "
        f"{mi300x['step_time'] * 1e3:.1f} ms |",
        f"| tokens per second, whole batch | | {four['throughput']:,.0f} | {mi300x['throughput']:,.0f} |",
        f"| tokens per second, per user | | {four['per_sequence']:.1f} | {mi300x['per_sequence']:.1f} |",
        f"The four H200s of the table use {four['energy_per_million_output']:.2f} kWh per million output tokens",
        f"{four['tokens_per_joule']:.2f} tokens per joule",
        f"and the two MI300X {mi300x['energy_per_million_output']:.2f} kWh at 750 W, {mi300x['tokens_per_joule']:.2f}",
        f"a million output tokens cost ${four['cost_per_million_output']:.2f} on the four H200s and "
        f"${mi300x['cost_per_million_output']:.2f} on the MI300X pair",
    )


def test_three_h200s_are_flagged() -> None:
    result = SERVING.run({"chip": "h200-sxm", "chips": 3})
    assert "does not divide 64 query heads and 8 KV heads" in result.notes["step_time"]
    assert_says(PAGE, "its 64 query heads, its 8 KV heads and its MLP width of 28,672 do not divide by three")


def test_pipeline_over_three_h200s() -> None:
    stage = _v(chip="h200-sxm", chips=1, params_b=23.625, layers=27, batch=22)
    token = 3 * stage["step_time"]
    four = _v(chip="h200-sxm", chips=4)
    assert_says(
        PAGE,
        f"one pass reads {(47.25e9 + 22 * 27 * 4096 * 8192) / 1e9:.1f} GB in {stage['step_time'] * 1e3:.1f} ms",
        f"a token takes {token * 1e3:.1f} ms to cross the pipeline",
        f"{1 / token:.1f} tokens per second per user, {64 / token:,.0f} for the batch, against "
        f"{four['throughput']:,.0f} on four chips",
        "`params_b` to 23.625, `layers` to 27 and `batch` to 22",
    )


def test_short_context_split_model() -> None:
    at_400 = _v(chip="h200-sxm", chips=2, context=1024, batch=400)
    at_1000 = _v(chip="h200-sxm", chips=2, context=1024, batch=1000)
    matrix = MATMUL.run({"chip": "h200-sxm", "d_model": 8192, "d_ff": 28672}).values["critical_batch"]
    assert isinstance(matrix, float)
    assert at_1000["throughput"] == pytest.approx(at_400["throughput"])  # past the turn, throughput stops growing
    assert_says(
        PAGE,
        f"the two H200s then hold {at_400['max_batch']:.0f} sequences",
        f"compute-bound from a batch of {at_400['compute_bound_batch']:.0f} on",
        f"puts it at {round(matrix)})",
        f"At batch 400 a step takes {at_400['step_time'] * 1e3:.1f} ms: {at_400['attention_time'] * 1e3:.1f} ms for "
        f"attention to read 134 GB of cache, then {at_400['matmul_time'] * 1e3:.1f} ms of weight FLOPs",
        f"{at_400['throughput']:,.0f} tokens per second whatever the batch",
        "One roofline for the whole step would say 28.9 ms at batch 400, and that decode turns compute-bound only from "
        "batch 393",
    )


def test_input_and_output_tokens() -> None:
    """Input tokens pay for the prefill at peak: (2 x 70e9 x 4,096 + 2 x 80 x 4,096^2 x 8,192) / (4 x 989e12) =
    151 ms on four H200s, 4 x 5.408 USD per hour x 151 ms / 4,096 tokens = 0.22 USD per million."""
    four, mi300x = _v(chip="h200-sxm", chips=4), _v(chip="mi300x", chips=2)
    prefill = (2 * 70e9 * 4096 + 2 * 80 * 4096**2 * 8192) / (4 * 989e12)
    assert four["prefill_time"] == pytest.approx(prefill)
    assert four["cost_per_million_input"] == pytest.approx(4 * 5.408 / 3600 * prefill / 4096 * 1e6)
    request = 4096 * four["cost_per_million_input"] / 1e6 + 512 * four["cost_per_million_output"] / 1e6
    assert round(four["cost_per_million_output"] / four["cost_per_million_input"]) == 7
    assert_says(
        PAGE,
        f"A 4,096-token prompt takes the four H200s {four['prefill_time'] * 1e3:.0f} ms to prefill at peak, "
        f"{four['energy_per_million_input']:.4f} kWh per million input tokens; the MI300X pair "
        f"{mi300x['prefill_time'] * 1e3:.0f} ms, {mi300x['energy_per_million_input']:.4f} kWh.",
        f"a million output tokens cost ${four['cost_per_million_output']:.2f} on the four H200s and "
        f"${mi300x['cost_per_million_output']:.2f} on the MI300X pair, and a million input tokens "
        f"${four['cost_per_million_input']:.2f} and ${mi300x['cost_per_million_input']:.2f}",
        f"a request of 4,096 input and 512 output tokens costs ${request:.4f} on the four H200s, "
        f"{4096 * four['cost_per_million_input'] / 1e6 / request:.0%} of it for the prompt",
    )


def test_attention_kinds() -> None:
    """Llama 3 70B's GQA: 4 x 64 x 128 over 2 x 8 x 128 x 2 bytes, 8; MHA 1; MQA 64 heads, 64; MLA with DeepSeek-V3's
    128 heads and 512 + 64 latent, 242 (tests/unit/test_decode_step.py works them)."""
    kinds = {kind: _v(attention=kind, heads=128)["attention_intensity"] for kind in ("gqa", "mha", "mqa", "mla")}
    assert (kinds["gqa"], kinds["mha"], kinds["mqa"], round(kinds["mla"])) == (8, 1, 64, 242)
    assert_says(
        PAGE,
        "(8 for Llama 3 70B: 4 × 64 × 128 FLOPs against 2 × 8 × 128 × 2 bytes per cached position and layer)",
        "multi-head attention (1 FLOP per byte)",
        "64 with 64 heads",
        "DeepSeek-V3's 128 heads do 242 FLOPs per byte",
    )
