"""One decode step of a served transformer, dense or a mixture of experts, with any kind of attention: the model that
the inference, serving and latency-throughput calculators share, and the inputs that describe the model.

A step at batch B runs two kinds of kernel, one after the other, each held to its own roofline (the scaling book's
"theoretical step time": J. Austin et al., "How to Scale Your Model", 2025, chapter "All About Transformer
Inference"):

- **attention** over each sequence's KV cache. Per cached token and layer it reads the bytes that `kv_cache` counts
  for the kind of attention, and does, per token decoded:
  MHA, GQA, MQA: 4 x heads x head size FLOPs (q.k and the weighted sum of v, 2 FLOPs a multiply-add), which is
  4 x hidden when the heads span the hidden size, as in the Llama family; so 2 x heads / kv_heads / bytes FLOP per
  byte, 8 for Llama 3 70B's GQA in BF16, 64 for MQA over 64 heads;
  MLA, absorbed (DeepSeek-AI 2024, DeepSeek-V2, section 2.1.2: the up-projections folded into the query and the
  output, so attention runs on the cached latent itself): 2 x heads x (latent + rope) FLOPs for the scores and
  2 x heads x latent for the values, 278,528 FLOPs over 1,152 bytes with 128 heads, 512 + 64 and a 16-bit cache:
  about 242 FLOP per byte, near an H100's ridge of 295.
- **the weight matmuls**. A dense model reads all its weights once for the batch and does 2 FLOPs per parameter per
  token. A mixture of experts of P parameters, A active per token, E routed experts per MoE layer and k per token
  splits into a dense share D (attention, shared experts, dense layers, embeddings), read at every step, and the
  routed experts R, of which a step reads those that at least one of the B tokens was routed to: with uniform
  routing, E (1 - (1 - k/E)^B) of each layer's E. A = D + R k / E and P = D + R give R = (P - A) / (1 - k/E).
  Each share is a kernel on its own roofline, and the FLOPs are those of the active parameters: 2 D B and
  2 R (k / E) B. At B = 1 the step reads exactly the A active parameters; as B grows it reads every expert.

A dense model is one expert (E = 1): the dense share is all of it, and the step is the dense step exactly.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cached_property

from calckit.errors import InputError
from calckit.spec import Choice, Input, Output, Value, number, text
from calckit.units import format_number

from .hardware import transformer_inputs
from .kv_cache import KINDS, kv_values_per_token_layer

__all__ = [
    "EXPERT_SHARE",
    "Bill",
    "Decode",
    "Transformer",
    "check_model",
    "decode_of",
    "experts_outputs",
    "experts_values",
    "model_inputs",
    "moe_inputs",
    "transformer_of",
]

GIGA = 1e9
HOUR = 3600.0
NO_FIGURE = "—"  # an output with no figure for these inputs; its note says why
EXPERT_SHARE = 0.9  # the share of the experts read from which a step "reads every expert", near enough


@dataclass(frozen=True)
class Transformer:
    """A decoder-only transformer as decoding sees it."""

    params: float  # all parameters
    active: float  # parameters active per token
    experts: int  # routed experts per MoE layer; 1 for a dense model
    top_k: int  # experts per token
    bytes_per_param: float
    layers: float
    hidden: float
    attention: str  # a key of kv_cache.KINDS
    heads: float  # query heads
    kv_heads: float
    head_dim: float
    latent: float  # MLA: the cached latent's size
    rope: float  # MLA: the decoupled RoPE key's size
    kv_bytes: float

    @cached_property
    def routed(self) -> float:
        """Parameters in the routed experts, (P - A) / (1 - k / E); none in a dense model."""
        if self.experts == 1 or self.top_k >= self.experts:
            return 0.0
        return (self.params - self.active) / (1 - self.top_k / self.experts)

    @cached_property
    def dense(self) -> float:
        """Parameters every token uses: all of them in a dense model."""
        return self.params - self.routed

    @cached_property
    def weights(self) -> float:
        """Bytes of all the weights: what memory holds."""
        return self.params * self.bytes_per_param

    def experts_read(self, batch: float) -> float:
        """The expected share of each MoE layer's experts that a step at `batch` reads: 1 - (1 - k/E)^B; all of a
        dense model's."""
        if not self.routed:
            return 1.0
        return 1 - float((1 - self.top_k / self.experts) ** batch)

    def weights_read(self, batch: float) -> float:
        """Bytes of weights a step at `batch` reads: the dense share and the experts touched."""
        return (self.dense + self.routed * self.experts_read(batch)) * self.bytes_per_param

    @cached_property
    def kv_per_token(self) -> float:
        """Bytes of KV cache per token, all layers (kv_cache's count for the kind of attention)."""
        values = kv_values_per_token_layer(
            self.attention, self.heads, self.kv_heads, self.head_dim, self.latent, self.rope
        )
        return values * self.layers * self.kv_bytes

    @cached_property
    def attention_flops_per_token(self) -> float:
        """FLOPs per cached token, all layers, for one token decoded (absorbed MLA for MLA)."""
        if self.attention == "mla":
            per_layer = 2 * self.heads * (self.latent + self.rope) + 2 * self.heads * self.latent
        else:
            per_layer = 4 * self.heads * self.head_dim
        return per_layer * self.layers

    def prefill_flops(self, tokens: float) -> float:
        """One prompt: 2 A FLOPs per token for the weights, and causal attention, half of a full T x T: per layer
        T^2 x heads x (query-key size + value size), 2 x layers x T^2 x hidden for MHA, GQA and MQA. MLA's prefill
        runs unabsorbed (keys of head size + rope, values of head size), as DeepSeek's does."""
        width = self.heads * (2 * self.head_dim + (self.rope if self.attention == "mla" else 0))
        return 2 * self.active * tokens + self.layers * tokens**2 * width


@dataclass(frozen=True)
class Decode:
    """A deployment's decode step as a function of the batch: the model on chips that share it (tensor parallelism,
    its communication left to `overhead`)."""

    model: Transformer
    context: float  # tokens of cache per sequence
    bandwidth: float  # bytes/s, all chips
    peak: float  # FLOP/s, all chips
    memory: float  # bytes, all chips
    overhead: float = 0.0  # s per step

    @cached_property
    def kv_per_sequence(self) -> float:
        return self.model.kv_per_token * self.context

    def attention_time(self, batch: float) -> float:
        return batch * max(
            self.kv_per_sequence / self.bandwidth, self.model.attention_flops_per_token * self.context / self.peak
        )

    def weight_time(self, batch: float) -> float:
        """The dense share's matmuls, then the experts', each at the longer of its reads and its FLOPs."""
        m = self.model
        dense = max(m.dense * m.bytes_per_param / self.bandwidth, 2 * m.dense * batch / self.peak)
        if not m.routed:
            return dense
        reads = m.routed * m.experts_read(batch) * m.bytes_per_param / self.bandwidth
        return dense + max(reads, 2 * m.routed * m.top_k / m.experts * batch / self.peak)

    def weight_read_time(self, batch: float) -> float:
        return self.model.weights_read(batch) / self.bandwidth

    def weight_math_time(self, batch: float) -> float:
        return 2 * self.model.active * batch / self.peak

    def step(self, batch: float) -> float:
        return self.attention_time(batch) + self.weight_time(batch) + self.overhead

    def compute_bound_batch(self) -> int:
        """The smallest whole batch at which every weight matmul's FLOPs take at least as long as its reads.

        Dense share: B >= ridge x bytes per parameter / 2, ceil(peak x weights / (2 P x bandwidth)) for a dense
        model. Experts: 2 R (k/E) B / peak >= R (1 - (1 - k/E)^B) x bytes / bandwidth, about E / k times the dense
        batch once every expert is read; the difference is convex and zero at B = 0, so it turns positive once, and a
        bisection finds where.
        """
        m = self.model
        dense = math.ceil(self.peak * m.bytes_per_param / (2 * self.bandwidth))
        if not m.routed:
            return math.ceil(self.peak * m.weights / (2 * m.params * self.bandwidth))
        share = m.top_k / m.experts

        def compute_bound(batch: int) -> bool:
            return 2 * share * batch / self.peak >= m.experts_read(batch) * m.bytes_per_param / self.bandwidth

        low, high = 1, max(1, math.ceil(self.peak * m.bytes_per_param / (2 * share * self.bandwidth)))
        while low < high:
            middle = (low + high) // 2
            if compute_bound(middle):
                high = middle
            else:
                low = middle + 1
        return max(dense, low)

    def experts_batch(self, share: float = EXPERT_SHARE) -> int:
        """The smallest batch whose step reads at least `share` of the experts: ln(1 - share) / ln(1 - k/E)."""
        m = self.model
        return max(1, math.ceil(math.log(1 - share) / math.log(1 - m.top_k / m.experts) - 1e-9))

    def max_batch(self) -> int:
        return max(0, math.floor((self.memory - self.model.weights) / self.kv_per_sequence))

    def batch_for_rate(self, rate: float) -> int:
        """The largest batch that fits and gives each user at least `rate` tokens/s; 0 if none does."""
        low, high = 0, self.max_batch()
        while low < high:
            middle = (low + high + 1) // 2
            if self.step(middle) <= 1 / rate:
                low = middle
            else:
                high = middle - 1
        return low

    def prefill(self, tokens: float) -> float:
        """One prompt of `tokens` at the chips' peak: the time to the first token, at best."""
        return self.model.prefill_flops(tokens) / self.peak

    @cached_property
    def attention_intensity(self) -> float:
        """Attention's FLOPs per byte of cache at decode: the same at any batch and context."""
        return self.model.attention_flops_per_token / self.model.kv_per_token


def transformer_of(inputs: Mapping[str, Value]) -> Transformer:
    """The model the inputs of `model_inputs` describe; experts = 1 makes it dense, whatever `active_b` says."""
    params, experts = number(inputs, "params_b") * GIGA, int(number(inputs, "experts"))
    attention, head_dim, hidden = text(inputs, "attention"), number(inputs, "head_dim"), number(inputs, "hidden")
    return Transformer(
        params=params,
        active=params if experts == 1 else number(inputs, "active_b") * GIGA,
        experts=experts,
        top_k=int(number(inputs, "top_k")),
        bytes_per_param=float(text(inputs, "bytes_per_param")),
        layers=number(inputs, "layers"),
        hidden=hidden,
        attention=attention,
        # MLA models have more query heads than hidden / head size (DeepSeek-V3: 128 of 128 over a hidden of 7,168).
        heads=number(inputs, "heads") if attention == "mla" else hidden / head_dim,
        kv_heads={"mha": hidden / head_dim, "mqa": 1.0}.get(attention, number(inputs, "kv_heads")),
        head_dim=head_dim,
        latent=number(inputs, "latent"),
        rope=number(inputs, "rope_dim"),
        kv_bytes=float(text(inputs, "kv_bytes")),
    )


def check_model(values: dict[str, Value]) -> dict[str, Value]:
    """The rules that span the model's fields, for a calculator's `resolve`: k of E, and a dense share >= 0."""
    experts, top_k = int(number(values, "experts")), int(number(values, "top_k"))
    if experts == 1:
        return values
    if top_k > experts:
        raise InputError("top_k", f"at most {experts}", top_k, f"A token can use at most the {experts} experts.")
    params, active = number(values, "params_b"), number(values, "active_b")
    least = params * top_k / experts
    if not least <= active <= params:
        raise InputError(
            "active_b",
            f"from {format_number(least)} to {format_number(params)}",
            active,
            f"With {top_k} of {experts} experts per token, from {format_number(least, digits=4)} to "
            f"{format_number(params, digits=4)} billion parameters are active.",
        )
    return values


_MLA = ("attention", ("mla",))


def moe_inputs(params_b: float) -> tuple[Input, ...]:
    """A mixture of experts, under the names and labels of the parallelism calculator; one expert is dense."""
    return (
        Input(
            "active_b",
            "Parameters active per token",
            unit="billions",
            default=params_b,
            min=0.001,
            max=1e5,
            help="Used when experts > 1: a mixture of experts multiplies only these for each token.",
        ),
        Input("experts", "Experts per MoE layer", kind="integer", default=1, min=1, max=10_000, help="1 for dense."),
        Input("top_k", "Experts per token, k", kind="integer", default=1, min=1, max=10_000),
    )


def model_inputs(*, params_b: float, layers: int, hidden: int) -> tuple[Input, ...]:
    """The model's size and shape: `hardware.transformer_inputs`, with a mixture of experts (the names the parallelism
    calculator uses) and the kinds of attention of the kv-cache calculator."""
    shape = {spec.key: spec for spec in transformer_inputs(params_b=params_b, layers=layers, hidden=hidden)}
    return (
        shape["params_b"],
        *moe_inputs(params_b),
        shape["bytes_per_param"],
        shape["layers"],
        replace(
            shape["hidden"],
            help="Taken as the query heads × head size for MHA, GQA and MQA, as in the Llama family.",
        ),
        Input(
            "attention",
            "Attention",
            kind="choice",
            default="gqa",
            choices=tuple(Choice(k, v) for k, v in KINDS.items()),
        ),
        # DeepSeek-V2 and V3: 128 heads, d_c = 512, d_h^R = 64 (DeepSeek-AI 2024, section 2.1.2 and appendix).
        Input("heads", "Query heads", kind="integer", default=128, min=1, max=10_000, shown_when=_MLA),
        replace(shape["kv_heads"], shown_when=("attention", ("gqa",))),
        shape["head_dim"],
        Input("latent", "Latent size d_c", kind="integer", default=512, min=1, max=100_000, shown_when=_MLA),
        Input("rope_dim", "RoPE key size", kind="integer", default=64, min=0, max=100_000, shown_when=_MLA),
        shape["kv_bytes"],
    )


def decode_of(inputs: Mapping[str, Value], chips: float = 1.0, overhead: float = 0.0) -> Decode:
    """The decode step on `chips` chips whose figures the inputs hold (peak, bandwidth, memory, context)."""
    return Decode(
        model=transformer_of(inputs),
        context=number(inputs, "context"),
        bandwidth=chips * number(inputs, "bandwidth_tbs") * 1e12,
        peak=chips * number(inputs, "peak_tflops") * 1e12,
        memory=chips * number(inputs, "memory_gb") * GIGA,
        overhead=overhead,
    )


@dataclass(frozen=True)
class Bill:
    """What the chips cost per second and draw, turned into the price and the energy of a million tokens.

    Output tokens pay for the decode steps that make them: a step's time over the tokens it makes. Input tokens pay
    for their prefill: a prompt's time over its tokens, as price sheets price input apart from output. Prefill is
    counted at the chips' peak, so the input's share is a floor."""

    dollars_per_second: float
    watts: float

    @classmethod
    def of(cls, inputs: Mapping[str, Value]) -> Bill:
        chips = number(inputs, "chips")
        return cls(
            dollars_per_second=chips * number(inputs, "price_per_hour") / HOUR,
            watts=chips * number(inputs, "power_w") * number(inputs, "pue"),
        )

    def dollars(self, seconds_per_token: float) -> float:
        """USD per million tokens."""
        return self.dollars_per_second * seconds_per_token * 1e6

    def joules(self, seconds_per_token: float) -> float:
        """J per million tokens."""
        return self.watts * seconds_per_token * 1e6


def experts_outputs() -> tuple[Output, ...]:
    """The outputs that say how much of a mixture of experts a step reads."""
    return (
        Output("weights_read", "Weights read per step", unit="B", format="si"),
        Output(
            "experts_read",
            "Share of the experts a step reads",
            format="percent",
            help="1 − (1 − k/E)^B of each MoE layer's E experts, with tokens routed evenly.",
        ),
        Output(
            "experts_batch",
            f"Batch from which a step reads {EXPERT_SHARE:.0%} of the experts",
            help="Below it a step reads little more than one token's experts; above it, nearly all of them.",
        ),
    )


def experts_values(plan: Decode, batch: float) -> tuple[dict[str, Value], dict[str, str]]:
    """The values of `experts_outputs` at `batch`, and their notes for a dense model."""
    values: dict[str, Value] = {"weights_read": plan.model.weights_read(batch)}
    if not plan.model.routed:
        dense = "A dense model (one expert) reads all its weights at every batch."
        return values | {"experts_read": NO_FIGURE, "experts_batch": NO_FIGURE}, {
            "experts_read": dense,
            "experts_batch": dense,
        }
    return values | {
        "experts_read": plan.model.experts_read(batch),
        "experts_batch": float(plan.experts_batch()),
    }, {}
