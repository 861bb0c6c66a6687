"""A training step split over many chips: what each strategy communicates, how long that takes against its compute,
and whether the model's state fits.

The model: P parameters in all, P_a active per token (fewer in a mixture of experts: E experts, k per token), L
layers of width D and MLP width F, a global batch of B tokens per step, 6 P_a B FLOPs per step (2 forward, 4
backward). Mixed-precision Adam keeps 16 bytes per parameter (2 weights, 2 gradients, 12 of FP32 master copy and
moments; Rajbhandari et al. 2020, ZeRO, section 3.1). Activations are left out of the memory.

A mesh is data x pipeline x tensor = N chips, tensor innermost (neighbouring chips), and experts spread over the
data axis (GShard, DeepSpeed-MoE). What crosses the links in one step, with collectives costed by `collectives`:

- data parallel: an all-reduce of each chip's gradients (2 bytes each) over the data axis (experts' over the data
  axis divided by the expert degree), overlapped with the backward pass (4/6 of the compute);
- FSDP / ZeRO-3: the weights all-gathered for the forward and again for the backward, the gradients
  reduce-scattered: three collectives of an all-gather's cost, 1.5 all-reduces, overlapped with the whole step;
- tensor parallel (Megatron-LM, Shoeybi et al. 2019): two all-reduces of the activations (B/dp x D x 2 bytes) per
  layer forward and two backward, on the critical path unless the framework overlaps them with the matmuls;
- pipeline parallel: each stage passes its activations forward and their gradients back, 2 x B/dp x D x 2 bytes,
  and idles for a bubble of (S - 1) / (M + S - 1) of the step with M microbatches (Huang et al. 2019, GPipe);
- expert parallel: each MoE layer dispatches every token's vector to its k experts and combines the results, an
  all-to-all of B/dp x k x D x 2 bytes per chip, twice forward and twice backward (Lepikhin et al. 2020, GShard).

Overlapped communication costs only what the compute does not cover: the step is compute / (1 - bubble) plus the
exposed part. On a switched network a group that fits in one scale-up domain uses its links; a larger one goes over
the scale-out network (two levels); on a torus each group is taken to run on a sub-torus of its own.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from calckit.charts import layered
from calckit.spec import Calculator, Choice, Input, Output, Result, Table, Value, number, text
from calckit.units import format_si

from .collectives import collective_cost
from .hardware import bandwidth_input, chip_input, figures_as_of, fill_from_chip, peak_input, precision_input

__all__ = ["PARALLELISM", "Mesh", "Network", "StepCost", "step_cost"]

GIGA, TERA, MICRO = 1e9, 1e12, 1e-6
STATE_BYTES = 16.0  # per parameter: Adam in mixed precision (ZeRO, section 3.1)
GRAD_BYTES = ACT_BYTES = 2.0


@dataclass(frozen=True)
class Network:
    kind: str  # "switched" or "torus"
    domain: int  # chips per scale-up domain (switched)
    inner: float  # B/s per chip (switched) or per link (torus), one direction
    outer: float  # B/s per chip between domains, one direction
    inner_latency: float
    outer_latency: float

    def gather_bandwidth(self, group: int, stride: int) -> float:
        """What each chip's share of a bandwidth-bound gather over `group` chips spaced `stride` apart moves per
        second: f V over the gather's bandwidth term. On a 3-D torus, both directions of all three axes; on a switch,
        the scale-up port while the group fits in one domain, the chip's own NIC when each domain holds one member,
        and between the two, the two-level gather's rate, which the domain's NICs together set."""
        if self.kind == "torus":
            return 6 * self.inner
        together = max(1, self.domain // stride)
        if group <= together:
            return self.inner
        if together == 1:
            return self.outer
        gather = collective_cost(
            "all-gather", "two-level", 1.0, group, self.inner, 0.0, node=together, out_link=self.outer, out_latency=0.0
        )
        return (group - 1) / group / gather.bandwidth_time

    def cost(self, op: str, size: float, group: int, stride: int) -> float:
        """Time of `op` over `group` chips spaced `stride` apart."""
        if group <= 1 or size <= 0:
            return 0.0
        if self.kind == "torus":
            return collective_cost(op, "torus-3d", size, group, self.inner, self.inner_latency).time
        together = max(1, self.domain // stride)
        if group <= together:
            return collective_cost(op, "switched", size, group, self.inner, self.inner_latency).time
        if together == 1:
            return collective_cost(op, "switched", size, group, self.outer, self.outer_latency).time
        return collective_cost(
            op,
            "two-level",
            size,
            group,
            self.inner,
            self.inner_latency,
            node=together,
            out_link=self.outer,
            out_latency=self.outer_latency,
        ).time


@dataclass(frozen=True)
class Model:
    params: float
    active: float
    layers: int
    width: int
    experts: int
    top_k: int

    @property
    def expert_params(self) -> float:
        """All experts' parameters together (0 for a dense model)."""
        if self.experts <= self.top_k:
            return 0.0
        return (self.params - self.active) / (self.experts - self.top_k) * self.experts

    @property
    def shared_params(self) -> float:
        return self.params - self.expert_params


@dataclass(frozen=True)
class Mesh:
    dp: int
    pp: int
    tp: int
    ep: int = 1
    fsdp: bool = False
    microbatches: int = 1


@dataclass(frozen=True)
class StepCost:
    compute: float  # s, at peak, without the bubble
    bubble: float  # share of the step
    data: float  # s of data-parallel or FSDP communication
    tensor: float
    pipeline: float
    expert: float
    exposed: float  # s of communication not hidden under compute
    memory: float  # bytes per chip

    @property
    def communication(self) -> float:
        return self.data + self.tensor + self.pipeline + self.expert

    @property
    def step(self) -> float:
        return self.compute / (1 - self.bubble) + self.exposed


def step_cost(model: Model, mesh: Mesh, tokens: float, peak: float, net: Network, overlap_tp: bool) -> StepCost:
    chips = mesh.dp * mesh.pp * mesh.tp
    compute = 6 * model.active * tokens / (chips * peak)
    bubble = (mesh.pp - 1) / (mesh.microbatches + mesh.pp - 1)
    split = mesh.tp * mesh.pp
    shared, experts = model.shared_params / split, model.expert_params / (split * mesh.ep)
    expert_group = mesh.dp // mesh.ep
    data = net.cost("all-reduce", shared * GRAD_BYTES, mesh.dp, split) + net.cost(
        "all-reduce", experts * GRAD_BYTES, expert_group, split * mesh.ep
    )
    if mesh.fsdp:
        data *= 1.5
    layers = model.layers / mesh.pp
    activations = tokens / mesh.dp * model.width * ACT_BYTES
    tensor = 4 * layers * net.cost("all-reduce", activations, mesh.tp, 1)
    pipeline = 0.0
    if mesh.pp > 1:
        link = net.inner if (net.kind == "torus" or mesh.tp < net.domain) else net.outer
        pipeline = 2 * activations / link
    expert = 0.0
    if model.experts > 1 and mesh.ep > 1:
        expert = 4 * layers * net.cost("all-to-all", activations * model.top_k, mesh.ep, split)
    hidden_data = compute * (1.0 if mesh.fsdp else 4 / 6)
    exposed = max(0.0, data - hidden_data) + pipeline
    exposed += max(0.0, tensor + expert - compute) if overlap_tp else tensor + expert
    shared_state = shared / (mesh.dp if mesh.fsdp else 1)
    expert_state = experts / (expert_group if mesh.fsdp else 1)
    return StepCost(
        compute, bubble, data, tensor, pipeline, expert, exposed, STATE_BYTES * (shared_state + expert_state)
    )


def _model(inputs: Mapping[str, Value]) -> Model:
    params = number(inputs, "params_b") * GIGA
    return Model(
        params=params,
        active=min(params, number(inputs, "active_b") * GIGA),
        layers=int(number(inputs, "layers")),
        width=int(number(inputs, "d_model")),
        experts=int(number(inputs, "experts")),
        top_k=min(int(number(inputs, "top_k")), int(number(inputs, "experts"))),
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
        fsdp=text(inputs, "data_axis") == "fsdp",
        microbatches=int(number(inputs, "microbatches")),
    )
    return mesh, note


_DEGREES = {"tp": "tensor", "pp": "pipeline", "ep": "experts"}


def _strategies(inputs: Mapping[str, Value]) -> list[tuple[str, Mesh]]:
    chips, layers = int(number(inputs, "chips")), int(number(inputs, "layers"))
    m, experts = int(number(inputs, "microbatches")), int(number(inputs, "experts"))
    rows = [("Data parallel", Mesh(chips, 1, 1)), ("FSDP (ZeRO-3)", Mesh(chips, 1, 1, fsdp=True))]
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
    mesh, adjusted = _mesh(inputs)
    rows, bars, best = [], [], None
    for name, plan in _strategies(inputs):
        cost = step_cost(model, plan, tokens, peak, net, overlap)
        bars += _bars(name, cost)
        fits = cost.memory <= hbm
        if fits and (best is None or cost.step < best[1]):
            best = (name, cost.step)
        rows.append(
            (
                name,
                format_si(cost.memory, "B"),
                format_si(cost.compute, "s"),
                format_si(cost.communication, "s"),
                format_si(cost.exposed, "s"),
                format_si(cost.step, "s"),
                "fits" if fits else "does not fit",
            )
        )
    mine = step_cost(model, mesh, tokens, peak, net, overlap)
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
        "memory": mine.memory,
        "fits": "yes" if mine.memory <= hbm else f"no: {format_si(mine.memory, 'B')} of {format_si(hbm, 'B')}",
        # Hidden when 4 P / (tp pp W) <= 4 P B / (N C): each chip all-reduces only its 1 / (tp pp) of the gradients.
        "dp_tokens_per_chip": peak / (data_link * mesh.tp * mesh.pp),
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
        f"{PARALLELISM.output('efficiency').text(values['efficiency'])} of the step is compute, with "
        f"{format_si(mine.memory, 'B')} of model state per chip. "
        + (f"Fastest that fits: {best[0]}." if best else "No strategy fits in memory.")
        + " Tokens per chip for the data axis's traffic to hide: "
        + f"{PARALLELISM.output('dp_tokens_per_chip').text(values['dp_tokens_per_chip'])}."
        + figures_as_of(inputs)
    )
    table = Table(
        ("Strategy", "State per chip", "Compute", "Communication", "Exposed", "Step", "Memory"),
        tuple(rows),
        caption="Each strategy on all the chips, one step; activations not counted in memory.",
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
        Input("tokens", "Global batch", unit="tokens", default=4_194_304.0, min=1, max=1e10),
        Input(
            "data_axis",
            "Data axis",
            kind="choice",
            default="fsdp",
            choices=(Choice("dp", "Data parallel (replicated state)"), Choice("fsdp", "FSDP / ZeRO-3 (sharded state)")),
        ),
        Input("tp", "Tensor-parallel degree", kind="integer", default=8, min=1, max=1e5),
        Input("pp", "Pipeline stages", kind="integer", default=1, min=1, max=1e4),
        Input("microbatches", "Microbatches per step", kind="integer", default=8, min=1, max=1e5),
        Input("ep", "Expert-parallel degree", kind="integer", default=1, min=1, max=10_000),
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
    ),
    outputs=(
        Output("compute", "Compute per step, at peak", unit="s", format="si"),
        Output("bubble", "Pipeline bubble", format="percent"),
        Output("data_comm", "Data-axis communication", unit="s", format="si"),
        Output("tensor_comm", "Tensor-parallel communication", unit="s", format="si"),
        Output("pipeline_comm", "Pipeline communication", unit="s", format="si"),
        Output("expert_comm", "Expert all-to-all", unit="s", format="si"),
        Output("exposed", "Communication not hidden", unit="s", format="si"),
        Output("step", "Step time", unit="s", format="si"),
        Output("efficiency", "Share of the step spent computing", format="percent"),
        Output("memory", "Model state per chip", unit="B", format="si"),
        Output("fits", "Fits in memory", format="text"),
        Output(
            "dp_tokens_per_chip",
            "Tokens per chip for data-axis traffic to hide",
            help="Peak / (what each chip sends per second on the data axis × tensor × pipeline degree): each chip "
            "reduces only its shard of the gradients. Tokens, at 2-byte gradients.",
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
