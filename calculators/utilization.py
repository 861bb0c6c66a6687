"""Model bandwidth utilisation (MBU) and model FLOPs utilisation (MFU).

MBU = achieved memory bandwidth / peak bandwidth, where a decode step reads every weight (and the KV cache) once:
achieved = (parameters x bytes per parameter + KV-cache bytes) x steps per second (Databricks, "LLM Inference
Performance Engineering: Best Practices", 2023). MFU = achieved FLOP/s / peak FLOP/s, where the FLOPs are the
model's own: per token, 6N for the weights in training plus 12 x layers x hidden x sequence for attention's two
matrix multiplies (Chowdhery et al., "PaLM", 2022, appendix B, whose H x Q is the hidden size), and 2N plus
4 x layers x hidden x context in a decode step. PaLM's count, which most published MFUs follow and the default here
keeps, scores every query against every key of the sequence; a causal mask skips half of them, which kernels such as
FlashAttention do not compute, so the "causal" choice halves the attention term (as the scaling book and Megatron-LM's
FLOP count do). HFU, hardware FLOPs utilisation, also counts the FLOPs a run does again: recomputing every layer's
forward pass in the backward pass (full activation checkpointing) adds one more forward, 2N + 4 x layers x hidden x
sequence per token, so HFU = MFU x 8/6 when attention is left out; selective recomputation (Korthikanti et al. 2022)
adds only the attention core's forward, 4 x layers x hidden x sequence (halved by the mask too).
"""

from __future__ import annotations

from collections.abc import Mapping

from calckit.spec import Calculator, Choice, Input, Output, Result, Value, number, text
from calckit.units import format_si

from .hardware import (
    bandwidth_input,
    bytes_per_param_input,
    chip_input,
    figures_as_of,
    fill_from_chip,
    peak_input,
    precision_input,
)
from .roofline import NO_FIGURE, limit

__all__ = ["UTILIZATION"]

GIGA, TERA = 1e9, 1e12


BEYOND = {
    "mbu": "More than the memory can deliver: check the inputs.",
    "mfu": "More than the chip can compute: check the inputs.",
    "hfu": "More than the chip can compute: check the inputs.",
}


TRAINING_NOTES = {
    "achieved_bandwidth": "Not measured for training.",
    "mbu": "Not a useful measure for training, which is compute-bound.",
}


def _text(key: str, value: Value) -> str:
    """An output's value as the form shows it: the summary writes each figure the same way."""
    return UTILIZATION.output(key).text(value)


def _notes(shares: Mapping[str, float]) -> dict[str, str]:
    """A share above 100% is not a result but a sign of wrong inputs: say so next to it."""
    return {key: BEYOND[key] for key, share in shares.items() if share > 1}


def _attention_per_layer_token(inputs: Mapping[str, Value], length: str) -> float:
    """Attention's forward FLOPs per token per layer over `length` positions: QK^T and the weighted sum of V."""
    return 4 * number(inputs, "hidden") * number(inputs, length)


def _masked_share(inputs: Mapping[str, Value]) -> float:
    """The share of a training sequence's scores that are computed: all of them as PaLM counts, half under a causal
    mask."""
    return 0.5 if text(inputs, "mask") == "causal" else 1.0


def _compute(inputs: Mapping[str, Value]) -> Result:
    params = number(inputs, "params_b") * GIGA
    rate = number(inputs, "tokens_per_s")
    peak = number(inputs, "peak_tflops") * TERA
    bandwidth = number(inputs, "bandwidth_tbs") * TERA
    weights = params * float(text(inputs, "bytes_per_param"))
    layers = number(inputs, "layers")
    if text(inputs, "mode") == "training":
        core = layers * _attention_per_layer_token(inputs, "seq_len") * _masked_share(inputs)
        forward = 2 * params + core  # per token
        flops = 3 * forward * rate  # forward, and a backward pass of twice its FLOPs
        recomputed = {"none": 0.0, "selective": core, "full": forward}[text(inputs, "recompute")] * rate
        mfu, hfu = flops / peak, (flops + recomputed) / peak
        summary = (
            f"Training at {format_si(rate, 'token/s')} does {_text('achieved_flops', flops)} of the model's FLOPs: "
            f"an MFU of {_text('mfu', mfu)}"
            + (
                f", and an HFU of {_text('hfu', hfu)} with the recomputed "
                + ("forward passes" if text(inputs, "recompute") == "full" else "attention cores")
                if recomputed
                else ""
            )
            + ". MBU is not a useful measure here: training is compute-bound."
        )
        values: dict[str, Value] = {
            "achieved_bandwidth": NO_FIGURE,
            "mbu": NO_FIGURE,
            "achieved_flops": flops,
            "mfu": mfu,
            "hfu": hfu,
            "bound": "Compute-bound",
        }
        notes = {**TRAINING_NOTES, **_notes({"mfu": mfu, "hfu": hfu})}
        return Result(values, summary + _beyond(hfu, "compute") + figures_as_of(inputs), notes=notes)
    batch = number(inputs, "batch")
    step_bytes = weights + number(inputs, "kv_cache_gb") * GIGA  # read once per decode step
    achieved = step_bytes * rate  # one step per output token of each sequence
    flops = (2 * params + layers * _attention_per_layer_token(inputs, "context")) * batch * rate
    mbu, mfu = achieved / bandwidth, flops / peak
    bound = limit(flops / achieved, peak / bandwidth)
    summary = (
        f"Each decode step reads {format_si(step_bytes, 'B')}; at {format_si(rate, 'token/s')} per sequence that is "
        f"{_text('achieved_bandwidth', achieved)}, an MBU of {_text('mbu', mbu)}, while the arithmetic uses "
        f"{_text('mfu', mfu)} of peak compute. {bound}."
    )
    values = {
        "achieved_bandwidth": achieved,
        "mbu": mbu,
        "achieved_flops": flops,
        "mfu": mfu,
        "hfu": mfu,
        "bound": bound,
    }
    return Result(
        values,
        summary + _beyond(mbu, "bandwidth") + _beyond(mfu, "compute") + figures_as_of(inputs),
        notes=_notes({"mbu": mbu, "mfu": mfu, "hfu": mfu}),
    )


def _beyond(share: float, what: str) -> str:
    if share <= 1:
        return ""
    return f" That is more than the chip's peak {what}, which no chip can exceed: check the inputs."


UTILIZATION = Calculator(
    name="mbu",
    title="MBU and MFU",
    description=(
        "How much of a chip's memory bandwidth and compute a model actually uses, from its size and its token rate."
    ),
    inputs=(
        chip_input("a100-80gb-sxm"),
        precision_input(),
        peak_input(312.0),
        bandwidth_input(2.039),
        Input(
            "mode",
            "Workload",
            kind="choice",
            default="decode",
            choices=(Choice("decode", "Inference, decoding"), Choice("training", "Training")),
        ),
        Input("params_b", "Model parameters", unit="billions", default=7.0, min=0.001, max=1e5),
        bytes_per_param_input(),
        Input(
            "tokens_per_s",
            "Tokens per second",
            unit="token/s",
            default=100.0,
            min=0.001,
            max=1e9,
            help="Decoding: output tokens per second of each sequence. Training: tokens processed per second.",
        ),
        Input("batch", "Batch size", kind="integer", default=1, min=1, max=1e5, shown_when=("mode", ("decode",))),
        # Defaults: the shape of Llama 2 7B (32 layers, hidden 4,096; Meta's config.json), trained on 4,096 tokens.
        Input("layers", "Layers", kind="integer", default=32, min=1, max=10_000),
        Input("hidden", "Hidden size", kind="integer", default=4096, min=1, max=1e6),
        Input(
            "seq_len",
            "Sequence length",
            unit="tokens",
            kind="integer",
            default=4096,
            min=0,
            max=1e8,
            shown_when=("mode", ("training",)),
            help="Attention's FLOPs grow with it; 0 counts the weights' 6N alone.",
        ),
        Input(
            "recompute",
            "Activation recomputation",
            kind="choice",
            default="none",
            choices=(
                Choice("none", "None"),
                Choice("selective", "Selective: the attention core again"),
                Choice("full", "Full: every layer's forward again"),
            ),
            shown_when=("mode", ("training",)),
            help="Recomputed FLOPs count towards HFU, not MFU.",
        ),
        Input(
            "mask",
            "Attention FLOPs counted",
            kind="choice",
            default="full",
            choices=(
                Choice("full", "Every score, as PaLM counts (most published MFUs)"),
                Choice("causal", "Causal: half the scores, those a causal kernel computes"),
            ),
            shown_when=("mode", ("training",)),
        ),
        Input(
            "context",
            "Context per sequence",
            unit="tokens",
            kind="integer",
            default=0,
            min=0,
            max=1e8,
            shown_when=("mode", ("decode",)),
            help="For attention's FLOPs; 0 counts the weights' 2N alone, as the KV cache of 0 GB counts their bytes.",
        ),
        Input(
            "kv_cache_gb",
            "KV cache read per step",
            unit="GB",
            default=0.0,
            min=0,
            max=1e6,
            shown_when=("mode", ("decode",)),
            help="The whole batch's KV cache, read once per step; 0 to count the weights alone.",
        ),
    ),
    outputs=(
        Output("achieved_bandwidth", "Achieved bandwidth", unit="B/s", format="si"),
        Output("mbu", "MBU", format="percent", help="Achieved over peak memory bandwidth."),
        Output("achieved_flops", "Achieved compute", unit="FLOP/s", format="si"),
        Output("mfu", "MFU", format="percent", help="The model's FLOP/s, attention included, over peak FLOP/s."),
        Output("hfu", "HFU", format="percent", help="As MFU, counting recomputed FLOPs too."),
        Output("bound", "Limited by", format="text"),
    ),
    compute=_compute,
    resolve=fill_from_chip("peak_tflops", "bandwidth_tbs"),
)
