"""The roofline model (Williams, Waterman and Patterson, "Roofline", CACM 52(4), 2009).

A kernel that does `intensity` FLOPs per byte it moves can run no faster than the lower of two ceilings: the chip's
peak compute, and its memory bandwidth times the intensity. The two meet at the ridge point, peak / bandwidth.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .charts import decade_domain, layered, log_axis
from .spec import Calculator, Input, Output, Result, Value
from .units import format_number, format_percent, format_si

__all__ = ["ROOFLINE"]

TERA = 1e12


def _compute(inputs: Mapping[str, Value]) -> Result:
    peak = float(inputs["peak_tflops"]) * TERA  # FLOP/s
    bandwidth = float(inputs["bandwidth_tbs"]) * TERA  # byte/s
    intensity = float(inputs["intensity"])  # FLOP/byte
    ridge = peak / bandwidth
    attainable = min(peak, intensity * bandwidth)
    memory_bound = intensity < ridge
    bound = "Memory-bound" if memory_bound else "Compute-bound"
    fraction = attainable / peak
    summary = (
        f"{bound}: at {format_number(intensity, 'FLOP/byte')} the chip can reach "
        f"{format_si(attainable, 'FLOP/s')}, {format_percent(fraction, digits=2)} of its peak; the ridge point is "
        f"{format_number(ridge, 'FLOP/byte')}."
    )
    return Result(
        values={"ridge": ridge, "attainable": attainable, "bound": bound, "fraction": fraction},
        summary=summary,
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
                "mark": {"type": "point", "filled": True, "size": 110, "color": "#e8590c"},
                "encoding": {
                    "x": {"field": "intensity", "type": "quantitative"},
                    "y": {"field": "tflops", "type": "quantitative"},
                    "tooltip": [
                        {"field": "intensity", "type": "quantitative", "title": "FLOP/byte", "format": ".3~s"},
                        {"field": "tflops", "type": "quantitative", "title": "TFLOP/s", "format": ".3~s"},
                    ],
                },
            },
        ],
    )


ROOFLINE = Calculator(
    name="roofline",
    title="Roofline",
    description=(
        "Which ceiling limits a kernel on a chip: peak compute, or memory bandwidth times the kernel's "
        "arithmetic intensity."
    ),
    inputs=(
        Input(
            "peak_tflops",
            "Peak compute",
            unit="TFLOP/s",
            default=989.0,
            min=0.001,
            max=1e6,
            step=0.1,
            help="Dense peak at the precision the kernel uses (NVIDIA H100 SXM, BF16: 989 TFLOP/s).",
        ),
        Input(
            "bandwidth_tbs",
            "Memory bandwidth",
            unit="TB/s",
            default=3.35,
            min=0.001,
            max=1e5,
            step=0.01,
            help="Peak bandwidth of the memory the data streams from (H100 SXM HBM3: 3.35 TB/s).",
        ),
        Input(
            "intensity",
            "Arithmetic intensity",
            unit="FLOP/byte",
            default=100.0,
            min=0.01,
            max=1e6,
            step=0.01,
            slider="log",
            help="FLOPs the kernel performs per byte it moves to or from that memory.",
        ),
    ),
    outputs=(
        Output(
            "ridge",
            "Ridge point",
            unit="FLOP/byte",
            help="Peak compute / bandwidth: the intensity where the roofs meet.",
        ),
        Output("attainable", "Attainable compute", unit="FLOP/s", format="si"),
        Output("bound", "Limited by", format="text"),
        Output("fraction", "Share of peak compute", format="percent"),
    ),
    compute=_compute,
)
