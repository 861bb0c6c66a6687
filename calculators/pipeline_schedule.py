"""Pipeline schedules: the bubble each one leaves and the activations each stage holds at its peak.

A model cut into S stages runs M micro-batches per step. F is the time of one micro-batch's forward pass through one
stage; its backward pass is split, as Qi et al. split it, into B, the gradient of the stage's input (which the
previous stage waits for), and W, the gradient of its weights (which nobody waits for). A stage computes for
M (F + B + W) per step whatever the schedule; the schedules differ in how long it idles, the bubble, and in how many
micro-batches' activations it holds at once. A is the activation bytes one micro-batch leaves on one stage.

- GPipe (Huang et al., NeurIPS 2019): every forward, then every backward. Bubble (S - 1)(F + B + W); each stage
  holds all M micro-batches before its first backward.
- 1F1B (Narayanan et al., SC21, section 2.2.1; PipeDream-Flush): the same bubble, (S - 1)/M of the compute, but
  stage r (from 0) starts its backward passes after S - r forwards and then alternates, so it holds min(S - r, M).
- Interleaved 1F1B (same paper, section 2.2.2): each device holds v chunks of L / (S v) layers, so the bubble
  shrinks v-fold, (S - 1)(F + B + W) / v. Megatron-LM's warm-up runs 2 (S - r - 1) + (v - 1) S chunk-forwards on
  rank r before its first backward, each chunk holding A / v: the first stage peaks at A (S + (S - 1) / v), the
  factor 1 + (S - 1)/(S v) of Korthikanti et al. (MLSys 2023, section 4.2.3). It needs M a multiple of S.
- Zero bubble, ZB-H1 (Qi et al., ICLR 2024, section 2.1): W passes are deferred into the cool-down's idle slots;
  bubble (S - 1)(F + B - W) (the DeepSeek-V3 report's (PP - 1)(F + B - 2W), its B being the whole backward),
  a third of 1F1B's when F = B = W, with no more in flight than 1F1B's peak (taken as 1F1B's count per stage).
- DualPipe (DeepSeek-V3 technical report, 2024, section 3.2.1 and table 2): micro-batches enter from both ends,
  half each way, every device holding the chunks of stage r and of stage S - 1 - r (two copies of a stage's
  weights). Bubble (S/2 - 1)(F&B + B - 3W) in the report's terms, where F&B, a forward and a backward chunk
  overlapped, takes F + B here (the overlap hides communication, which no schedule is charged for); in this
  module's B and W that is (S/2 - 1)(F + 2B - W). Stage r holds S - r micro-batches of one direction and r + 1 of
  the other: S + 1, the report's PP + 1, on every stage. It needs S even and M even and at least 2 S.

Communication between stages is not charged, nor the optimizer step, nor the synchronisation that ZB's post-update
validation removes. Outside a schedule's conditions the formulas are still applied, with a note saying so.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from calckit.charts import layered
from calckit.spec import Calculator, Choice, Input, Output, Result, Table, Value, number, text
from calckit.units import format_number, format_percent, format_si

__all__ = ["PIPELINE_SCHEDULE", "SCHEDULES", "Plan", "bubble_time", "held_microbatches", "plan", "problem"]

GIGA, MILLI = 1e9, 1e-3

SCHEDULES = {
    "gpipe": "GPipe",
    "1f1b": "1F1B",
    "interleaved": "Interleaved 1F1B",
    "zero-bubble": "Zero bubble (ZB-H1)",
    "dualpipe": "DualPipe",
}


def bubble_time(
    schedule: str, stages: int, microbatches: int, virtual: int, forward: float, backward: float, weight: float
) -> float:
    """Idle time per device per step, in the unit of the pass times. `backward` is the input-gradient pass B alone;
    `weight` the weight-gradient pass W (1F1B's whole backward is B + W)."""
    s, whole = stages - 1, forward + backward + weight
    if schedule in ("gpipe", "1f1b"):
        return s * whole
    if schedule == "interleaved":
        return s * whole / virtual
    if schedule == "zero-bubble":
        return s * max(0.0, forward + backward - weight)
    if schedule == "dualpipe":
        return max(0.0, stages / 2 - 1) * max(0.0, forward + 2 * backward - weight)
    raise ValueError(f"unknown schedule '{schedule}': one of {', '.join(SCHEDULES)}")


def held_microbatches(schedule: str, stages: int, microbatches: int, virtual: int, stage: int) -> float:
    """How many micro-batches' activations stage `stage` (0 is the first) holds at its peak; a chunk of an
    interleaved stage counts as 1 / v of one."""
    s, m, r = stages, microbatches, stage
    if schedule == "gpipe":
        return float(m)
    if schedule in ("1f1b", "zero-bubble"):
        return float(min(s - r, m))
    if schedule == "interleaved":
        chunks = 2 * (s - r - 1) + (virtual - 1) * s + 1
        return min(chunks, m * virtual) / virtual
    if schedule == "dualpipe":
        half = m / 2
        return min(s - r, half) + min(r + 1, half)
    raise ValueError(f"unknown schedule '{schedule}': one of {', '.join(SCHEDULES)}")


def problem(schedule: str, stages: int, microbatches: int) -> str:
    """'' when the schedule runs as published with these counts; otherwise what it needs."""
    s, m = stages, microbatches
    if schedule == "interleaved" and m % s:
        return f"The interleaved schedule needs micro-batches in a multiple of the {s} stages (Megatron-LM's rule)."
    if schedule in ("interleaved", "zero-bubble") and m < s:
        return f"With fewer micro-batches than the {s} stages the pipeline never fills; the formula flatters it."
    if schedule == "dualpipe" and (s % 2 or m % 2 or m < 2 * s):
        return (
            f"DualPipe needs an even number of stages and an even number of micro-batches, at least {2 * s} here "
            "(twice the stages, as DeepSeek's code asserts); the formula is stretched beyond that."
        )
    return ""


@dataclass(frozen=True)
class Plan:
    """One schedule's step for the inputs: times in seconds, activations in bytes, per stage from the first."""

    bubble: float
    compute: float
    held: tuple[float, ...]
    activations: tuple[float, ...]
    copies: int

    @property
    def step(self) -> float:
        return self.compute + self.bubble


def plan(schedule: str, inputs: Mapping[str, Value]) -> Plan:
    s, m, v = (int(number(inputs, key)) for key in ("stages", "microbatches", "virtual"))
    f, b, w = (number(inputs, key) * MILLI for key in ("forward_ms", "backward_ms", "weight_ms"))
    per_microbatch = number(inputs, "activation_gb") * GIGA
    held = tuple(held_microbatches(schedule, s, m, v, r) for r in range(s))
    return Plan(
        bubble=bubble_time(schedule, s, m, v, f, b, w),
        compute=m * (f + b + w),
        held=held,
        activations=tuple(count * per_microbatch for count in held),
        copies=2 if schedule == "dualpipe" else 1,
    )


def _compute(inputs: Mapping[str, Value]) -> Result:
    chosen = text(inputs, "schedule")
    plans = {key: plan(key, inputs) for key in SCHEDULES}
    mine = plans[chosen]
    state = number(inputs, "state_gb") * GIGA
    values: dict[str, Value] = {
        "bubble": mine.bubble,
        "bubble_share": mine.bubble / mine.step,
        "bubble_ratio": mine.bubble / mine.compute,
        "compute": mine.compute,
        "step": mine.step,
        "held_first": mine.held[0],
        "activations": max(mine.activations),
        "activations_last": mine.activations[-1],
        "copies": mine.copies,
        "memory": mine.copies * state + max(mine.activations),
    }
    out = PIPELINE_SCHEDULE.output
    stages, m = int(number(inputs, "stages")), int(number(inputs, "microbatches"))
    summary = (
        f"{SCHEDULES[chosen]} over {stages} stages with {m} micro-batches idles {out('bubble').text(mine.bubble)} "
        f"of a {out('step').text(mine.step)} step ({out('bubble_share').text(values['bubble_share'])}); the first "
        f"stage holds {out('held_first').text(mine.held[0])} micro-batches, "
        f"{out('activations').text(values['activations'])} of activations at the peak, and needs "
        f"{out('memory').text(values['memory'])} with its model state."
    )
    note = problem(chosen, stages, m)
    table = Table(
        ("Schedule", "Bubble", "Share of the step", "Step", "Micro-batches, first stage", "Peak activations", "Memory"),
        tuple(
            (
                SCHEDULES[key],
                format_si(p.bubble, "s"),
                format_percent(p.bubble / p.step),
                format_si(p.step, "s"),
                format_number(p.held[0]),
                format_si(max(p.activations), "B"),
                format_si(p.copies * state + max(p.activations), "B"),
            )
            for key, p in plans.items()
        ),
        caption="Every schedule for these inputs (communication not charged)."
        + "".join(f" {SCHEDULES[key]}: {problem(key, stages, m)}" for key in SCHEDULES if problem(key, stages, m)),
    )
    notes = {key: note for key in ("bubble", "bubble_share", "bubble_ratio", "step")} if note else {}
    return Result(values, summary, chart=_chart(plans, chosen, state, summary), table=table, notes=notes)


_COLORS = ("#868e96", "#4c6ef5", "#0c8599", "#d9480f", "#be4bdb")


def _chart(plans: Mapping[str, Plan], chosen: str, state: float, summary: str) -> dict[str, Any]:
    """Memory per stage for every schedule, one line each; the legend gives each schedule's bubble, and the chosen
    schedule's line is drawn thicker."""
    rows = []
    for key, p in plans.items():
        label = f"{SCHEDULES[key]}: bubble {format_percent(p.bubble / p.step)}"
        for stage, held in enumerate(p.activations, start=1):
            gigabytes = (p.copies * state + held) / GIGA
            rows.append({"schedule": label, "stage": stage, "gb": gigabytes, "chosen": key == chosen})
    stages = len(next(iter(plans.values())).held)
    return layered(
        "Memory per stage, model state and activations at the peak, for every schedule; the legend gives each "
        "schedule's bubble as a share of the step. " + summary,
        [
            {
                "data": {"values": rows},
                "mark": {"type": "line", "point": stages <= 32, "clip": True},
                "encoding": {
                    "x": {
                        "field": "stage",
                        "type": "quantitative",
                        "title": "Pipeline stage (1 is the first)",
                        "scale": {"domain": [1, max(stages, 2)]},
                        "axis": {"tickMinStep": 1, "format": "d"},
                    },
                    "y": {"field": "gb", "type": "quantitative", "title": "Memory per chip (GB)"},
                    "color": {
                        "field": "schedule",
                        "type": "nominal",
                        "title": None,
                        "sort": None,
                        # 3:1 or more against Material's light and dark backgrounds (WCAG 1.4.11).
                        "scale": {"range": list(_COLORS)},
                        "legend": {"orient": "bottom", "direction": "vertical", "labelLimit": 320},
                    },
                    # ZB-H1 holds what 1F1B holds: dashed, so that the line beneath it shows.
                    "strokeDash": {
                        "field": "schedule",
                        "type": "nominal",
                        "sort": None,
                        "scale": {"range": [[1, 0], [1, 0], [1, 0], [6, 4], [1, 0]]},
                        "legend": None,
                    },
                    "strokeWidth": {"condition": {"test": "datum.chosen", "value": 4}, "value": 1.5},
                    "tooltip": [
                        {"field": "schedule", "type": "nominal"},
                        {"field": "stage", "type": "quantitative"},
                        {"field": "gb", "type": "quantitative", "title": "GB", "format": ",.3~r"},
                    ],
                },
            }
        ],
        height=300,
    )


PIPELINE_SCHEDULE = Calculator(
    name="pipeline-schedule",
    title="Pipeline schedules: bubble and memory per stage",
    description=(
        "Given stages, micro-batches and the times of a stage's forward, input-gradient and weight-gradient passes: "
        "each schedule's bubble and step time, and the activations each stage holds at its peak."
    ),
    inputs=(
        Input(
            "schedule",
            "Schedule",
            kind="choice",
            default="1f1b",
            choices=tuple(Choice(key, label) for key, label in SCHEDULES.items()),
        ),
        Input("stages", "Pipeline stages S", kind="integer", default=8, min=1, max=512),
        Input("microbatches", "Micro-batches per step M", kind="integer", default=32, min=1, max=100_000),
        Input(
            "virtual",
            "Chunks per device v",
            kind="integer",
            default=2,
            min=2,
            max=64,
            shown_when=("schedule", ("interleaved",)),
            help="The interleaved schedule's virtual stages: each device holds v chunks of L / (S v) layers.",
        ),
        Input(
            "forward_ms",
            "Forward pass F, one micro-batch, one stage",
            unit="ms",
            default=10.0,
            min=1e-6,  # a nanosecond: what a smaller figure would mean rounds to no time at all in seconds
            max=1e6,
        ),
        Input(
            "backward_ms",
            "Input-gradient pass B",
            unit="ms",
            default=10.0,
            min=0.0,
            max=1e6,
            help="The part of the backward pass that the previous stage waits for; about F.",
        ),
        Input(
            "weight_ms",
            "Weight-gradient pass W",
            unit="ms",
            default=10.0,
            min=0.0,
            max=1e6,
            help="The part that no stage waits for; about F. The whole backward is B + W.",
        ),
        Input(
            "activation_gb",
            "Activations of one micro-batch on one stage",
            unit="GB",
            default=2.85,
            min=0.0,
            max=1e6,
            help="What the stage's layers keep for the backward pass: the training-memory calculator's figure per "
            "layer times the layers per stage.",
        ),
        Input(
            "state_gb",
            "Model state of one stage, per chip",
            unit="GB",
            default=17.5,
            min=0.0,
            max=1e6,
            help="Weights, gradients and optimizer state of the stage's layers on one chip; DualPipe keeps two.",
        ),
    ),
    outputs=(
        Output("bubble", "Bubble per step", unit="s", format="si"),
        Output("bubble_share", "Share of the step idle", format="percent"),
        Output(
            "bubble_ratio",
            "Bubble over compute time",
            format="percent",
            help="Narayanan et al.'s bubble time fraction: (S − 1)/M for 1F1B, (S − 1)/(v M) interleaved.",
        ),
        Output("compute", "Compute per step, M (F + B + W)", unit="s", format="si"),
        Output("step", "Step time", unit="s", format="si"),
        Output("held_first", "Micro-batches the first stage holds at its peak"),
        Output("activations", "Peak activations per chip", unit="B", format="si"),
        Output("activations_last", "Activations on the last stage", unit="B", format="si"),
        Output("copies", "Copies of the stage's model state"),
        Output("memory", "Peak memory per chip", unit="B", format="si", help="Model state and peak activations."),
    ),
    compute=_compute,
)
