"""A training step split over many chips: what each strategy communicates, how long that takes against its compute,
and whether the model's state fits.

The model: P parameters in all, P_a active per token (fewer in a mixture of experts: E experts, k per token), L
layers of width D with a heads, sequences of s tokens, a global batch of B tokens per step, and the model's own
FLOPs per step (6 P_a + 6 L s D) B: 2 per weight forward and 4 backward, and attention's two score matmuls, 12 L s D
per token (PaLM, appendix B) halved by the causal mask. Recomputation adds FLOPs the model does not count
(`training_memory`): the step's compute is the hardware's, its share of the step HFU, and the model's share MFU.

Memory per chip (`training_memory`): the model state by ZeRO stage of the data axis (Rajbhandari et al. 2020:
weights 2, gradients g = 2 or 4, optimizer state 12 bytes a parameter, the sharded parts divided by the data degree)
and the activations of Korthikanti et al. 2022 for one micro-batch of B / (dp M) tokens, with sequence parallelism
on the tensor axis when asked, held for min(pp, M) micro-batches by the first pipeline stage (1F1B).

A mesh is data x pipeline x tensor = N chips, tensor innermost (neighbouring chips), and experts spread over the
data axis (GShard, DeepSpeed-MoE). What crosses the links in one step, with collectives costed by `collectives`:

- data parallel: an all-reduce of each chip's gradients (g bytes each) over the data axis (experts' over the data
  axis divided by the expert degree), overlapped with the backward pass (its 4/6 of the model's compute and any
  recomputation);
- ZeRO-1 and ZeRO-2: the gradients reduce-scattered (g bytes) and the updated 2-byte weights all-gathered, the same
  traffic as data parallelism at g = 2 (ZeRO, section 7), overlapped with the backward pass;
- FSDP / ZeRO-3: the weights all-gathered for the forward and again for the backward, the gradients
  reduce-scattered: three collectives of an all-gather's cost, 1.5 all-reduces, overlapped with the whole step.
  Weights and gradients move once per step, as if kept across micro-batches (FSDP re-gathers them per micro-batch
  unless told not to);
- tensor parallel (Megatron-LM, Shoeybi et al. 2019): two all-reduces of the activations (B/dp x D x 2 bytes) per
  layer forward and two backward, on the critical path unless the framework overlaps them with the matmuls; full
  recomputation runs the forward's two again (sequence parallelism turns each into a reduce-scatter and an
  all-gather of the same cost);
- pipeline parallel: each stage passes its activations forward and their gradients back, 2 x B/dp x D x 2 bytes,
  and idles for a bubble of (S - 1) / (M + S - 1) of the step with M microbatches (Huang et al. 2019, GPipe);
- expert parallel: each MoE layer dispatches every token's vector to its k experts and combines the results, an
  all-to-all of B/dp x k x D x 2 bytes per chip, twice forward and twice backward (Lepikhin et al. 2020, GShard),
  and the forward's two again under full recomputation. The dispatches may travel in FP8 (1 byte) while the
  combines stay in BF16, and node-limited routing sends each token over the network once to each of at most M
  nodes (DeepSeek-V3: node-limited routing, and low-precision communication in its FP8 training), see
  `Network.expert_all_to_all`.

Overlapped communication costs only what the compute does not cover: the step is compute / (1 - bubble) plus the
exposed part. On a switched network a group that fits in one scale-up domain uses its links; a larger one goes over
the scale-out network (two levels); on a torus each group is taken to run on a sub-torus of its own.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .collectives import collective_cost
from .training_memory import (
    WEIGHT_BYTES,
    layer_activation_bytes,
    model_flops_per_token,
    recompute_flops_per_token,
    state_bytes,
    stored_activation_bytes,
)

__all__ = [
    "ACT_BYTES",
    "Memory",
    "Mesh",
    "Model",
    "Network",
    "StepCost",
    "Training",
    "data_collectives",
    "data_traffic",
    "step_cost",
]

ACT_BYTES = 2.0  # BF16 activations on the tensor, pipeline and expert links


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

    def expert_all_to_all(self, vectors: float, top_k: int, group: int, stride: int, node_limit: int) -> float:
        """Time of one dispatch or combine: each chip sends `vectors` bytes of token vectors, each to its `top_k`
        experts spread over `group` chips spaced `stride` apart. Without a node limit every copy travels on its own
        (GShard), so (group - per node) / group of the k copies cross the network. With node-limited routing
        (DeepSeek-V3's node-limited routing and its cross-node all-to-all) a token goes to at most `node_limit` nodes,
        once to each over the network, and is forwarded inside the node over the scale-up links: min(k, M) copies,
        (nodes - 1) / nodes of them remote, cross the network, and the k copies each take one scale-up hop."""
        together = max(1, self.domain // stride)
        if self.kind == "torus" or group <= together or node_limit <= 0:
            return self.cost("all-to-all", vectors * top_k, group, stride)
        nodes = math.ceil(group / together)
        outside = vectors * min(top_k, node_limit) * (nodes - 1) / nodes
        inside = vectors * top_k * (together - 1) / together
        steps = (together - 1) * self.inner_latency + (group - together) * self.outer_latency
        return max(outside / self.outer, inside / self.inner) + steps

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
    heads: int = 64
    seq_len: int = 8192

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
    data_axis: str = "dp"  # "dp", "zero1", "zero2" or "fsdp" (ZeRO-3)
    microbatches: int = 1

    @property
    def fsdp(self) -> bool:
        return self.data_axis == "fsdp"


@dataclass(frozen=True)
class Training:
    """How the step is run, beyond the mesh: gradient bytes, recomputation, the attention kernel, sequence
    parallelism on the tensor axis."""

    grad_bytes: float = 2.0
    recompute: str = "none"
    attention: str = "flash"
    sequence_parallel: bool = True
    dispatch_bytes: float = 2.0  # 1 for FP8 dispatch (DeepSeek-V3's low-precision communication)
    node_limit: int = 0  # most nodes a token's experts may span; 0 for no limit (DeepSeek-V3 uses 4)


def data_collectives(data_axis: str, grad_bytes: float) -> tuple[tuple[str, float], ...]:
    """The data axis's collectives in one step, each with the bytes per parameter of its buffer: data parallelism
    all-reduces g-byte gradients; ZeRO-1 and -2 reduce-scatter them and all-gather the updated 2-byte weights; ZeRO-3
    gathers the weights for the forward and again for the backward and reduce-scatters the gradients."""
    if data_axis == "dp":
        return (("all-reduce", grad_bytes),)
    if data_axis in ("zero1", "zero2"):
        return (("reduce-scatter", grad_bytes), ("all-gather", WEIGHT_BYTES))
    return (("all-gather", WEIGHT_BYTES), ("all-gather", WEIGHT_BYTES), ("reduce-scatter", grad_bytes))


def data_traffic(data_axis: str, grad_bytes: float) -> float:
    """Bytes per parameter the data axis moves, counted as all-gathers' buffers (an all-reduce counts twice)."""
    return sum(size * (2 if op == "all-reduce" else 1) for op, size in data_collectives(data_axis, grad_bytes))


@dataclass(frozen=True)
class Memory:
    state: float  # bytes per chip: weights, gradients, optimizer state
    activations: float

    @property
    def total(self) -> float:
        return self.state + self.activations


@dataclass(frozen=True)
class StepCost:
    compute: float  # s, at peak, without the bubble
    bubble: float  # share of the step
    data: float  # s of data-parallel or FSDP communication
    tensor: float
    pipeline: float
    expert: float
    exposed: float  # s of communication not hidden under compute
    memory: Memory  # bytes per chip
    model_compute: float  # s, at peak: the model's FLOPs alone, without recomputation

    @property
    def communication(self) -> float:
        return self.data + self.tensor + self.pipeline + self.expert

    @property
    def step(self) -> float:
        return self.compute / (1 - self.bubble) + self.exposed


def step_cost(
    model: Model, mesh: Mesh, tokens: float, peak: float, net: Network, overlap_tp: bool, run: Training = Training()
) -> StepCost:
    chips = mesh.dp * mesh.pp * mesh.tp
    per_token = model_flops_per_token(model.active, model.layers, model.width, model.seq_len)
    again = recompute_flops_per_token(model.active, model.layers, model.width, model.seq_len, run.recompute)
    model_compute = per_token * tokens / (chips * peak)
    compute = (per_token + again) * tokens / (chips * peak)
    bubble = (mesh.pp - 1) / (mesh.microbatches + mesh.pp - 1)
    split = mesh.tp * mesh.pp
    shared, experts = model.shared_params / split, model.expert_params / (split * mesh.ep)
    expert_group = mesh.dp // mesh.ep
    data = sum(
        net.cost(op, shared * size, mesh.dp, split) + net.cost(op, experts * size, expert_group, split * mesh.ep)
        for op, size in data_collectives(mesh.data_axis, run.grad_bytes)
    )
    layers = model.layers / mesh.pp
    activations = tokens / mesh.dp * model.width * ACT_BYTES
    passes = 6 if run.recompute == "full" else 4  # the forward's collectives run again when it is recomputed
    tensor = passes * layers * net.cost("all-reduce", activations, mesh.tp, 1)
    pipeline = 0.0
    if mesh.pp > 1:
        link = net.inner if (net.kind == "torus" or mesh.tp < net.domain) else net.outer
        pipeline = 2 * activations / link
    expert = 0.0
    if model.experts > 1 and mesh.ep > 1:
        # Half the all-to-alls carry tokens to the experts (the dispatch, and the combine's gradients back to them),
        # which FP8 recipes send in FP8; the other half, the combine and the dispatch's gradients, stay in BF16.
        vectors = tokens / mesh.dp * model.width
        dispatch, combine = (
            net.expert_all_to_all(vectors * size, model.top_k, mesh.ep, split, run.node_limit)
            for size in (run.dispatch_bytes, ACT_BYTES)
        )
        expert = passes / 2 * layers * (dispatch + combine)
    backward = compute - model_compute / 3  # the backward pass and the forward it recomputes
    hidden_data = compute if mesh.fsdp else backward
    exposed = max(0.0, data - hidden_data) + pipeline
    exposed += max(0.0, tensor + expert - compute) if overlap_tp else tensor + expert
    state = state_bytes(shared, mesh.data_axis, mesh.dp, run.grad_bytes).total
    state += state_bytes(experts, mesh.data_axis, expert_group, run.grad_bytes).total
    micro = tokens / (mesh.dp * mesh.microbatches)

    def per_layer(recompute: str) -> float:
        return layer_activation_bytes(
            micro,
            model.width,
            model.heads,
            model.seq_len,
            mesh.tp,
            sequence_parallel=run.sequence_parallel and mesh.tp > 1,
            recompute=recompute,
            attention=run.attention,
        )

    held = stored_activation_bytes(per_layer(run.recompute), model.layers, mesh.pp, mesh.microbatches)
    if run.recompute == "full":
        held += per_layer("none")  # one layer rebuilt at a time in the backward pass
    return StepCost(compute, bubble, data, tensor, pipeline, expert, exposed, Memory(state, held), model_compute)
