"""The roofline model (Williams, Waterman and Patterson, "Roofline", CACM 52(4), 2009).

A kernel that does `intensity` FLOPs per byte it moves can run no faster than the lower of two ceilings: the chip's
peak compute, and its memory bandwidth times the intensity. The two meet at the ridge point, peak / bandwidth.
The workload is a raw intensity, or one derived from a matrix multiply or from a language model's forward pass.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from calckit.charts import POINT_COLOR, decade_domain, layered, log_axis
from calckit.spec import Calculator, Choice, Input, Output, Result, Value, number, text

from .hardware import (
    BYTES_PER_VALUE,
    bandwidth_input,
    chip_input,
    figures_as_of,
    fill_from_chip,
    peak_input,
    precision_input,
)

__all__ = ["ROOFLINE"]

TERA = 1e12
GIGA = 1e9

WORKLOADS = (
    Choice("intensity", "An arithmetic intensity"),
    Choice("matmul", "A matrix multiply, M × N × K"),
    Choice("prefill", "LLM prefill (the prompt, all tokens at once)"),
    Choice("decode", "LLM decode (one token per sequence per step)"),
)


def _work(inputs: Mapping[str, Value]) -> tuple[float, float] | None:
    """FLOPs and bytes moved by the workload, or None for a bare intensity."""
    workload = text(inputs, "workload")
    size = BYTES_PER_VALUE[text(inputs, "precision")]
    if workload == "matmul":
        m, n, k = (number(inputs, key) for key in ("m", "n", "k"))
        # C = A B reads A (M x K) and B (K x N) and writes C (M x N) once, at best; each output is K multiply-adds.
        return 2 * m * n * k, size * (m * k + k * n + m * n)
    params = number(inputs, "params_b") * GIGA
    if workload == "prefill":
        # Every weight is read once and used for each of T tokens: 2 FLOPs per weight per token.
        return 2 * params * number(inputs, "tokens"), size * params
    if workload == "decode":
        # Each step reads every weight once and uses it for each of B sequences; KV-cache traffic is left out here.
        return 2 * params * number(inputs, "batch"), size * params
    return None


NO_FIGURE = "—"  # an output with no figure for these inputs; its note says why
RIDGE_BAND = 0.03  # within 3% of the ridge point both roofs are within 3% of each other: neither limit dominates
AT_RIDGE = "At the ridge: both limits"


def limit(intensity: float, ridge: float) -> str:
    """Which roof limits a kernel of this intensity: near the ridge point, both do (no verdict that 0.2% decides)."""
    if abs(intensity - ridge) <= RIDGE_BAND * ridge:
        return AT_RIDGE
    return "Memory-bound" if intensity < ridge else "Compute-bound"


def _text(key: str, value: Value) -> str:
    """An output's value as the form shows it: the summary writes each figure the same way."""
    return ROOFLINE.output(key).text(value)


def _compute(inputs: Mapping[str, Value]) -> Result:
    peak = number(inputs, "peak_tflops") * TERA  # FLOP/s
    bandwidth = number(inputs, "bandwidth_tbs") * TERA  # byte/s
    work = _work(inputs)
    intensity = work[0] / work[1] if work else number(inputs, "intensity")  # FLOP/byte
    ridge = peak / bandwidth
    attainable = min(peak, intensity * bandwidth)
    bound = limit(intensity, ridge)
    fraction = attainable / peak
    time: Value = work[0] / attainable if work else NO_FIGURE
    lead = "At the ridge point, both roofs limit it" if bound == AT_RIDGE else bound
    summary = (
        f"{lead}: at {_text('workload_intensity', intensity)} the chip can reach "
        f"{_text('attainable', attainable)}, {_text('fraction', fraction)} of its peak; the ridge point is "
        f"{_text('ridge', ridge)}." + figures_as_of(inputs)
    )
    return Result(
        values={
            "workload_intensity": intensity,
            "ridge": ridge,
            "attainable": attainable,
            "bound": bound,
            "fraction": fraction,
            "time": time,
        },
        summary=summary,
        notes={} if work else {"time": "Needs a workload size: pick a matrix multiply or an LLM workload."},
        chart=_chart(peak, bandwidth, ridge, intensity, attainable, summary),
    )


def _chart(
    peak: float, bandwidth: float, ridge: float, intensity: float, attainable: float, summary: str
) -> dict[str, Any]:
    x_domain = decade_domain(ridge, intensity)
    roof = [
        {"intensity": x_domain[0], "tflops": x_domain[0] * bandwidth / TERA},
        {"intensity": ridge, "tflops": peak / TERA},
        {"intensity": x_domain[1], "tflops": peak / TERA},
    ]
    y_domain = decade_domain(roof[0]["tflops"], peak / TERA, margin=0.3)
    x = log_axis("intensity", "Arithmetic intensity (FLOP/byte)", x_domain)
    y = log_axis("tflops", "Attainable compute (TFLOP/s)", y_domain)
    return layered(
        "Roofline chart. " + summary,
        [
            {
                "data": {"values": roof},
                "mark": {"type": "line", "strokeWidth": 2, "clip": True},
                "encoding": {"x": x, "y": y},
            },
            {
                "data": {"values": [{"intensity": ridge}]},
                "mark": {"type": "rule", "strokeDash": [4, 4], "opacity": 0.7},
                "encoding": {"x": {"field": "intensity", "type": "quantitative"}},
            },
            {
                "data": {"values": [{"intensity": intensity, "tflops": attainable / TERA}]},
                "mark": {"type": "point", "filled": True, "size": 110, "color": POINT_COLOR, "opacity": 1},
                "encoding": {
                    "x": {"field": "intensity", "type": "quantitative"},
                    "y": {"field": "tflops", "type": "quantitative"},
                    "tooltip": [
                        {"field": "intensity", "type": "quantitative", "title": "FLOP/byte", "format": ",.3~r"},
                        {"field": "tflops", "type": "quantitative", "title": "TFLOP/s", "format": ",.3~r"},
                    ],
                },
            },
        ],
    )


def _dimension(key: str, label: str) -> Input:
    return Input(key, label, kind="integer", default=4096, min=1, max=1e7, shown_when=("workload", ("matmul",)))


ROOFLINE = Calculator(
    name="roofline",
    title="Roofline",
    description=(
        "Which ceiling limits a kernel on a chip: peak compute, or memory bandwidth times the kernel's "
        "arithmetic intensity."
    ),
    inputs=(
        chip_input("h100-sxm"),
        precision_input(),
        peak_input(989.0),
        bandwidth_input(3.35),
        Input("workload", "Workload", kind="choice", default="intensity", choices=WORKLOADS),
        Input(
            "intensity",
            "Arithmetic intensity",
            unit="FLOP/byte",
            default=100.0,
            min=0.01,
            max=1e6,
            step=0.01,
            slider="log",
            shown_when=("workload", ("intensity",)),
            help="FLOPs the kernel performs per byte it moves to or from that memory.",
        ),
        _dimension("m", "M (rows of A)"),
        _dimension("n", "N (columns of B)"),
        _dimension("k", "K (the shared dimension)"),
        Input(
            "params_b",
            "Model parameters",
            unit="billions",
            default=7.0,
            min=0.001,
            max=1e5,
            shown_when=("workload", ("prefill", "decode")),
        ),
        Input(
            "tokens",
            "Prompt tokens",
            kind="integer",
            default=2048,
            min=1,
            max=1e7,
            shown_when=("workload", ("prefill",)),
        ),
        Input("batch", "Batch size", kind="integer", default=1, min=1, max=1e5, shown_when=("workload", ("decode",))),
    ),
    outputs=(
        Output("workload_intensity", "Workload intensity", unit="FLOP/byte"),
        Output("ridge", "Ridge point", unit="FLOP/byte", help="Peak compute / bandwidth: where the roofs meet."),
        Output("attainable", "Attainable compute", unit="FLOP/s", format="si"),
        Output("bound", "Limited by", format="text"),
        Output("fraction", "Share of peak compute", format="percent"),
        Output("time", "Time at best", unit="s", format="si", help="The workload's FLOPs at the attainable rate."),
    ),
    compute=_compute,
    resolve=fill_from_chip("peak_tflops", "bandwidth_tbs"),
)
