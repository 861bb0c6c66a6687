"""Chips side by side: peak compute, memory, bandwidth, ridge point, compute per watt, what fits, decode speed.

Memory holds all of a model's parameters; a batch-1 decode step reads those one token uses, all of them for a dense
model and the active ones for a mixture of experts (`decode_step`: at batch 1 the step reads exactly the dense share
and the k experts of each MoE layer that the token was routed to)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from calckit.charts import POINT_COLOR, decade_domain, layered, log_axis
from calckit.spec import Calculator, Input, Output, Result, Table, Value, number, text, texts
from calckit.units import format_number, format_si

from .chips import PRECISION_LABELS, Chip, as_of, load_chips
from .decode_step import check_model, moe_inputs
from .hardware import bytes_per_param_input, chip_choices, precision_input

__all__ = ["COMPARISON"]

GIGA, TERA = 1e9, 1e12
RIDGES = (10, 100, 1000)  # FLOP/byte: the diagonals drawn on the chart


def _row(chip: Chip, precision: str, weights_per_param: float, params: float, active: float) -> dict[str, Any]:
    peak = chip.peak_tflops.get(precision)
    bandwidth = chip.bandwidth_tbs.value * TERA
    memory = chip.memory_gb.value * GIGA
    power = chip.power_w.value if chip.power_w else None
    return {
        "chip": chip,
        "peak": peak.value * TERA if peak else None,
        "bandwidth": bandwidth,
        "memory": memory,
        "power": power,
        "largest_model": memory / weights_per_param,
        "decode_rate": bandwidth / (active * weights_per_param),
        "fits": params * weights_per_param <= memory,
    }


def _compute(inputs: Mapping[str, Value]) -> Result:
    chips = load_chips()
    precision = text(inputs, "precision")
    named = PRECISION_LABELS[precision]  # as readers write it: BF16/FP16, not bf16
    size = float(text(inputs, "bytes_per_param"))
    params = number(inputs, "params_b") * GIGA
    active = params if int(number(inputs, "experts")) == 1 else number(inputs, "active_b") * GIGA
    rows = [_row(chips[key], precision, size, params, active) for key in texts(inputs, "chips") if key != "custom"]
    dash = "—"
    table = Table(
        columns=(
            "Chip",
            "Peak compute",
            "Memory",
            "Bandwidth",
            "Ridge point",
            "Compute per watt",
            "Largest model that fits",
            "Batch-1 decode, at most",
        ),
        rows=tuple(
            (
                row["chip"].name,
                format_si(row["peak"], "FLOP/s") if row["peak"] else f"{dash} (no {named})",
                format_si(row["memory"], "B"),
                format_si(row["bandwidth"], "B/s"),
                format_number(row["peak"] / row["bandwidth"], "FLOP/byte") if row["peak"] else dash,
                format_si(row["peak"] / row["power"], "FLOP/s per W") if row["peak"] and row["power"] else dash,
                format_number(row["largest_model"] / GIGA, "B params"),
                format_number(row["decode_rate"], "token/s") + ("" if row["fits"] else " (does not fit)"),
            )
            for row in rows
        ),
        caption=f"Dense peak at {named}; models at {format_number(size)} bytes per parameter, "
        f"decode for a {format_number(params / GIGA)} B-parameter model on one chip"
        + (f", reading its {format_number(active / GIGA)} B active parameters per token." if active < params else ".")
        + (f" Figures as of {dated}." if (dated := as_of(row["chip"] for row in rows)) else ""),
    )
    with_peak = [row for row in rows if row["peak"]]
    # A chip that cannot hold the model does not serve it at all, however fast its memory: rank those that do.
    fitting = [row for row in rows if row["fits"]]
    leaders = {
        "most_compute": _leading(with_peak, "peak"),
        "most_bandwidth": _leading(rows, "bandwidth"),
        "most_memory": _leading(rows, "memory"),
        "fastest_decode": _leading(fitting, "decode_rate"),
    }
    empty = {"most_compute": dash, "fastest_decode": NO_CHIP}
    best = {key: _names(names) if names else empty[key] for key, names in leaders.items()}
    model = f"the {format_number(params / GIGA)} B-parameter model"
    if not fitting:
        decode = f"none of them holds {model} on one chip."
    else:
        fastest = leaders["fastest_decode"]
        verb = "decodes fastest" if len(fastest) == 1 else "tie as the fastest to decode"
        decode = f"of those that hold {model} on one chip, {_names(fastest)} {verb} at batch 1"
        left_out = [row["chip"].name for row in rows if not row["fits"]]
        decode += f" ({_names(left_out)} cannot hold it)." if left_out else "."
    summary = f"Of these chips, {_leaders(leaders, named)}; {decode}"
    return Result(best, summary, chart=_chart(with_peak, summary), table=table)


NO_CHIP = "None: the model fits on none of them"


def _leading(rows: list[dict[str, Any]], key: str) -> list[str]:
    """The chips with the largest `key`: every one that ties for it, since four chips with 288 GB each all have the
    most memory, and naming only the first would tell a reader the others have less. [] for no rows."""
    top = max((row[key] for row in rows), default=None)
    return [row["chip"].name for row in rows if top is not None and row[key] >= top * (1 - 1e-9)]


def _short_name(chip: Chip) -> str:
    """A chip's name without its vendor, for a label on the chart (the tooltip and the table give the full name)."""
    name = chip.name.removeprefix(chip.vendor).strip()
    return name or chip.name


def _leaders(leaders: Mapping[str, list[str]], precision: str) -> str:
    """'A has the most BF16 compute, B the most bandwidth and memory': each set of leaders named once, in that
    order; chips that tie 'tie for the most memory'."""
    leads: dict[tuple[str, ...], list[str]] = {}
    for key, what in (
        ("most_compute", f"{precision} compute"),
        ("most_bandwidth", "bandwidth"),
        ("most_memory", "memory"),
    ):
        if leaders[key]:
            leads.setdefault(tuple(leaders[key]), []).append(what)
    parts = []
    for index, (chips, whats) in enumerate(leads.items()):
        verb = "tie for " if len(chips) > 1 else "has " if index == 0 else ""
        parts.append(f"{_names(list(chips))} {verb}the most {_names(whats)}")
    return ", ".join(parts)


def _names(names: list[str]) -> str:
    """'A', 'A and B', 'A, B and C'."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _chart(rows: list[dict[str, Any]], summary: str) -> dict[str, Any] | None:
    if not rows:
        return None
    points = [
        {
            "chip": row["chip"].name,
            "label": _short_name(row["chip"]),
            "bandwidth": row["bandwidth"] / TERA,
            "tflops": row["peak"] / TERA,
        }
        for row in rows
    ]
    x_domain = decade_domain(*(point["bandwidth"] for point in points), margin=0.5)
    y_domain = decade_domain(*(point["tflops"] for point in points), margin=0.5)
    lines = [{"ridge": f"{ridge} FLOP/byte", "bandwidth": x, "tflops": ridge * x} for ridge in RIDGES for x in x_domain]
    # Each line of equal ridge point is named where it leaves the chart (its top edge, or its right edge).
    ends = []
    for ridge in RIDGES:
        end = min(x_domain[1], y_domain[1] / ridge)
        if end > x_domain[0] and ridge * end > y_domain[0]:
            ends.append({"ridge": f"ridge {ridge} FLOP/byte", "bandwidth": end, "tflops": ridge * end})
    x = log_axis("bandwidth", "Memory bandwidth (TB/s)", x_domain)
    y = log_axis("tflops", "Peak compute (TFLOP/s)", y_domain)
    return layered(
        "Peak compute against memory bandwidth, log-log, with lines of equal ridge point. " + summary,
        [
            {
                "data": {"values": lines},
                "mark": {"type": "line", "strokeDash": [3, 3], "opacity": 0.8, "clip": True},
                "encoding": {"x": x, "y": y, "detail": {"field": "ridge", "type": "nominal"}},
            },
            {
                "data": {"values": ends},
                "mark": {"type": "text", "align": "right", "baseline": "top", "dx": -4, "dy": 4, "fontSize": 10},
                "encoding": {
                    "x": {"field": "bandwidth", "type": "quantitative"},
                    "y": {"field": "tflops", "type": "quantitative"},
                    "text": {"field": "ridge", "type": "nominal"},
                },
            },
            {
                "data": {"values": points},
                "mark": {"type": "point", "filled": True, "size": 90, "color": POINT_COLOR, "opacity": 1},
                "encoding": {
                    "x": {"field": "bandwidth", "type": "quantitative"},
                    "y": {"field": "tflops", "type": "quantitative"},
                    "tooltip": [{"field": "chip", "type": "nominal", "title": "Chip"}],
                },
            },
            {
                "data": {"values": points},
                "mark": {"type": "text", "align": "left", "dx": 7, "dy": -7, "fontSize": 11},
                "encoding": {
                    "x": {"field": "bandwidth", "type": "quantitative"},
                    "y": {"field": "tflops", "type": "quantitative"},
                    "text": {"field": "label", "type": "nominal"},
                },
            },
        ],
        height=340,
    )


COMPARISON = Calculator(
    name="compare",
    title="Chip comparison",
    description="Two or more accelerators side by side, from the chip database.",
    inputs=(
        Input(
            "chips",
            "Chips",
            kind="choices",
            default=("h100-sxm", "mi300x", "tpu-v5p"),
            choices=tuple(choice for choice in chip_choices() if choice.value != "custom"),
            min_count=2,
        ),
        precision_input(),
        Input("params_b", "Model parameters", unit="billions", default=70.0, min=0.001, max=1e5),
        *moe_inputs(70.0),
        bytes_per_param_input(),
    ),
    outputs=(
        Output("most_compute", "Most compute", format="text"),
        Output("most_bandwidth", "Most bandwidth", format="text"),
        Output("most_memory", "Most memory", format="text"),
        Output("fastest_decode", "Fastest batch-1 decode", format="text"),
    ),
    compute=_compute,
    resolve=check_model,
)
