"""Speculative decoding: a small draft model proposes k tokens, the large model checks them all in one step.

With each drafted token accepted independently with probability a (Leviathan, Kalman and Matias, "Fast Inference
from Transformers via Speculative Decoding", ICML 2023, eq. 1), one verifier step yields on average

    E = (1 - a^(k + 1)) / (1 - a)          tokens (k + 1 when a = 1),

the accepted prefix plus the one token the verifier always adds. A step costs k draft steps of c each (c: the draft's
step time over the verifier's) plus one verification of v (1 while decode is memory-bound: checking k + 1 tokens reads
the weights once, as one token does; more once the batch makes the verifier compute-bound). So the speed-up over plain
decoding is E / (k c + v), the paper's (1 - a^(k+1)) / ((1 - a)(k c + 1)) when v = 1 (its Theorem 3.8).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from calckit.charts import layered
from calckit.spec import Calculator, Input, Output, Result, Value, number
from calckit.units import format_number

__all__ = ["SPECULATIVE", "expected_tokens", "speedup"]

MAX_DRAFT = 32


def expected_tokens(acceptance: float, draft: int) -> float:
    """Tokens per verifier step: 1 + a + a^2 + ... + a^k."""
    return float(draft + 1) if acceptance >= 1 else (1 - acceptance ** (draft + 1)) / (1 - acceptance)


def speedup(acceptance: float, draft: int, cost: float, verify: float = 1.0) -> float:
    return expected_tokens(acceptance, draft) / (draft * cost + verify)


def _text(key: str, value: Value) -> str:
    return SPECULATIVE.output(key).text(value)


def _compute(inputs: Mapping[str, Value]) -> Result:
    a, k = number(inputs, "acceptance"), int(number(inputs, "draft_tokens"))
    c, v = number(inputs, "draft_cost"), number(inputs, "verify_cost")
    tokens = expected_tokens(a, k)
    gain = speedup(a, k, c, v)
    best = max(range(1, MAX_DRAFT + 1), key=lambda j: speedup(a, j, c, v))
    best_gain = speedup(a, best, c, v)
    wasted = k - (tokens - 1)
    summary = (
        f"Drafting {format_number(k)} tokens accepted with probability {format_number(a)} yields "
        f"{_text('tokens_per_step', tokens)} tokens per verifier step and "
        + (f"a speed-up of {_text('speedup', gain)}" if gain >= 1 else f"a slow-down ({_text('speedup', gain)})")
        + f"; the best draft length here is {format_number(best)} ({_text('best_speedup', best_gain)})."
    )
    return Result(
        {
            "tokens_per_step": tokens,
            "speedup": gain,
            "step_cost": k * c + v,
            "wasted": wasted,
            "best_draft": float(best),
            "best_speedup": best_gain,
        },
        summary,
        chart=_chart(a, k, c, v, summary),
    )


def _chart(a: float, k: int, c: float, v: float, summary: str) -> dict[str, Any]:
    points = [{"draft": j, "speedup": speedup(a, j, c, v)} for j in range(1, 17)]
    top = max(2.0, *(p["speedup"] for p in points), speedup(a, k, c, v))
    x = {"field": "draft", "type": "quantitative", "title": "Draft length k", "scale": {"domain": [1, max(16, k)]}}
    y = {"field": "speedup", "type": "quantitative", "title": "Speed-up", "scale": {"domain": [0, top * 1.05]}}
    return layered(
        "Speed-up against draft length. " + summary,
        [
            {
                "data": {"values": points},
                "mark": {"type": "line", "strokeWidth": 2, "point": True},
                "encoding": {
                    "x": x,
                    "y": y,
                    "tooltip": [
                        {"field": "draft", "type": "quantitative", "title": "k"},
                        {"field": "speedup", "type": "quantitative", "title": "speed-up", "format": ".3~g"},
                    ],
                },
            },
            {
                "data": {"values": [{"draft": 1, "speedup": 1.0}, {"draft": max(16, k), "speedup": 1.0}]},
                "mark": {"type": "line", "strokeDash": [4, 4], "strokeWidth": 1},
                "encoding": {
                    "x": {"field": "draft", "type": "quantitative"},
                    "y": {"field": "speedup", "type": "quantitative"},
                },
            },
            {
                "data": {"values": [{"draft": k, "speedup": speedup(a, k, c, v)}]},
                "mark": {"type": "point", "filled": True, "size": 110, "color": "#e8590c"},
                "encoding": {
                    "x": {"field": "draft", "type": "quantitative"},
                    "y": {"field": "speedup", "type": "quantitative"},
                },
            },
        ],
    )


SPECULATIVE = Calculator(
    name="speculative",
    title="Speculative decoding",
    description=(
        "Expected tokens per verifier step and the speed-up of speculative decoding, from the acceptance rate, the "
        "draft length and the draft's cost (Leviathan et al., 2023)."
    ),
    inputs=(
        Input(
            "acceptance",
            "Acceptance rate a",
            default=0.8,
            min=0,
            max=1,
            step=0.01,
            slider="linear",
            help="The chance that the verifier keeps a drafted token, taken as the same for every token.",
        ),
        Input("draft_tokens", "Draft length k", kind="integer", default=4, min=1, max=MAX_DRAFT, slider="linear"),
        Input(
            "draft_cost",
            "Draft step / verifier step, c",
            default=0.05,
            min=0,
            max=10,
            step=0.01,
            help="A draft model 20 times smaller, memory-bound like the verifier, costs about 0.05.",
        ),
        Input(
            "verify_cost",
            "Verifying k + 1 tokens / one decode step, v",
            default=1.0,
            min=0.01,
            max=1000,
            step=0.01,
            help="1 while decode is memory-bound; up to k + 1 once the batch makes it compute-bound.",
        ),
    ),
    outputs=(
        Output("tokens_per_step", "Tokens per verifier step", help="(1 − a^(k+1)) / (1 − a)."),
        Output("speedup", "Speed-up over plain decoding", unit="×"),
        Output("step_cost", "Cost of one round, in decode steps", help="k × c + v."),
        Output("wasted", "Drafted tokens thrown away per round"),
        Output("best_draft", "Best draft length, 1 to 32"),
        Output("best_speedup", "Speed-up at the best draft length", unit="×"),
    ),
    compute=_compute,
)
