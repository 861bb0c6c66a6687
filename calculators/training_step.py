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

from dataclasses import dataclass

from .collectives import collective_cost

__all__ = ["ACT_BYTES", "GRAD_BYTES", "STATE_BYTES", "Mesh", "Model", "Network", "StepCost", "step_cost"]

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
