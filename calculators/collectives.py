"""What a collective costs on a given network: all-gather, reduce-scatter, all-reduce and all-to-all, with a latency
term (the alpha-beta model: a fixed cost per step plus bytes over bandwidth).

V is the size of each chip's full buffer: what an all-gather ends with, what a reduce-scatter starts from, the array
an all-reduce sums, the buffer each chip splits among the others in an all-to-all. `w` is the bandwidth of one link
in one direction (times the share of it achieved), `a` the fixed cost of one step, f = (N - 1) / N.

- Ring (bidirectional, with a wraparound link): an all-gather sends half the shards each way, f V / (2 w), in
  ceil((N - 1) / 2) steps (jax-ml/scaling-book, "Sharded Matrices", T = V / W_bidirectional).
- Torus of d axes (TPU ICI): each chip has 2 d links, so the bandwidth term falls d-fold, f V / (2 d w); the steps
  add up along each axis (scaling book: V / (W_bidirectional x n_axes)).
- Switched (NVLink through NVSwitch): one port of w per chip in each direction; the ring algorithm that NCCL uses
  sends f V in N - 1 steps (Thakur, Rabenseifner and Gropp 2005: (p - 1) a + f n b).
- Two levels (nodes of G chips on a switch, joined by a slower network of w_out per chip): gather across nodes the
  1/G of the data that each chip's peers hold, f_M V / (G w_out) with M = N / G nodes, and within the node, f_G V / w.
  The two phases are pipelined, chunk by chunk, so the slower of them sets the bandwidth term (the scaling book,
  "How to Think About GPUs": the cost is the larger of the node's and the network's; NCCL's rings, one per NIC, do
  the same), while their steps add up. So a node's G NICs together, not one chip's, bound a gather over all the chips.
- An all-reduce is a reduce-scatter then an all-gather: twice the time (Patarasuk and Yuan 2009).
- A tree all-reduce (NCCL's double binary tree, on a switch or nodes on a network) reduces up a chain inside each node
  and a binary tree across the nodes, then broadcasts back down: its latency is NCCL's own model,
  2 ((G - 1) a + floor(log2 M) a_out) for M nodes of G chips, logarithmic in the nodes where the ring's 2 (M - 1)
  network steps are linear; its bandwidth term is the ring's over 0.92, the factor NCCL's model applies to the tree
  (`src/graph/tuning.cc`). On one switch the chain makes it no faster than the ring; on a torus, rings are kept.
- An all-to-all sends f V: on a switch, in N - 1 pairwise steps (Thakur et al.); on a ring each piece travels to its
  destination, so the links carry (V / N) x sum over j of min(j, N - j) each way; on a torus the axes run at once
  and the longest axis decides.

nccl-tests report "bus bandwidth": size / time times f (2 f for an all-reduce), which on a switch equals the link's
own bandwidth when bandwidth-bound; it is given so that measured figures can be set beside the nominal one.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import Any

from calckit.charts import decade_domain, layered, log_axis
from calckit.spec import Calculator, Choice, Input, Output, Result, Value, number, text
from calckit.units import format_number, format_si

__all__ = ["COLLECTIVE", "CollectiveCost", "collective_cost", "torus_shape"]

GIGA, MEGA, MICRO = 1e9, 1e6, 1e-6
OPS = {
    "all-gather": "All-gather",
    "reduce-scatter": "Reduce-scatter",
    "all-reduce": "All-reduce",
    "all-to-all": "All-to-all",
}
TOPOLOGIES = {
    "ring": "Ring (1-D torus)",
    "torus-2d": "2-D torus (TPU v5e, v6e)",
    "torus-3d": "3-D torus (TPU v4, v5p, 7x)",
    "switched": "Switched (NVLink and NVSwitch)",
    "two-level": "Nodes on a switch, joined by a network (InfiniBand, Ethernet)",
}


@dataclass(frozen=True)
class CollectiveCost:
    bandwidth_time: float  # s
    latency_time: float  # s
    bytes_sent: float  # by each chip
    shape: str

    @property
    def time(self) -> float:
        return self.bandwidth_time + self.latency_time


@lru_cache(maxsize=256)
def torus_shape(chips: int, axes: int) -> tuple[int, ...]:
    """The most nearly cubic way to lay `chips` out on `axes` axes (1 to 3), largest side first: 64 -> (4, 4, 4) on
    three axes, 32 -> (8, 4) on two; a prime count leaves one long axis (7 -> (7, 1))."""
    if axes == 1:
        return (chips,)
    best: tuple[int, ...] = (chips, *([1] * (axes - 1)))
    for side in _divisors(chips):
        rest = torus_shape(chips // side, axes - 1)
        shape = tuple(sorted((side, *rest), reverse=True))
        if shape[0] < best[0] or (shape[0] == best[0] and shape < best):
            best = shape
    return best


def _divisors(n: int) -> list[int]:
    small = [d for d in range(1, math.isqrt(n) + 1) if n % d == 0]
    return small + [n // d for d in reversed(small) if d * d != n]


def _layout(shape: tuple[int, ...]) -> str:
    """'4 × 4 × 4', or 'a ring of 8' for one axis."""
    sides = [side for side in shape if side > 1] or [1]
    return f"a ring of {sides[0]}" if len(sides) == 1 else " × ".join(map(str, sides))


def _ring_all_to_all_steps(k: int) -> float:
    """Sum over j = 1 .. k - 1 of min(j, k - j), which is floor(k^2 / 4): shard-hops per chip on a bidirectional ring
    of k."""
    return float(k * k // 4)


TREE_BANDWIDTH = 0.92  # NCCL's tuning model: a tree all-reduce's bus bandwidth is 0.92 of the link's


def collective_cost(
    op: str,
    topology: str,
    size: float,
    chips: int,
    link: float,
    latency: float,
    *,
    node: int = 8,
    out_link: float = 50e9,
    out_latency: float = 2.7e-6,
    algorithm: str = "ring",
) -> CollectiveCost:
    """The cost of `op` over `chips` chips for a buffer of `size` bytes (see the module's docstring)."""
    n = chips
    f = (n - 1) / n
    if op == "all-to-all":
        return _all_to_all(topology, size, n, link, latency, node, out_link, out_latency)
    if algorithm == "tree" and op == "all-reduce" and topology in ("switched", "two-level"):
        ring = collective_cost(
            op, topology, size, n, link, latency, node=node, out_link=out_link, out_latency=out_latency
        )
        inside, nodes = (n, 1) if topology == "switched" or n <= node else (node, math.ceil(n / node))
        steps = 2 * ((inside - 1) * latency + int(math.log2(nodes)) * out_latency)
        return CollectiveCost(ring.bandwidth_time / TREE_BANDWIDTH, steps, ring.bytes_sent, ring.shape + ", tree")
    if topology == "ring" or topology.startswith("torus"):
        axes = 1 if topology == "ring" else int(topology[-2])
        shape = torus_shape(n, axes)
        used = sum(1 for side in shape if side > 1)
        gather = CollectiveCost(
            f * size / (2 * used * link),
            sum(math.ceil((side - 1) / 2) for side in shape) * latency,
            f * size,
            _layout(shape),
        )
    elif topology == "switched" or n <= node:
        gather = CollectiveCost(f * size / link, (n - 1) * latency, f * size, f"{n} on one switch")
    else:
        nodes = math.ceil(n / node)
        across = (nodes - 1) / nodes * size / node
        within = (node - 1) / node * size
        gather = CollectiveCost(
            max(across / out_link, within / link),
            (nodes - 1) * out_latency + (node - 1) * latency,
            across + within,
            f"{nodes} nodes of {node}",
        )
    if op == "all-reduce":
        return CollectiveCost(2 * gather.bandwidth_time, 2 * gather.latency_time, 2 * gather.bytes_sent, gather.shape)
    return gather


def _all_to_all(
    topology: str, size: float, n: int, link: float, latency: float, node: int, out_link: float, out_latency: float
) -> CollectiveCost:
    sent = (n - 1) / n * size
    if topology == "ring" or topology.startswith("torus"):
        axes = 1 if topology == "ring" else int(topology[-2])
        shape = torus_shape(n, axes)
        longest = max(size / side * _ring_all_to_all_steps(side) / (2 * link) for side in shape)
        return CollectiveCost(longest, sum(side // 2 for side in shape) * latency, sent, _layout(shape))
    if topology == "switched" or n <= node:
        return CollectiveCost(sent / link, (n - 1) * latency, sent, f"{n} on one switch")
    nodes = math.ceil(n / node)
    outside = size * (n - node) / n
    inside = size * (node - 1) / n
    return CollectiveCost(
        max(outside / out_link, inside / link),
        (node - 1) * latency + (n - node) * out_latency,
        sent,
        f"{nodes} nodes of {node}",
    )


def _costing(inputs: Mapping[str, Value]) -> Callable[[float], CollectiveCost]:
    """The form's collective as a function of the buffer's size, its inputs read once: the chart prices 58 sizes."""
    share = number(inputs, "efficiency")
    op = text(inputs, "op")
    return partial(
        collective_cost,
        op,
        text(inputs, "topology"),
        chips=int(number(inputs, "chips")),
        link=number(inputs, "link_gbs") * GIGA * share,
        latency=number(inputs, "latency_us") * MICRO,
        node=int(number(inputs, "node_size")),
        out_link=number(inputs, "scaleout_gbs") * GIGA * share,
        out_latency=number(inputs, "scaleout_latency_us") * MICRO,
        algorithm=text(inputs, "algorithm") if op == "all-reduce" else "ring",
    )


def _compute(inputs: Mapping[str, Value]) -> Result:
    size = number(inputs, "size_mb") * MEGA
    op, n = text(inputs, "op"), number(inputs, "chips")
    cost = _costing(inputs)(size)
    algbw = size / cost.time
    bus = algbw * (2 if op == "all-reduce" else 1) * (n - 1) / n
    per_byte = cost.bandwidth_time / size
    crossover = cost.latency_time / per_byte
    bound = "Latency-bound" if cost.latency_time > cost.bandwidth_time else "Bandwidth-bound"
    summary = (
        f"{OPS[op]} of {format_si(size, 'B')} per chip over {format_number(n)} chips ({cost.shape}): "
        f"{COLLECTIVE.output('time').text(cost.time)}, of which {format_si(cost.latency_time, 's')} is latency; "
        f"{bound.lower()}; latency outweighs bandwidth below {format_si(crossover, 'B')}."
    )
    return Result(
        {
            "time": cost.time,
            "bandwidth_time": cost.bandwidth_time,
            "latency_time": cost.latency_time,
            "bytes_sent": cost.bytes_sent,
            "algbw": algbw,
            "busbw": bus,
            "crossover": crossover,
            "bound": bound,
            "shape": cost.shape,
        },
        summary,
        chart=_chart(inputs, size, cost.time, summary),
    )


def _chart(inputs: Mapping[str, Value], size: float, time: float, summary: str) -> dict[str, Any]:
    """Time against buffer size, log-log, from 1 kB to 10 GB: flat where latency rules, a slope of one after."""
    sizes = sorted({10.0 ** (3 + i / 8) for i in range(57)} | {size})
    points: list[dict[str, Any]] = []
    times: list[float] = []
    costing = _costing(inputs)
    for s in sizes:
        cost = costing(s)
        times += [cost.time, cost.bandwidth_time]
        points += [
            {"size": s, "time": cost.time, "term": "latency + bandwidth"},
            {"size": s, "time": cost.bandwidth_time, "term": "bandwidth alone"},
        ]
    x = log_axis("size", "Bytes per chip", decade_domain(sizes[0], sizes[-1], margin=0))
    y = log_axis("time", "Time (s)", decade_domain(min(times), max(times), margin=0))
    return layered(
        "Collective time against size. " + summary,
        [
            {
                "data": {"values": points},
                "mark": {"type": "line", "strokeWidth": 2},
                "encoding": {
                    "x": x,
                    "y": y,
                    "strokeDash": {
                        "field": "term",
                        "type": "nominal",
                        "title": None,
                        "scale": {"domain": ["latency + bandwidth", "bandwidth alone"], "range": [[1, 0], [6, 4]]},
                        # Below the plot: on a phone a legend at the side takes a third of the width.
                        "legend": {"orient": "bottom", "direction": "vertical"},
                    },
                    "tooltip": [
                        {"field": "size", "type": "quantitative", "title": "bytes", "format": ".3~s"},
                        {"field": "time", "type": "quantitative", "title": "seconds", "format": ".3~s"},
                        {"field": "term", "type": "nominal"},
                    ],
                },
            },
            {
                "data": {"values": [{"size": size, "time": time}]},
                "mark": {"type": "point", "filled": True, "size": 110, "color": "#e8590c"},
                "encoding": {
                    "x": {"field": "size", "type": "quantitative"},
                    "y": {"field": "time", "type": "quantitative"},
                },
            },
        ],
    )


_TWO_LEVEL = ("topology", ("two-level",))

COLLECTIVE = Calculator(
    name="collective",
    title="A collective on a network",
    description=(
        "The time of an all-gather, reduce-scatter, all-reduce or all-to-all on a ring, a 2-D or 3-D torus, a switch "
        "or nodes joined by a network, with a latency term."
    ),
    inputs=(
        Input(
            "op", "Collective", kind="choice", default="all-reduce", choices=tuple(Choice(k, v) for k, v in OPS.items())
        ),
        Input(
            "topology",
            "Network",
            kind="choice",
            default="switched",
            choices=tuple(Choice(k, v) for k, v in TOPOLOGIES.items()),
        ),
        Input(
            "size_mb",
            "Buffer per chip",
            unit="MB",
            default=64.0,
            min=1e-6,
            max=1e6,
            slider="log",
            help="What an all-gather ends with, a reduce-scatter starts from, an all-reduce sums, an all-to-all "
            "sends and receives.",
        ),
        Input("chips", "Chips", kind="integer", default=8, min=2, max=1e5),
        Input(
            "algorithm",
            "Algorithm",
            kind="choice",
            default="ring",
            choices=(
                Choice("ring", "Ring: 2 (N − 1) steps"),
                Choice("tree", "Tree (NCCL): a chain in each node, log₂ of the nodes across"),
            ),
            shown_when=("op", ("all-reduce",)),
            help="NCCL runs trees for all-reduce only; on one switch its chain is no shorter than the ring, and a "
            "torus keeps its rings.",
        ),
        Input(
            "link_gbs",
            "Bandwidth per link, one direction",
            unit="GB/s",
            default=450.0,
            min=0.001,
            max=1e5,
            help="Torus: each neighbour link (v5p ICI 90). Switch: each chip's port (H100 NVLink 450). Two levels: "
            "within the node.",
        ),
        Input(
            "latency_us",
            "Latency per step",
            unit="µs",
            default=0.6,
            min=0,
            max=1e4,
            help="About 1 µs per ICI hop; NCCL's model charges 0.6 to 3.4 µs per NVLink ring step.",
        ),
        Input("node_size", "Chips per node", kind="integer", default=8, min=1, max=1e5, shown_when=_TWO_LEVEL),
        Input(
            "scaleout_gbs",
            "Network bandwidth per chip, one direction",
            unit="GB/s",
            default=50.0,
            min=0.001,
            max=1e5,
            shown_when=_TWO_LEVEL,
            help="A 400 Gb/s NIC per GPU: 50 GB/s.",
        ),
        Input(
            "scaleout_latency_us",
            "Network latency per step",
            unit="µs",
            default=2.7,
            min=0,
            max=1e4,
            shown_when=_TWO_LEVEL,
        ),
        Input(
            "efficiency",
            "Share of nominal bandwidth achieved",
            default=1.0,
            min=0.01,
            max=1.0,
            step=0.01,
            help="1 for the data sheet; a measured bus bandwidth over the nominal one for a real network.",
        ),
    ),
    outputs=(
        Output("time", "Time", unit="s", format="si"),
        Output("bandwidth_time", "Bandwidth term", unit="s", format="si"),
        Output("latency_time", "Latency term", unit="s", format="si"),
        Output("bytes_sent", "Bytes each chip sends", unit="B", format="si"),
        Output("algbw", "Algorithm bandwidth (size / time)", unit="B/s", format="si"),
        Output("busbw", "Bus bandwidth, as nccl-tests reports it", unit="B/s", format="si"),
        Output("crossover", "Size where latency and bandwidth terms are equal", unit="B", format="si"),
        Output("bound", "Limited by", format="text"),
        Output("shape", "Layout used", format="text"),
    ),
    compute=_compute,
)
