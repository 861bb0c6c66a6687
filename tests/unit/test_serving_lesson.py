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
        f"The four H200s of the table use {four['energy_per_million_output']:.2f} kWh per million tokens",
        f"{four['tokens_per_joule']:.2f} tokens per joule",
        f"and the two MI300X {mi300x['energy_per_million_output']:.2f} kWh at 750 W, {mi300x['tokens_per_joule']:.2f}",
        f"a million tokens cost ${four['cost_per_million_output']:.2f} on the four H200s and "
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
