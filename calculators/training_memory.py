"""Memory in training: the model state each chip keeps (weights, gradients, optimizer state, sharded or not by the
ZeRO stage of the data axis) and the activations it keeps for the backward pass, with and without recomputation.

Model state, for Ψ parameters on a chip's share of the model and N chips on the data axis (Rajbhandari et al.,
"ZeRO: Memory Optimizations Toward Training Trillion Parameter Models", SC20, 2020, section 5 and figure 1), with
mixed-precision Adam's K = 12 bytes of optimizer state per parameter (an FP32 master weight and two FP32 moments)
and 2-byte weights:

- data parallel: (2 + g + K) Ψ, every chip a full replica;
- ZeRO-1 (optimizer state sharded): (2 + g) Ψ + K Ψ / N;
- ZeRO-2 (and the gradients): 2 Ψ + (g + K) Ψ / N;
- ZeRO-3, which PyTorch ships as FSDP (and the weights): (2 + g + K) Ψ / N.

The paper takes g = 2, gradients in BF16 or FP16; a run that accumulates and reduce-scatters its gradients in FP32,
as large runs do for accuracy, keeps g = 4.

Activations, per layer, for a micro-batch of b sequences of s tokens, width h, a attention heads, tensor-parallel
degree t, 16-bit values and 1-byte dropout masks (Korthikanti et al., "Reducing Activation Recomputation in Large
Transformer Models", MLSys 2023, section 4 and table 2):

- no parallelism: s b h (34 + 5 a s / h) bytes; 34 s b h is the attention block's 11, the MLP's 19 and the two
  layer norms' 4, and 5 a s^2 b the attention scores, their softmax and its dropout mask;
- tensor parallelism alone: s b h (10 + 24 / t + 5 a s / (h t)), the layer norms' and dropouts' 10 s b h replicated;
- tensor with sequence parallelism: s b h / t (34 + 5 a s / h), every part split t ways;
- selective recomputation recomputes the attention core (QK^T, softmax, dropout, scores times V) in the backward
  pass and so drops the 5 a s / h term;
- full recomputation keeps only each layer's input, 2 s b h bytes (the paper's table), split t ways when sequence
  parallelism has split the sequence, and recomputes the layer's forward pass in the backward: while one layer's
  backward runs, its activations are held again, once.

FlashAttention (Dao et al., NeurIPS 2022, section 3.1) never writes the s x s scores to memory: it keeps the output
and the softmax's statistics and recomputes the scores inside its backward kernel. It thus removes the 5 a s / h
term as selective recomputation does, which is why it is the default here, as in every large run since 2023; the
scores it recomputes stay inside the kernel and are not charged below (the model-FLOPs convention). With 64 heads
and 8,192-token sequences, 5 a s / h is 320 against 34: the choice decides whether a layer fits at all.

The 34 is the paper's GPT layer (a 4h GELU MLP, multi-head attention, dropout); a Llama layer (SwiGLU of width 3.5 h,
grouped-query attention, no dropout) keeps a similar amount, and the model uses the paper's coefficients for every
model. Buffers, the logits of the output layer and the allocator's fragmentation are not counted.

Pipeline parallelism with the 1F1B schedule (Narayanan et al., SC21): the first stage holds the activations of up to
p micro-batches in flight (min(p, M) with M micro-batches), each for its L / p layers: as much as one micro-batch
through the whole model when M >= p.

Recomputation costs FLOPs that the model's own count (6 N per token, and the attention core) does not include, so
hardware FLOPs utilisation rises above the model's: selective adds the attention core's forward, 4 s h per token
per layer (2 s h with a causal mask, which skips half the scores); full adds the whole forward pass, 2 N plus the
same attention core.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from calckit.charts import layered
from calckit.spec import Calculator, Choice, Input, Output, Result, Table, Value, number, text
from calckit.units import format_si

from .hardware import chip_input, figures_as_of, fill_from_chip

__all__ = [
    "ATTENTION_KERNELS",
    "DATA_AXES",
    "OPTIMIZER_BYTES",
    "RECOMPUTES",
    "TRAINING_MEMORY",
    "WEIGHT_BYTES",
    "StateBytes",
    "layer_activation_bytes",
    "recompute_flops_per_token",
    "state_bytes",
    "stored_activation_bytes",
]

GIGA = 1e9
WEIGHT_BYTES = 2.0  # BF16 weights
OPTIMIZER_BYTES = 12.0  # ZeRO's K for mixed-precision Adam: FP32 master weight and two FP32 moments

DATA_AXES = {
    "dp": "Data parallel (replicated state)",
    "zero1": "ZeRO-1 (optimizer state sharded)",
    "zero2": "ZeRO-2 (optimizer state and gradients sharded)",
    "fsdp": "FSDP / ZeRO-3 (all state sharded)",
}
RECOMPUTES = {
    "none": "None: keep every activation",
    "selective": "Selective: the attention core again",
    "full": "Full: every layer's forward again",
}
ATTENTION_KERNELS = {
    "flash": "FlashAttention (scores not stored)",
    "materialized": "Scores stored (no fused kernel)",
}
GRADIENT_BYTES = {"2": "BF16 (2 bytes)", "4": "FP32 (4 bytes)"}


@dataclass(frozen=True)
class StateBytes:
    weights: float
    gradients: float
    optimizer: float

    @property
    def total(self) -> float:
        return self.weights + self.gradients + self.optimizer


def state_bytes(params: float, data_axis: str, shards: int, grad_bytes: float = 2.0) -> StateBytes:
    """ZeRO's table: the model state of `params` parameters on `shards` chips of the data axis."""
    n = max(1, shards)
    weights, gradients, optimizer = WEIGHT_BYTES * params, grad_bytes * params, OPTIMIZER_BYTES * params
    if data_axis not in DATA_AXES:
        raise ValueError(f"unknown data axis '{data_axis}': one of {', '.join(DATA_AXES)}")
    if data_axis != "dp":
        optimizer /= n
    if data_axis in ("zero2", "fsdp"):
        gradients /= n
    if data_axis == "fsdp":
        weights /= n
    return StateBytes(weights, gradients, optimizer)


def layer_activation_bytes(
    tokens: float,
    width: int,
    heads: int,
    seq_len: int,
    tp: int,
    *,
    sequence_parallel: bool,
    recompute: str,
    attention: str,
) -> float:
    """Bytes one layer keeps for the backward pass for `tokens` tokens (s b) of a micro-batch, on one chip of a
    tensor-parallel group of `tp` (Korthikanti et al. 2022, table 2)."""
    split = tp if sequence_parallel else 1
    if recompute == "full":
        return 2 * tokens * width / split
    scores = 0.0 if recompute == "selective" or attention == "flash" else 5 * heads * seq_len / width
    per_value = (34 + scores) / tp if sequence_parallel else 10 + 24 / tp + scores / tp
    return tokens * width * per_value


def stored_activation_bytes(per_layer: float, layers: int, pp: int, microbatches: int) -> float:
    """What the first pipeline stage holds at once under 1F1B: min(p, M) micro-batches, each for its L / p
    layers (one stage, p = 1, holds one micro-batch through all L)."""
    return per_layer * layers / pp * min(pp, microbatches)


def recompute_flops_per_token(active: float, layers: int, width: int, seq_len: int, recompute: str) -> float:
    """FLOPs done again per token, causal attention: selective redoes the attention core's forward (QK^T and the
    scores times V, 4 s h per layer, half of it masked); full redoes the whole forward, 2 N_active and that core."""
    core = 2.0 * layers * seq_len * width
    return {"none": 0.0, "selective": core, "full": 2 * active + core}[recompute]


def model_flops_per_token(active: float, layers: int, width: int, seq_len: int) -> float:
    """The model's own FLOPs per token for a training step, causal: 6 N for the weights and three times the
    attention core's forward, 12 L s h (PaLM, appendix B), halved for the mask."""
    return 6 * active + 6.0 * layers * seq_len * width


_PARTS = ("weights", "gradients", "optimizer state", "activations")


def _plan(inputs: Mapping[str, Value], data_axis: str) -> dict[str, float]:
    tp, pp = int(number(inputs, "tp")), int(number(inputs, "pp"))
    params = number(inputs, "params_b") * GIGA / (tp * pp)
    state = state_bytes(params, data_axis, int(number(inputs, "dp")), float(text(inputs, "grad_bytes")))
    layers, width, seq = int(number(inputs, "layers")), int(number(inputs, "d_model")), int(number(inputs, "seq_len"))
    tokens = number(inputs, "micro_batch") * seq
    tp_split = text(inputs, "sequence_parallel") == "yes" and tp > 1
    heads, attention, recompute = int(number(inputs, "heads")), text(inputs, "attention"), text(inputs, "recompute")

    def per_layer(kept: str) -> float:
        return layer_activation_bytes(
            tokens, width, heads, seq, tp, sequence_parallel=tp_split, recompute=kept, attention=attention
        )

    stored = stored_activation_bytes(per_layer(recompute), layers, pp, int(number(inputs, "microbatches")))
    # Full recomputation rebuilds one layer's activations at a time during the backward pass.
    working = per_layer("none") if recompute == "full" else 0.0
    return {
        "weights": state.weights,
        "gradients": state.gradients,
        "optimizer state": state.optimizer,
        "activations": stored + working,
        "per_layer": per_layer(recompute),
    }


def _compute(inputs: Mapping[str, Value]) -> Result:
    hbm = number(inputs, "memory_gb") * GIGA
    axis = text(inputs, "data_axis")
    plans = {key: _plan(inputs, key) for key in DATA_AXES}
    mine = plans[axis]
    state = mine["weights"] + mine["gradients"] + mine["optimizer state"]
    memory = state + mine["activations"]
    active = min(number(inputs, "active_b"), number(inputs, "params_b")) * GIGA
    layers, width, seq = int(number(inputs, "layers")), int(number(inputs, "d_model")), int(number(inputs, "seq_len"))
    recomputed = recompute_flops_per_token(active, layers, width, seq, text(inputs, "recompute"))
    model = model_flops_per_token(active, layers, width, seq)
    fits = "yes" if memory <= hbm else f"no: {format_si(memory, 'B')} of {format_si(hbm, 'B')}"
    values: dict[str, Value] = {
        "activations_per_layer": mine["per_layer"],
        "activations": mine["activations"],
        "weights": mine["weights"],
        "gradients": mine["gradients"],
        "optimizer": mine["optimizer state"],
        "state": state,
        "memory": memory,
        "fits": fits,
        "hfu_over_mfu": (model + recomputed) / model,
    }
    out = TRAINING_MEMORY.output
    summary = (
        f"Each chip holds {out('memory').text(memory)}: {out('state').text(state)} of model state and "
        f"{out('activations').text(mine['activations'])} of activations "
        f"({out('activations_per_layer').text(mine['per_layer'])} a layer per micro-batch). "
        + ("It fits" if memory <= hbm else "It does not fit")
        + f" in {format_si(hbm, 'B')}."
        + (
            f" Recomputation makes the hardware do {out('hfu_over_mfu').text(values['hfu_over_mfu'])} times the "
            "model's FLOPs: HFU above MFU."
            if recomputed
            else ""
        )
        + figures_as_of(inputs)
    )
    rows = tuple(
        (
            DATA_AXES[key],
            *(format_si(plan[part], "B") for part in _PARTS),
            format_si(sum(plan[part] for part in _PARTS), "B"),
        )
        for key, plan in plans.items()
    )
    table = Table(
        ("Data axis", "Weights", "Gradients", "Optimizer state", "Activations", "Per chip"),
        rows,
        caption="Memory per chip for each ZeRO stage of the data axis, the other inputs as set.",
    )
    return Result(values, summary, chart=_chart(plans, hbm, summary), table=table)


def _chart(plans: Mapping[str, Mapping[str, float]], hbm: float, summary: str) -> dict[str, Any]:
    """Memory per chip for each data axis, stacked by part, against the chip's memory."""
    bars, y = [], {"field": "axis", "type": "nominal", "title": None, "sort": None}
    for key, plan in plans.items():
        start = 0.0
        for part in _PARTS:
            bars.append({"axis": DATA_AXES[key], "part": part, "start": start, "end": start + plan[part]})
            start += plan[part]
    return layered(
        "Memory per chip by ZeRO stage: weights, gradients, optimizer state and activations, against the chip's "
        "memory. " + summary,
        [
            {
                "data": {"values": bars},
                "mark": {"type": "bar"},
                "encoding": {
                    "y": y,
                    "x": {"field": "start", "type": "quantitative", "title": "Bytes per chip"},
                    "x2": {"field": "end"},
                    "color": {
                        "field": "part",
                        "type": "nominal",
                        "title": None,
                        "scale": {"domain": list(_PARTS), "range": ["#4263eb", "#74c0fc", "#adb5bd", "#e8590c"]},
                        "legend": {"orient": "bottom", "direction": "vertical"},
                    },
                    "tooltip": [
                        {"field": "axis", "type": "nominal", "title": "data axis"},
                        {"field": "part", "type": "nominal"},
                    ],
                },
            },
            {
                "data": {"values": [{"memory": hbm}]},
                "mark": {"type": "rule", "strokeDash": [4, 3], "color": "#212529"},
                "encoding": {"x": {"field": "memory", "type": "quantitative"}},
            },
        ],
        height=40 + 36 * len(plans),
    )


TRAINING_MEMORY = Calculator(
    name="training-memory",
    title="Memory per chip in training",
    description=(
        "What one chip holds during a training step: weights, gradients and optimizer state by ZeRO stage, and the "
        "activations kept for the backward pass, with tensor and sequence parallelism and recomputation."
    ),
    inputs=(
        chip_input("h100-sxm", needs_peak=False),
        Input("memory_gb", "Memory per chip", unit="GB", default=80.0, min=0.001, max=1e6, filled_by="chip"),
        # Defaults: Llama 3 70B (Meta's config.json: 80 layers, hidden 8,192, 64 heads; 8,192-token pretraining
        # sequences), eight-way tensor parallelism in an H100 node and FSDP over the 128 nodes of 1,024 GPUs, with
        # the 4 Mi-token batch of the parallelism lesson's explorer: 4 sequences per chip's data shard.
        Input("params_b", "Parameters, all", unit="billions", default=70.0, min=0.001, max=1e5),
        Input(
            "active_b",
            "Parameters active per token",
            unit="billions",
            default=70.0,
            min=0.001,
            max=1e5,
            help="The same as all for a dense model; fewer for a mixture of experts (for the recomputed FLOPs).",
        ),
        Input("layers", "Layers", kind="integer", default=80, min=1, max=10_000),
        Input("d_model", "Model width h", kind="integer", default=8192, min=1, max=1e6),
        Input("heads", "Attention heads a", kind="integer", default=64, min=1, max=10_000),
        Input("seq_len", "Sequence length s", unit="tokens", kind="integer", default=8192, min=1, max=1e8),
        Input(
            "micro_batch",
            "Sequences per micro-batch b",
            default=4.0,
            min=0.001,
            max=1e6,
            help="On each chip's data shard; a fraction stands for part of a sequence, as context parallelism cuts.",
        ),
        Input("tp", "Tensor-parallel degree t", kind="integer", default=8, min=1, max=1e5),
        Input(
            "sequence_parallel",
            "Sequence parallelism",
            kind="choice",
            default="yes",
            choices=(Choice("yes", "Yes: layer norms and dropouts split t ways"), Choice("no", "No")),
        ),
        Input("pp", "Pipeline stages p", kind="integer", default=1, min=1, max=1e4),
        Input(
            "microbatches",
            "Micro-batches per step M",
            kind="integer",
            default=1,
            min=1,
            max=1e5,
            help="1F1B keeps min(p, M) in flight on the first stage.",
        ),
        Input("dp", "Data-parallel degree N", kind="integer", default=128, min=1, max=1e6),
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
            choices=tuple(Choice(key, label) for key, label in GRADIENT_BYTES.items()),
        ),
        Input(
            "recompute",
            "Activation recomputation",
            kind="choice",
            default="none",
            choices=tuple(Choice(key, label) for key, label in RECOMPUTES.items()),
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
        Output("activations_per_layer", "Activations per layer per micro-batch", unit="B", format="si"),
        Output("activations", "Activations held at once", unit="B", format="si"),
        Output("weights", "Weights", unit="B", format="si"),
        Output("gradients", "Gradients", unit="B", format="si"),
        Output("optimizer", "Optimizer state", unit="B", format="si"),
        Output("state", "Model state", unit="B", format="si"),
        Output("memory", "Memory per chip", unit="B", format="si", help="Model state and activations."),
        Output("fits", "Fits in memory", format="text"),
        Output(
            "hfu_over_mfu",
            "Hardware FLOPs over model FLOPs",
            help="1 without recomputation; the recomputed FLOPs raise HFU above MFU by this factor.",
        ),
    ),
    compute=_compute,
    resolve=fill_from_chip("memory_gb"),
)
