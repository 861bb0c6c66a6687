"""Disaggregated prefill and decode: ship each prompt's KV cache, queue the prompts, count what meets the targets.

Prefill and decode run on separate pools of GPUs (Splitwise, Patel et al., ISCA 2024; DistServe, Zhong et al., OSDI
2024; Mooncake, Qin et al., FAST 2025). When a prompt of P tokens is done, its cache, P x bytes per token (the
kv-cache calculator's bytes for the kind of attention; a layer with a sliding window of W keeps only its last W
tokens), crosses to the decode pool over the prefill instance's n NICs of R each: T = bytes / (n R). Sent after the
prefill, all of T is added to the wait. Sent layer by layer as the prefill goes (Splitwise), only what the link cannot
keep up with is: the last layer's T / L, or T - D (L - 1) / L when the link is the slower of the two.

Queueing, as DistServe models a prefill instance (section 3.1): an M/D/1 queue, with requests arriving at random
(Poisson) and served one at a time in a fixed D = P / prefill rate (a compute-bound prefill gains nothing from
batching). At utilisation rho = lambda D the mean wait is rho D / (2 (1 - rho)) (Pollaczek-Khinchine for a constant
service time), so the mean time to the first token is D + rho D / (2 (1 - rho)) + the exposed transfer, counting the
first token as leaving from the decode pool. Requests are spread evenly over the prefill instances.

Goodput, DistServe's measure: the highest request rate at which the mean TTFT meets its target and the decode pool
keeps up within its TPOT target. Solving the mean for rho, with s = (TTFT target - exposed transfer) / D - 1, the
prefill pool meets the target up to rho = 2 s / (1 + 2 s). A decode instance running `decode_batch` sequences at
`decode_rate` tokens per second takes batch / rate per token, and finishes rate / output tokens requests a second.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from calckit.charts import layered
from calckit.spec import Calculator, Choice, Input, Output, Result, Value, number, text
from calckit.units import format_number, format_si

from .kv_cache import KV_CACHE, kv_values_per_token_layer

__all__ = ["DISAGGREGATION", "exposed_transfer", "kv_cache_input", "md1_ttft", "md1_utilisation_for"]

GIGA = 1e9
SATURATED = "—"


def exposed_transfer(transfer: float, prefill: float, layers: int, layerwise: bool) -> float:
    """Seconds of the KV transfer left after the prefill ends: all of it, or, streamed a layer at a time, the last
    layer's share or the link's backlog, whichever is longer."""
    if not layerwise:
        return transfer
    return max(transfer / layers, transfer - prefill * (layers - 1) / layers)


def md1_ttft(rate: float, service: float) -> float:
    """Mean time in an M/D/1 queue, waiting and served, at arrival `rate` and constant `service` time (rate x service
    below 1)."""
    rho = rate * service
    return service + rho * service / (2 * (1 - rho))


def md1_utilisation_for(target: float, service: float) -> float:
    """The highest utilisation at which an M/D/1 queue's mean time stays within `target`: 0 if one service is longer."""
    if target < service:
        return 0.0
    slack = target / service - 1
    return 2 * slack / (1 + 2 * slack)


def kv_cache_input(key: str, **changes: Any) -> Input:
    """The kv-cache calculator's own field for the attention's shape: one declaration for both."""
    return dataclasses.replace(next(spec for spec in KV_CACHE.inputs if spec.key == key), **changes)


def _text(key: str, value: Value) -> str:
    """An output's value as the form shows it: the summary writes each figure the same way."""
    return DISAGGREGATION.output(key).text(value)


def _compute(inputs: Mapping[str, Value]) -> Result:
    kind = text(inputs, "attention")
    layers, heads = int(number(inputs, "layers")), int(number(inputs, "heads"))
    values = kv_values_per_token_layer(
        kind,
        heads,
        min(int(number(inputs, "kv_heads")), heads),
        int(number(inputs, "head_dim")),
        int(number(inputs, "latent")),
        int(number(inputs, "rope_dim")),
    )
    per_token_layer = values * float(text(inputs, "kv_bytes"))
    prompt, output = number(inputs, "prompt"), number(inputs, "output")
    windowed = min(int(number(inputs, "windowed_layers")), layers)
    window = number(inputs, "window")
    kept = (layers - windowed) * prompt + windowed * min(window, prompt)
    kv_request = per_token_layer * kept
    transfer = kv_request / (number(inputs, "nics") * number(inputs, "nic_gbps") * GIGA / 8)
    service = prompt / number(inputs, "prefill_rate")
    exposed = exposed_transfer(transfer, service, layers, text(inputs, "transfer") == "layerwise")
    prefills, decodes = number(inputs, "prefill_instances"), number(inputs, "decode_instances")
    rate = number(inputs, "rate")
    rho = rate / prefills * service
    ttft_target, tpot_target = number(inputs, "ttft_slo") / 1e3, number(inputs, "tpot_slo") / 1e3
    tpot = number(inputs, "decode_batch") / number(inputs, "decode_rate")
    prefill_capacity = prefills / service
    decode_capacity = decodes * number(inputs, "decode_rate") / output
    prefill_goodput = prefills * md1_utilisation_for(ttft_target - exposed, service) / service
    decode_goodput = decode_capacity if tpot <= tpot_target else 0.0
    goodput = min(prefill_goodput, decode_goodput)
    gpus = (prefills + decodes) * number(inputs, "gpus_per_instance")
    if decode_goodput == 0:
        limit = f"the decode pool: {format_si(tpot, 's')} per token misses the {format_si(tpot_target, 's')} target"
    elif prefill_goodput == 0:
        limit = "the prefill pool: one prefill and its transfer take longer than the TTFT target"
    elif prefill_goodput <= decode_goodput:
        limit = "the prefill pool's queue, at the TTFT target"
    else:
        limit = "the decode pool's throughput"
    notes: dict[str, str] = {}
    values_out: dict[str, Value] = {
        "kv_per_token": per_token_layer * kept / prompt,
        "kv_per_request": kv_request,
        "transfer_time": transfer,
        "exposed_transfer": exposed,
        "prefill_time": service,
        "utilisation": rho,
        "tpot": tpot,
        "prefill_capacity": prefill_capacity,
        "decode_capacity": decode_capacity,
        "goodput": goodput,
        "goodput_per_gpu": goodput / gpus,
        "limited_by": limit,
    }
    if rho < 1:
        values_out["queue_wait"] = md1_ttft(rate / prefills, service) - service
        values_out["ttft"] = md1_ttft(rate / prefills, service) + exposed
        load = (
            f"at {format_number(rate)} requests a second the prefill pool is {_text('utilisation', rho)} busy and the "
            f"mean time to the first token is {_text('ttft', values_out['ttft'])}"
        )
    else:
        for key in ("queue_wait", "ttft"):
            values_out[key] = SATURATED
            notes[key] = (
                f"{format_number(rate)} requests a second is more than the prefill pool's "
                f"{_text('prefill_capacity', prefill_capacity)}: the queue grows without end."
            )
        load = (
            f"at {format_number(rate)} requests a second the prefill pool is overloaded and its queue grows without end"
        )
    nics = int(number(inputs, "nics"))
    summary = (
        f"A prompt of {int(prompt):,} tokens leaves {_text('kv_per_request', kv_request)} of cache, "
        f"{_text('transfer_time', transfer)} over {nics:,} NIC{'s' if nics != 1 else ''} "
        f"({_text('exposed_transfer', exposed)} of it after the {_text('prefill_time', service)} prefill); "
        f"{load}. Goodput is {_text('goodput', goodput)}, limited by {limit}."
    )
    return Result(
        values_out,
        summary,
        chart=_chart(prefills, service, exposed, ttft_target, rate, goodput, summary),
        notes=notes,
    )


def _chart(
    prefills: float, service: float, exposed: float, target: float, rate: float, goodput: float, summary: str
) -> dict[str, Any]:
    """Mean TTFT against the request rate, up to where the prefill pool saturates, with the target and the goodput."""
    capacity = prefills / service
    top = 3 * max(target, service + exposed)
    points = []
    for i in range(120):  # below saturation only: at i = 120, r can round under capacity while rate x service is 1
        r = capacity * i / 120
        ttft = md1_ttft(r / prefills, service) + exposed
        if ttft > top:
            break
        points.append({"rate": r, "ttft": ttft})
    marks: list[dict[str, Any]] = [
        {
            "data": {"values": points},
            "mark": {"type": "line", "strokeWidth": 2},
            "encoding": {
                "x": {
                    "field": "rate",
                    "type": "quantitative",
                    "title": "Requests per second",
                    "scale": {"domain": [0, capacity]},
                },
                "y": {
                    "field": "ttft",
                    "type": "quantitative",
                    "title": "Mean time to first token (s)",
                    "scale": {"domain": [0, top]},
                },
                "tooltip": [
                    {"field": "rate", "type": "quantitative", "title": "requests/s", "format": ".3~s"},
                    {"field": "ttft", "type": "quantitative", "title": "seconds", "format": ".3~s"},
                ],
            },
        },
        {
            "data": {"values": [{"ttft": target}]},
            "mark": {"type": "rule", "strokeDash": [2, 3], "strokeWidth": 1},
            "encoding": {"y": {"field": "ttft", "type": "quantitative"}},
        },
    ]
    if goodput > 0:
        marks.append(
            {
                "data": {"values": [{"rate": goodput}]},
                "mark": {"type": "rule", "strokeDash": [6, 4], "strokeWidth": 1, "color": "#d9480f"},
                "encoding": {"x": {"field": "rate", "type": "quantitative"}},
            }
        )
    if rate < capacity and md1_ttft(rate / prefills, service) + exposed <= top:
        marks.append(
            {
                "data": {"values": [{"rate": rate, "ttft": md1_ttft(rate / prefills, service) + exposed}]},
                "mark": {"type": "point", "filled": True, "size": 110, "color": "#e8590c"},
                "encoding": {
                    "x": {"field": "rate", "type": "quantitative"},
                    "y": {"field": "ttft", "type": "quantitative"},
                },
            }
        )
    return layered("Mean time to the first token against the request rate. " + summary, marks)


DISAGGREGATION = Calculator(
    name="disaggregation",
    title="Disaggregated prefill and decode: KV transfer, queueing and goodput",
    description=(
        "Prefill and decode on separate GPUs: the KV cache each prompt ships and how long it takes, the time to the "
        "first token under an M/D/1 queue, and the request rate that meets a TTFT and a TPOT target."
    ),
    inputs=(
        # Defaults: Llama 3 70B (Meta's config.json: 80 layers, 64 query heads, 8 KV heads of 128), a BF16 cache.
        kv_cache_input("attention"),
        kv_cache_input("layers"),
        kv_cache_input("heads"),
        kv_cache_input("kv_heads"),
        kv_cache_input("head_dim"),
        kv_cache_input("latent"),
        kv_cache_input("rope_dim"),
        kv_cache_input("kv_bytes"),
        Input(
            "window",
            "Sliding window",
            unit="tokens",
            kind="integer",
            default=4096,
            min=1,
            max=1e8,
            help="What a windowed layer keeps; used only for the windowed layers below.",
        ),
        Input("windowed_layers", "Layers with the sliding window", kind="integer", default=0, min=0, max=10_000),
        Input("prompt", "Prompt", unit="tokens", kind="integer", default=4096, min=1, max=1e8),
        Input("output", "Output", unit="tokens", kind="integer", default=512, min=1, max=1e8),
        Input("nics", "NICs carrying the transfer", kind="integer", default=8, min=1, max=10_000),
        Input("nic_gbps", "Bandwidth per NIC", unit="Gb/s", default=400.0, min=0.001, max=1e6),
        Input(
            "transfer",
            "KV transfer",
            kind="choice",
            default="after",
            choices=(
                Choice("after", "After the prefill ends"),
                Choice("layerwise", "Layer by layer, during the prefill"),
            ),
        ),
        Input(
            "prefill_rate",
            "Prefill rate, one instance",
            unit="tokens/s",
            default=27000.0,
            min=0.001,
            max=1e9,
            help="Prompt tokens per second one prefill instance sustains.",
        ),
        Input("prefill_instances", "Prefill instances", kind="integer", default=2, min=1, max=100_000),
        Input(
            "decode_rate",
            "Decode rate, one instance",
            unit="tokens/s",
            default=7590.0,
            min=0.001,
            max=1e9,
            help="Output tokens per second of one decode instance at the batch below.",
        ),
        Input("decode_batch", "Sequences per decode instance", kind="integer", default=64, min=1, max=1e6),
        Input("decode_instances", "Decode instances", kind="integer", default=1, min=1, max=100_000),
        Input("gpus_per_instance", "GPUs per instance", kind="integer", default=8, min=1, max=100_000),
        Input("ttft_slo", "Target: mean time to first token", unit="ms", default=400.0, min=0.001, max=1e7),
        Input("tpot_slo", "Target: time per output token", unit="ms", default=50.0, min=0.001, max=1e7),
        Input("rate", "Requests arriving", unit="requests/s", default=8.0, min=0.0, max=1e7),
    ),
    outputs=(
        Output("kv_per_token", "KV cache per prompt token", unit="B", format="si"),
        Output("kv_per_request", "KV cache per prompt", unit="B", format="si"),
        Output("transfer_time", "KV transfer time", unit="s", format="si"),
        Output("exposed_transfer", "Transfer left after the prefill", unit="s", format="si"),
        Output("prefill_time", "Prefill time, one prompt", unit="s", format="si"),
        Output("utilisation", "Prefill pool busy", format="percent"),
        Output("queue_wait", "Mean wait in the prefill queue", unit="s", format="si"),
        Output("ttft", "Mean time to first token, transfer included", unit="s", format="si"),
        Output("tpot", "Time per output token", unit="s", format="si"),
        Output("prefill_capacity", "Prefill pool at full load", unit="requests/s"),
        Output("decode_capacity", "Decode pool at full load", unit="requests/s"),
        Output("goodput", "Goodput within both targets", unit="requests/s"),
        Output("goodput_per_gpu", "Goodput per GPU", unit="requests/s"),
        Output("limited_by", "Limited by", format="text"),
    ),
    compute=_compute,
)
