"""The parallelism calculator: a model, a chip, a number of chips and a mesh read from the page, each strategy's step
costed by the training-step model (`training_step`), the reader's mesh beside the standard ones, and the bars of the
chart."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from calckit.charts import layered
from calckit.spec import Calculator, Choice, Input, Output, Result, Table, Value, number, text
from calckit.units import format_si

from .hardware import bandwidth_input, chip_input, figures_as_of, fill_from_chip, peak_input, precision_input
from .training_memory import ATTENTION_KERNELS, DATA_AXES, RECOMPUTES
from .training_step import Mesh, Model, Network, StepCost, Training, data_traffic, step_cost

__all__ = ["PARALLELISM"]

GIGA, TERA, MICRO = 1e9, 1e12, 1e-6


def _model(inputs: Mapping[str, Value]) -> Model:
    params = number(inputs, "params_b") * GIGA
    return Model(
        params=params,
        active=min(params, number(inputs, "active_b") * GIGA),
        layers=int(number(inputs, "layers")),
        width=int(number(inputs, "d_model")),
        experts=int(number(inputs, "experts")),
        top_k=min(int(number(inputs, "top_k")), int(number(inputs, "experts"))),
        heads=int(number(inputs, "heads")),
        seq_len=int(number(inputs, "seq_len")),
    )


def _training(inputs: Mapping[str, Value]) -> Training:
    return Training(
        grad_bytes=float(text(inputs, "grad_bytes")),
        recompute=text(inputs, "recompute"),
        attention=text(inputs, "attention"),
        sequence_parallel=text(inputs, "sequence_parallel") == "yes",
        dispatch_bytes=float(text(inputs, "dispatch_bytes")),
        node_limit=int(number(inputs, "node_limit")),
    )


def _network(inputs: Mapping[str, Value]) -> Network:
    return Network(
        kind=text(inputs, "network"),
        domain=int(number(inputs, "domain")),
        inner=number(inputs, "link_gbs") * GIGA,
        outer=number(inputs, "scaleout_gbs") * GIGA,
        inner_latency=number(inputs, "latency_us") * MICRO,
        outer_latency=number(inputs, "scaleout_latency_us") * MICRO,
    )


def _mesh(inputs: Mapping[str, Value]) -> tuple[Mesh, str]:
    """The mesh the inputs ask for, with each degree cut to one that divides what it splits; and what was cut."""
    chips, layers, experts = (int(number(inputs, key)) for key in ("chips", "layers", "experts"))
    asked = {key: int(number(inputs, key)) for key in ("tp", "pp", "ep")}
    tp = math.gcd(asked["tp"], chips)
    pp = max(d for d in range(1, min(asked["pp"], layers) + 1) if (chips // tp) % d == 0 and asked["pp"] % d == 0)
    dp = chips // (tp * pp)
    ep = math.gcd(math.gcd(asked["ep"], dp), experts)
    used = {"tp": tp, "pp": pp, "ep": ep}
    changed = [f"{_DEGREES[key]} {asked[key]} → {used[key]}" for key in used if used[key] != asked[key]]
    note = (
        "Adjusted so that each degree divides what it splits (chips, layers, experts): " + ", ".join(changed) + "."
        if changed
        else ""
    )
    mesh = Mesh(
        dp=dp,
        pp=pp,
        tp=tp,
        ep=ep,
        data_axis=text(inputs, "data_axis"),
        microbatches=int(number(inputs, "microbatches")),
    )
    return mesh, note


_DEGREES = {"tp": "tensor", "pp": "pipeline", "ep": "experts"}


def _strategies(inputs: Mapping[str, Value]) -> list[tuple[str, Mesh]]:
    chips, layers = int(number(inputs, "chips")), int(number(inputs, "layers"))
    m, experts = int(number(inputs, "microbatches")), int(number(inputs, "experts"))
    rows = [("Data parallel", Mesh(chips, 1, 1)), ("FSDP (ZeRO-3)", Mesh(chips, 1, 1, data_axis="fsdp"))]
    rows.append(("Tensor parallel", Mesh(1, 1, chips)))
    if chips <= layers:
        rows.append(("Pipeline parallel", Mesh(1, chips, 1, microbatches=m)))
    if experts > 1:
        ep = math.gcd(chips, experts)
        rows.append((f"Experts over {ep}, data over {chips}", Mesh(chips, 1, 1, ep=ep)))
    return [*rows, ("Your mesh", _mesh(inputs)[0])]


def _compute(inputs: Mapping[str, Value]) -> Result:
    model, net = _model(inputs), _network(inputs)
    tokens, peak = number(inputs, "tokens"), number(inputs, "peak_tflops") * TERA
    hbm = number(inputs, "memory_gb") * GIGA
    overlap = text(inputs, "overlap_tp") == "yes"
    run = _training(inputs)
    mesh, adjusted = _mesh(inputs)
    rows, bars, best = [], [], None
    for name, plan in _strategies(inputs):
        cost = step_cost(model, plan, tokens, peak, net, overlap, run)
        bars += _bars(name, cost)
        fits = cost.memory.total <= hbm
        if fits and (best is None or cost.step < best[1]):
            best = (name, cost.step)
        rows.append(
            (
                name,
                format_si(cost.memory.total, "B"),
                format_si(cost.compute, "s"),
                format_si(cost.communication, "s"),
                format_si(cost.exposed, "s"),
                format_si(cost.step, "s"),
                "fits" if fits else "does not fit",
            )
        )
    mine = step_cost(model, mesh, tokens, peak, net, overlap, run)
    memory = mine.memory.total
    # What each chip sends per second on the data axis of this mesh (its group and stride decide which links).
    data_link = net.gather_bandwidth(mesh.dp, mesh.tp * mesh.pp)
    tensor_link = 2 * net.inner if net.kind == "torus" else net.inner
    values: dict[str, Value] = {
        "compute": mine.compute,
        "bubble": mine.bubble,
        "data_comm": mine.data,
        "tensor_comm": mine.tensor,
        "pipeline_comm": mine.pipeline,
        "expert_comm": mine.expert,
        "exposed": mine.exposed,
        "step": mine.step,
        "efficiency": mine.compute / mine.step,
        "mfu": mine.model_compute / mine.step,
        "state": mine.memory.state,
        "activations": mine.memory.activations,
        "memory": memory,
        "fits": "yes" if memory <= hbm else f"no: {format_si(memory, 'B')} of {format_si(hbm, 'B')}",
        # Hidden when 4 P / (tp pp W) <= 4 P B / (N C): each chip all-reduces only its 1 / (tp pp) of the gradients;
        # the data axis's bytes against its window (the backward's 4 FLOPs per weight, or ZeRO-3's whole step's 6).
        "dp_tokens_per_chip": peak
        / (data_link * mesh.tp * mesh.pp)
        * data_traffic(mesh.data_axis, run.grad_bytes)
        / (6 if mesh.fsdp else 4),
        "tp_limit": 1 + 3 * model.active * tensor_link / (8 * model.layers * model.width * peak),
        "tokens_per_chip": tokens / (mesh.dp * mesh.pp * mesh.tp),
        "best": best[0] if best else "none fits",
        # Each expert's matrix meets B k / E of the batch's tokens: the ridge, in tokens at 2-byte weights, times E / k.
        "expert_critical_batch": peak / (number(inputs, "bandwidth_tbs") * TERA) * model.experts / model.top_k,
    }
    summary = (
        f"Your mesh ({mesh.dp} data × {mesh.pp} pipeline × {mesh.tp} tensor"
        + (f", experts over {mesh.ep}" if mesh.ep > 1 else "")
        + f") computes for {format_si(mine.compute, 's')} per step and leaves "
        f"{format_si(mine.exposed, 's')} of communication exposed: "
        f"{PARALLELISM.output('efficiency').text(values['efficiency'])} of the step is compute"
        + (
            f" ({PARALLELISM.output('mfu').text(values['mfu'])} of it the model's, the rest recomputation)"
            if run.recompute != "none"
            else ""
        )
        + f", with {PARALLELISM.output('state').text(values['state'])} of model state and "
        f"{PARALLELISM.output('activations').text(values['activations'])} of activations per chip, "
        f"{PARALLELISM.output('memory').text(memory)} in all: "
        + ("it fits. " if memory <= hbm else f"more than the {format_si(hbm, 'B')} a chip has. ")
        + (f"Fastest that fits: {best[0]}." if best else "No strategy fits in memory.")
        + " Tokens per chip for the data axis's traffic to hide: "
        + f"{PARALLELISM.output('dp_tokens_per_chip').text(values['dp_tokens_per_chip'])}."
        + figures_as_of(inputs)
    )
    table = Table(
        ("Strategy", "Memory per chip", "Compute", "Communication", "Exposed", "Step", "Memory"),
        tuple(rows),
        caption="Each strategy on all the chips, one step; memory is model state and activations.",
    )
    return Result(
        values, summary, chart=_chart(bars, summary), table=table, notes={"step": adjusted} if adjusted else {}
    )


def _chart(bars: list[dict[str, Any]], summary: str) -> dict[str, Any]:
    """Compute, bubble and exposed communication per strategy, stacked: the longer bar is the slower step. The axis
    ends at three times the fastest step, so that one hopeless strategy does not flatten the rest; a bar that runs
    past it is cut, and every bar's total is written at its end."""
    totals: dict[str, float] = {}
    for bar in bars:
        totals[bar["strategy"]] = max(totals.get(bar["strategy"], 0.0), bar["end"])
    right = 3 * min(totals.values()) or 1.0
    labels = [
        {"strategy": name, "at": min(total, right), "label": format_si(total, "s") + (" →" if total > right else "")}
        for name, total in totals.items()
    ]
    y = {"field": "strategy", "type": "nominal", "title": None, "sort": None}
    return layered(
        "Step time by strategy: compute, pipeline bubble and exposed communication. " + summary,
        [
            {
                "data": {"values": bars},
                "mark": {"type": "bar", "clip": True},
                "encoding": {
                    "y": y,
                    "x": {
                        "field": "start",
                        "type": "quantitative",
                        "title": "Seconds per step",
                        "scale": {"domain": [0, right * 1.25]},
                    },
                    "x2": {"field": "end"},
                    "color": {
                        "field": "part",
                        "type": "nominal",
                        "title": None,
                        "scale": {"domain": list(_PARTS), "range": ["#4263eb", "#adb5bd", "#e8590c"]},
                        "legend": {"orient": "bottom", "direction": "vertical"},
                    },
                    "tooltip": [
                        {"field": "strategy", "type": "nominal"},
                        {"field": "part", "type": "nominal"},
                        {"field": "time", "type": "quantitative", "title": "seconds", "format": ".3~s"},
                    ],
                },
            },
            {
                "data": {"values": labels},
                "mark": {"type": "text", "align": "left", "dx": 4},
                "encoding": {
                    "y": y,
                    "x": {"field": "at", "type": "quantitative"},
                    "text": {"field": "label", "type": "nominal"},
                },
            },
        ],
        height=40 + 36 * len(totals),
    )


_PARTS = ("compute", "pipeline bubble", "exposed communication")


def _bars(name: str, cost: StepCost) -> list[dict[str, Any]]:
    parts = (cost.compute, cost.compute / (1 - cost.bubble) - cost.compute, cost.exposed)
    bars, start = [], 0.0
    for part, time in zip(_PARTS, parts, strict=True):
        bars.append({"strategy": name, "part": part, "start": start, "end": start + time, "time": time})
        start += time
    return bars


_SWITCHED = ("network", ("switched",))
_FILL = fill_from_chip("peak_tflops", "bandwidth_tbs", "memory_gb")

PARALLELISM = Calculator(
    name="parallelism",
    title="Parallelism strategies for one training step",
    description=(
        "Given a model, a chip, a number of chips and a mesh: each strategy's compute and communication time per "
        "step, what is exposed, and which fits in memory."
    ),
    inputs=(
        chip_input("h100-sxm"),
        precision_input(),
        peak_input(989.4),
        bandwidth_input(3.35),
        Input("memory_gb", "Memory per chip", unit="GB", default=80.0, min=0.001, max=1e6, filled_by="chip"),
        Input(
            "network",
            "Network",
            kind="choice",
            default="switched",
            choices=(
                Choice("switched", "Scale-up switch plus scale-out network (GPUs)"),
                Choice("torus", "3-D torus (TPU ICI)"),
            ),
        ),
        Input(
            "link_gbs",
            "Scale-up bandwidth, one direction",
            unit="GB/s",
            default=450.0,
            min=0.001,
            max=1e5,
            help="Per chip on a switch (H100 NVLink: 450); per link on a torus (TPU v5p ICI: 90).",
        ),
        Input("latency_us", "Scale-up latency per step", unit="µs", default=0.6, min=0, max=1e4),
        Input("domain", "Chips per scale-up domain", kind="integer", default=8, min=1, max=1e5, shown_when=_SWITCHED),
        Input(
            "scaleout_gbs",
            "Scale-out bandwidth per chip, one direction",
            unit="GB/s",
            default=50.0,
            min=0.001,
            max=1e5,
            shown_when=_SWITCHED,
            help="A 400 Gb/s NIC per GPU: 50 GB/s.",
        ),
        Input(
            "scaleout_latency_us",
            "Scale-out latency per step",
            unit="µs",
            default=2.7,
            min=0,
            max=1e4,
            shown_when=_SWITCHED,
        ),
        Input("chips", "Chips", kind="integer", default=1024, min=1, max=1e6),
        # Defaults: Llama 3 70B (Meta's config.json: 80 layers, hidden 8,192), dense.
        Input("params_b", "Parameters, all", unit="billions", default=70.0, min=0.001, max=1e5),
        Input(
            "active_b",
            "Parameters active per token",
            unit="billions",
            default=70.0,
            min=0.001,
            max=1e5,
            help="The same as all for a dense model; fewer for a mixture of experts.",
        ),
        Input("layers", "Layers", kind="integer", default=80, min=1, max=10_000),
        Input("d_model", "Model width D", kind="integer", default=8192, min=1, max=1e6),
        Input("experts", "Experts per MoE layer", kind="integer", default=1, min=1, max=10_000, help="1 for dense."),
        Input("top_k", "Experts per token, k", kind="integer", default=1, min=1, max=10_000),
        Input("heads", "Attention heads", kind="integer", default=64, min=1, max=10_000),
        Input("seq_len", "Sequence length", unit="tokens", kind="integer", default=8192, min=1, max=1e8),
        Input("tokens", "Global batch", unit="tokens", default=4_194_304.0, min=1, max=1e10),
        Input(
            "data_axis",
            "Data axis",
            kind="choice",
            default="fsdp",
            choices=tuple(Choice(key, label) for key, label in DATA_AXES.items()),
        ),
        Input(
            "grad_bytes",
            "Gradients kept and reduced in",
            kind="choice",
            default="2",
            choices=(Choice("2", "BF16 (2 bytes)"), Choice("4", "FP32 (4 bytes), as large runs reduce them")),
        ),
        Input("tp", "Tensor-parallel degree", kind="integer", default=8, min=1, max=1e5),
        Input(
            "sequence_parallel",
            "Sequence parallelism on the tensor axis",
            kind="choice",
            default="yes",
            choices=(Choice("yes", "Yes: layer norms and dropouts split too"), Choice("no", "No")),
        ),
        Input("pp", "Pipeline stages", kind="integer", default=1, min=1, max=1e4),
        Input(
            "microbatches",
            "Microbatches per step",
            kind="integer",
            default=1,
            min=1,
            max=1e5,
            help="Each holds the global batch / (data degree × this) tokens of activations; a pipeline's first "
            "stage holds up to as many as it has stages (1F1B).",
        ),
        Input("ep", "Expert-parallel degree", kind="integer", default=1, min=1, max=10_000),
        Input(
            "dispatch_bytes",
            "Tokens dispatched to the experts in",
            kind="choice",
            default="2",
            choices=(Choice("2", "BF16"), Choice("1", "FP8, combined in BF16 (DeepSeek-V3)")),
        ),
        Input(
            "node_limit",
            "Most nodes a token's experts may span",
            kind="integer",
            default=0,
            min=0,
            max=100_000,
            help="0 for no limit. DeepSeek-V3 routes each token to at most 4 nodes and sends it to each once over "
            "the network, then over NVLink to its experts there.",
        ),
        Input(
            "overlap_tp",
            "Tensor and expert traffic overlapped with compute",
            kind="choice",
            default="no",
            choices=(
                Choice("no", "No: it waits on the critical path"),
                Choice("yes", "Yes: hidden where compute allows"),
            ),
        ),
        Input(
            "recompute",
            "Activation recomputation",
            kind="choice",
            default="none",
            choices=tuple(Choice(key, label) for key, label in RECOMPUTES.items()),
            help="Recomputed FLOPs count in the step's compute (HFU), not in the model's (MFU).",
        ),
        Input(
            "attention",
            "Attention kernel",
            kind="choice",
            default="flash",
            choices=tuple(Choice(key, label) for key, label in ATTENTION_KERNELS.items()),
        ),
    ),
    outputs=(
        Output("compute", "Compute per step, at peak", unit="s", format="si", help="Recomputation included."),
        Output("bubble", "Pipeline bubble", format="percent"),
        Output("data_comm", "Data-axis communication", unit="s", format="si"),
        Output("tensor_comm", "Tensor-parallel communication", unit="s", format="si"),
        Output("pipeline_comm", "Pipeline communication", unit="s", format="si"),
        Output("expert_comm", "Expert all-to-all", unit="s", format="si"),
        Output("exposed", "Communication not hidden", unit="s", format="si"),
        Output("step", "Step time", unit="s", format="si"),
        Output(
            "efficiency",
            "Share of the step spent computing",
            format="percent",
            help="Hardware FLOPs utilisation at peak: recomputed FLOPs included.",
        ),
        Output("mfu", "Share of the step on the model's FLOPs", format="percent", help="MFU at peak."),
        Output("state", "Model state per chip", unit="B", format="si"),
        Output("activations", "Activations per chip", unit="B", format="si"),
        Output("memory", "Memory per chip", unit="B", format="si", help="Model state and activations."),
        Output("fits", "Fits in memory", format="text"),
        Output(
            "dp_tokens_per_chip",
            "Tokens per chip for data-axis traffic to hide",
            help="Peak / (what each chip sends per second on the data axis × tensor × pipeline degree): each chip "
            "reduces only its shard of the gradients. Tokens; more with FP32 gradients.",
        ),
        Output(
            "tp_limit",
            "Tensor degree at which its traffic equals compute",
            help="1 + 3 P W / (8 L D C): four all-reduces of the activations per layer against the layer's FLOPs.",
        ),
        Output("tokens_per_chip", "Tokens per chip in your mesh", digits=5),
        Output("best", "Fastest strategy that fits", format="text"),
        Output(
            "expert_critical_batch",
            "Tokens per step for the MLP or expert matmuls to turn compute-bound",
            help="Peak / HBM bandwidth × experts / experts per token (16-bit weights, large matrices).",
        ),
    ),
    compute=_compute,
    resolve=_FILL,
)
