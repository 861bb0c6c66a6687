"""Expert-parallel decoding across nodes: the routed experts spread over many GPUs, attention data-parallel on each.

DeepSeek serves V3 and R1 this way (DeepSeek-AI, "DeepSeek-V3/R1 Inference System Overview", 2025: at decode, the
routed experts over 144 GPUs of 18 nodes, two routed experts and the shared one on each GPU, MLA data-parallel; the
DeepSeek-V3 Technical Report, section 3.4, describes an earlier unit of 320 GPUs). Each of the N GPUs (ranks) keeps b
sequences and runs their attention over its own caches; every MoE layer sends each token's hidden vector to the ranks
that hold its k experts (the dispatch) and brings the k results back (the combine). Per decode step, on one rank:

- weights read: the replicated part (attention, shared experts, dense layers, embeddings: all parameters but the
  routed experts') and the routed experts it holds that at least one token picked. With E experts, k per token and a
  global batch of B = b N tokens, an expert is left out with probability (1 - k/E)^B, so E (1 - (1 - k/E)^B) of them
  are touched; each slot of a rank counts in that share. The routed experts' parameters follow from the total P and
  the active P_a: P - P_a = (E - k) x one expert's. The model's arithmetic (the dense and routed shares, the experts
  read, the cache's bytes and attention's FLOPs for each kind) is `decode_step.Transformer`'s, which the serving
  calculators share;
- KV cache read: b x context x bytes per token (the kv-cache calculator's bytes for the kind of attention);
- FLOPs: 2 P_a b for the weights, and attention over every cached token: 4 x heads x head size per token and layer
  (scores and weighted sum), or 2 x heads x (2 latent + RoPE key) for MLA with its projections absorbed, which reads the
  latent once for all heads;
- all-to-all per MoE layer: b k hidden vectors dispatched (FP8 with one 4-byte scale per 128 values, as DeepEP sends
  them, or BF16) and b k combined in BF16. The share bound for other nodes, 1 - g/N for g GPUs a node, crosses the
  node's NICs, each GPU with its share of them; traffic inside a node rides NVLink and is counted as free.

Each kernel is held to its own roofline: attention takes max(KV bytes / bandwidth, its FLOPs / the BF16 peak, the
precision DeepSeek keeps for core attention), the weight matmuls max(weight bytes / bandwidth, their FLOPs / the peak
at the chosen precision). Two-batch overlap (DeepSeek's dual micro-batch; SGLang's TBO) splits the batch in two and
runs one half's all-to-all under the other half's compute: the step takes the longer of the two streams, but each half
reads the weights again. Without it the step is their sum. Uneven routing makes every GPU wait for the busiest: with a
balance of mean over busiest load below 1, the routed work and the all-to-all grow by 1 / balance. These are bounds: no
kernel runs at its peak, and each all-to-all's fixed latency is left out. Active parameters above the total count as
the total, and at least one layer is a mixture of experts (the dense layers are capped at all but one).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from calckit.charts import decade_domain, layered, log_axis
from calckit.spec import CUSTOM, Calculator, Choice, Input, Output, Result, Value, number, text
from calckit.units import format_number, format_si

from .chips import load_chips
from .decode_step import Transformer
from .disaggregation import kv_cache_input
from .hardware import (
    bandwidth_input,
    bytes_per_param_input,
    chip_input,
    figures_as_of,
    fill_from_chip,
    peak_input,
    precision_input,
)

__all__ = ["EXPERT_PARALLEL"]

GIGA, TERA = 1e9, 1e12
# Bytes a dispatched value takes: FP8 carries one FP32 scale per 128 values (DeepSeek-V3's 1 x 128 activation tiles,
# as DeepEP sends them); the combine is always BF16.
DISPATCH_BYTES = {"fp8": 1 + 4 / 128, "bf16": 2.0}
COMBINE_BYTES = 2.0


@dataclass(frozen=True)
class _Plan:
    """One expert-parallel deployment, per GPU, for any batch per GPU."""

    model: Transformer
    slots: int  # expert slots per GPU
    ranks: int
    balance: float  # mean load over the busiest GPU's load
    context: float
    bandwidth: float  # bytes/s
    peak: float  # FLOP/s for the weight matmuls
    attention_peak: float  # FLOP/s for attention
    moe_layers: int
    vector: float  # bytes moved per token and expert per MoE layer: dispatch + combine
    dispatch: float  # bytes of one dispatched hidden vector
    combine: float
    off_node: float  # share of the traffic that leaves the node
    nic: float  # bytes/s of NIC per GPU
    overlap: bool

    @cached_property
    def replicated(self) -> float:
        """Bytes of weights every GPU holds: attention, shared experts, dense layers, embeddings."""
        return self.model.dense * self.model.bytes_per_param

    @cached_property
    def expert(self) -> float:
        """Bytes of one routed expert, all MoE layers."""
        return self.model.routed / self.model.experts * self.model.bytes_per_param

    def weights_read(self, batch: float) -> float:
        """Bytes of weights one GPU reads in a step: once per micro-batch, each touching the experts its tokens
        picked from the whole deployment's."""
        halves = 2 if self.overlap else 1
        touched = self.model.experts_read(batch * self.ranks / halves)
        return halves * (self.replicated + self.slots * touched * self.expert)

    def attention_time(self, batch: float) -> float:
        kv = batch * self.context * self.model.kv_per_token
        flops = batch * self.context * self.model.attention_flops_per_token
        return max(kv / self.bandwidth, flops / self.attention_peak)

    def matmul_time(self, batch: float) -> float:
        """The weight matmuls of the busiest GPU: its routed experts get 1 / balance of the mean load."""
        routed = self.model.routed * self.model.top_k / self.model.experts  # parameters per token
        flops = 2 * batch * (self.model.active - routed + routed / self.balance)
        return max(self.weights_read(batch) / self.bandwidth, flops / self.peak)

    def compute_time(self, batch: float) -> float:
        return self.attention_time(batch) + self.matmul_time(batch)

    def layer_exchange(self, batch: float) -> float:
        """Seconds of one MoE layer's dispatch and combine, for the whole batch of one GPU."""
        return batch * self.model.top_k * self.vector * self.off_node / self.nic / self.balance

    def exchange_time(self, batch: float) -> float:
        return self.moe_layers * self.layer_exchange(batch)

    def step_time(self, batch: float) -> float:
        return self.parts(batch)[2]

    def parts(self, batch: float) -> tuple[float, float, float]:
        """Compute, exchange and the step they make: overlapped, the longer of the two; else their sum."""
        compute, exchange = self.compute_time(batch), self.exchange_time(batch)
        return compute, exchange, max(compute, exchange) if self.overlap else compute + exchange


def _plan(inputs: Mapping[str, Value]) -> _Plan:
    experts = int(number(inputs, "experts"))
    top_k = min(int(number(inputs, "top_k")), experts)
    layers = int(number(inputs, "layers"))
    hidden = int(number(inputs, "hidden"))
    heads = number(inputs, "heads")
    model = Transformer(
        params=number(inputs, "total_b") * GIGA,
        active=min(number(inputs, "active_b"), number(inputs, "total_b")) * GIGA,
        experts=experts,
        top_k=top_k,
        bytes_per_param=float(text(inputs, "weight_bytes")),
        layers=layers,
        hidden=hidden,
        attention=text(inputs, "attention"),
        heads=heads,
        kv_heads=min(number(inputs, "kv_heads"), heads),
        head_dim=number(inputs, "head_dim"),
        latent=number(inputs, "latent"),
        rope=number(inputs, "rope_dim"),
        kv_bytes=float(text(inputs, "kv_bytes")),
    )
    ranks = int(number(inputs, "ep"))
    per_node = min(int(number(inputs, "gpus_per_node")), ranks)
    dispatch = hidden * DISPATCH_BYTES[text(inputs, "dispatch")]
    return _Plan(
        model=model,
        slots=math.ceil((experts + int(number(inputs, "redundant"))) / ranks),
        ranks=ranks,
        balance=number(inputs, "balance"),
        context=number(inputs, "context"),
        bandwidth=number(inputs, "bandwidth_tbs") * TERA,
        peak=number(inputs, "peak_tflops") * TERA,
        attention_peak=number(inputs, "attention_tflops") * TERA,
        moe_layers=layers - min(int(number(inputs, "dense_layers")), layers - 1),
        vector=dispatch + hidden * COMBINE_BYTES,
        dispatch=dispatch,
        combine=hidden * COMBINE_BYTES,
        off_node=1 - per_node / ranks,
        nic=number(inputs, "node_nic_gbps") * GIGA / 8 / per_node,
        overlap=text(inputs, "overlap") == "tbo",
    )


def _text(key: str, value: Value) -> str:
    """An output's value as the form shows it: the summary writes each figure the same way."""
    return EXPERT_PARALLEL.output(key).text(value)


def _compute(inputs: Mapping[str, Value]) -> Result:
    plan = _plan(inputs)
    batch = number(inputs, "batch")
    global_batch = batch * plan.ranks
    experts = plan.model.experts
    touched = experts * plan.model.experts_read(global_batch)
    kv = batch * plan.context * plan.model.kv_per_token
    memory = plan.replicated + plan.slots * plan.expert + kv
    capacity = number(inputs, "memory_gb") * GIGA
    compute, exchange, step = plan.compute_time(batch), plan.exchange_time(batch), plan.step_time(batch)
    if exchange == 0:
        hidden: Value = "nothing to hide: no all-to-all leaves the node"
    elif not plan.overlap:
        hidden = f"no overlap: {format_si(exchange, 's')} added to each step"
    elif exchange <= compute:
        hidden = f"yes, with {format_si(compute - exchange, 's')} to spare"
    else:
        hidden = f"no: {format_si(exchange - compute, 's')} exposed"
    fits = memory <= capacity
    per_node = min(int(number(inputs, "gpus_per_node")), plan.ranks)
    summary = (
        ("Out of memory (the figures assume it fit): " if not fits else "")
        + f"{format_number(plan.ranks)} GPUs hold {_text('experts_per_rank', float(plan.slots))} expert slots each; "
        f"a step of {format_number(batch)} sequences on each touches {_text('touched', touched)} of "
        f"{format_number(experts)} experts per layer, reads {_text('weights_read', plan.weights_read(batch))} "
        f"of weights and {_text('kv_read', kv)} of cache on each GPU and exchanges "
        f"{_text('exchange_time', exchange)} of all-to-all against {_text('compute_time', compute)} of compute: "
        f"{_text('step_time', step)} a step, {_text('per_gpu', batch / step)} per GPU and "
        f"{_text('per_user', 1 / step)} per sequence." + figures_as_of(inputs)
    )
    return Result(
        {
            "nodes": float(math.ceil(plan.ranks / per_node)),
            "experts_per_rank": float(plan.slots),
            "touched": touched,
            "touched_share": touched / experts,
            "tokens_per_expert": global_batch * plan.model.top_k / experts,
            "weights_read": plan.weights_read(batch),
            "kv_read": kv,
            "memory": memory,
            "fits": "yes" if fits else f"no: needs {format_si(memory, 'B')} of {format_si(capacity, 'B')}",
            "dispatch_bytes": batch * plan.model.top_k * plan.dispatch,
            "combine_bytes": batch * plan.model.top_k * plan.combine,
            "layer_exchange": plan.layer_exchange(batch),
            "exchange_time": exchange,
            "compute_time": compute,
            "hidden": hidden,
            "step_time": step,
            "per_gpu": batch / step,
            "per_node_rate": batch * per_node / step,
            "per_user": 1 / step,
        },
        summary,
        chart=_chart(plan, batch, summary),
    )


_SERIES = ("compute", "all-to-all", "step")


def _chart(plan: _Plan, batch: float, summary: str) -> dict[str, Any]:
    """Compute, all-to-all and step time against the batch per GPU: where the exchange outgrows the compute."""
    top = max(4 * batch, 512.0)
    batches = sorted({*(max(1, round(top ** (i / 40))) for i in range(41)), int(batch)})
    # A log scale has no zero: with every GPU in one node there is no all-to-all to draw.
    points = [
        {"batch": b, "part": part, "time": time}
        for b in batches
        for part, time in zip(_SERIES, plan.parts(b), strict=True)
        if time > 0
    ]
    times = [p["time"] for p in points]
    return layered(
        "Time per decode step against the batch on each GPU. " + summary,
        [
            {
                "data": {"values": points},
                "mark": {"type": "line", "strokeWidth": 2},
                "encoding": {
                    "x": log_axis("batch", "Sequences per GPU", decade_domain(1, top, margin=0)),
                    "y": log_axis("time", "Seconds per step", decade_domain(min(times), max(times), margin=0)),
                    "color": {
                        "field": "part",
                        "type": "nominal",
                        "title": None,
                        "scale": {"domain": list(_SERIES), "range": ["#4263eb", "#adb5bd", "#d9480f"]},
                        # Below the plot: on a phone a legend at the side takes a third of the width.
                        "legend": {"orient": "bottom", "direction": "vertical"},
                    },
                    "strokeDash": {
                        "field": "part",
                        "type": "nominal",
                        "legend": None,
                        "scale": {"domain": list(_SERIES), "range": [[1, 0], [6, 4], [1, 0]]},
                    },
                    "tooltip": [
                        {"field": "batch", "type": "quantitative", "title": "sequences per GPU"},
                        {"field": "part", "type": "nominal"},
                        {"field": "time", "type": "quantitative", "title": "seconds", "format": ".3~s"},
                    ],
                },
            },
            {
                "data": {"values": [{"batch": batch, "time": plan.step_time(batch)}]},
                "mark": {"type": "point", "filled": True, "size": 110, "color": "#e8590c"},
                "encoding": {
                    "x": {"field": "batch", "type": "quantitative"},
                    "y": {"field": "time", "type": "quantitative"},
                },
            },
        ],
    )


_FILL = fill_from_chip("peak_tflops", "bandwidth_tbs", "memory_gb")


def _resolve(values: dict[str, Value]) -> dict[str, Value]:
    """The chip's figures: attention at its BF16 peak, or at the matmuls' where the chip publishes none."""
    filled = _FILL(values)
    chip = text(filled, "chip")
    if chip != CUSTOM:
        bf16 = load_chips()[chip].peak_tflops.get("bf16")
        filled["attention_tflops"] = bf16.value if bf16 is not None else filled["peak_tflops"]
    return filled


EXPERT_PARALLEL = Calculator(
    name="expert-parallel",
    title="Expert-parallel decode across nodes",
    description=(
        "A mixture of experts decoded with its experts spread over many GPUs and attention data-parallel: experts per "
        "GPU, experts touched, bytes read, the all-to-all per layer, whether two-batch overlap hides it, and tokens "
        "per second per GPU."
    ),
    inputs=(
        chip_input("h100-sxm"),
        precision_input("fp8", label="Weight matmul precision"),
        peak_input(1978.9),
        Input(
            "attention_tflops",
            "Peak compute for attention (BF16)",
            unit="TFLOP/s",
            default=989.4,
            min=0.001,
            max=1e6,
            step=0.1,
            filled_by="chip",
            help="Core attention runs in BF16 in DeepSeek's serving, whatever the matmuls' precision.",
        ),
        bandwidth_input(3.35),
        Input("memory_gb", "Memory per GPU", unit="GB", default=80.0, min=0.001, max=1e6, filled_by="chip"),
        # Defaults: DeepSeek-V3 (its technical report and config.json: 671 B parameters, 37 B active, 256 routed
        # experts, 8 per token, 61 layers of which the first 3 are dense, hidden size 7,168, 128 heads, MLA 512 + 64).
        Input("total_b", "Parameters, all", unit="billions", default=671.0, min=0.001, max=1e5),
        Input("active_b", "Parameters active per token", unit="billions", default=37.0, min=0.001, max=1e5),
        Input("experts", "Routed experts per MoE layer", kind="integer", default=256, min=2, max=100_000),
        Input("top_k", "Experts per token, k", kind="integer", default=8, min=1, max=100_000),
        Input("layers", "Layers", kind="integer", default=61, min=1, max=10_000),
        Input("dense_layers", "Dense layers among them", kind="integer", default=3, min=0, max=10_000),
        Input("hidden", "Hidden size", kind="integer", default=7168, min=1, max=1e6),
        bytes_per_param_input("1", key="weight_bytes", label="Bytes per weight"),
        kv_cache_input("attention", default="mla"),
        kv_cache_input("heads", default=128),
        kv_cache_input("kv_heads"),
        kv_cache_input("head_dim"),
        kv_cache_input("latent"),
        kv_cache_input("rope_dim"),
        kv_cache_input("kv_bytes"),
        Input(
            "context",
            "Cached tokens per sequence",
            kind="integer",
            default=4989,
            min=1,
            max=1e8,
            help="The mean over the batch; DeepSeek's service averaged 4,989.",
        ),
        Input("ep", "GPUs (expert-parallel degree)", kind="integer", default=144, min=1, max=100_000),
        Input(
            "gpus_per_node",
            "GPUs per node",
            kind="integer",
            default=8,
            min=1,
            max=100_000,
            help="The GPUs that share a node's NVLink and its NICs.",
        ),
        Input(
            "redundant",
            "Redundant expert copies",
            kind="integer",
            default=32,
            min=0,
            max=100_000,
            help="Extra slots for copies of busy experts, placed by the load balancer (DeepSeek: 32).",
        ),
        Input(
            "node_nic_gbps",
            "NIC bandwidth per node",
            unit="Gb/s",
            default=3200.0,
            min=0.001,
            max=1e7,
            help="Eight 400 Gb/s InfiniBand NICs, one per GPU, make 3,200.",
        ),
        Input("batch", "Sequences per GPU", kind="integer", default=128, min=1, max=1e6),
        Input(
            "balance",
            "Expert load balance",
            default=1.0,
            min=0.01,
            max=1.0,
            step=0.01,
            help="The mean load over the busiest GPU's (1: perfectly even); the routed work and the all-to-all wait "
            "for the busiest.",
        ),
        Input(
            "dispatch",
            "Dispatch precision",
            kind="choice",
            default="fp8",
            choices=(Choice("fp8", "FP8 with block scales"), Choice("bf16", "BF16")),
            help="The combine is sent in BF16 either way.",
        ),
        Input(
            "overlap",
            "Two-batch overlap",
            kind="choice",
            default="tbo",
            choices=(Choice("tbo", "Two micro-batches"), Choice("none", "None")),
            help="With two, one micro-batch's all-to-all runs under the other's compute, and each reads the weights.",
        ),
    ),
    outputs=(
        Output("nodes", "Nodes"),
        Output("experts_per_rank", "Expert slots per GPU"),
        Output("touched", "Experts a step touches, per layer"),
        Output("touched_share", "Share of the experts touched", format="percent"),
        Output(
            "tokens_per_expert",
            "Tokens per expert per step",
            help="The global batch × k / experts: each expert's matmul has about this many rows.",
        ),
        Output("weights_read", "Weights read per step, each GPU", unit="B", format="si"),
        Output("kv_read", "KV cache read per step, each GPU", unit="B", format="si"),
        Output("memory", "Memory per GPU: weights and caches", unit="B", format="si"),
        Output("fits", "Fits in memory", format="text"),
        Output("dispatch_bytes", "Dispatch per MoE layer, each GPU", unit="B", format="si"),
        Output("combine_bytes", "Combine per MoE layer, each GPU", unit="B", format="si"),
        Output("layer_exchange", "Dispatch and combine per MoE layer", unit="s", format="si"),
        Output("exchange_time", "All-to-all per step", unit="s", format="si"),
        Output("compute_time", "Compute per step, at least", unit="s", format="si"),
        Output("hidden", "Overlap hides the all-to-all", format="text"),
        Output("step_time", "Time per decode step, at least", unit="s", format="si"),
        Output("per_gpu", "Tokens per second per GPU, at most", unit="tokens/s"),
        Output("per_node_rate", "Tokens per second per node, at most", unit="tokens/s"),
        Output("per_user", "Tokens per second per sequence, at most", unit="tokens/s"),
    ),
    compute=_compute,
    resolve=_resolve,
)
