"""A weight-stationary systolic array, cycle by cycle: which processing element works on which input row.

An N x N array holds one weight per processing element (PE). Row k of the input X enters array row i at cycle k + i
(each array row starts one cycle after the one above, so that values meet the partial sums they belong to), moves one
PE to the right per cycle, and partial sums move one PE down per cycle. So PE(i, j) works on input row k = t - i - j
at cycle t, when 0 <= k < M, and the finished y[k, j] leaves the bottom of column j at the end of cycle k + N - 1 + j.
A pass of M rows takes M + 2N - 2 cycles, and each PE is busy for M of them: the array is busy M / (M + 2N - 2) of the
pass (Kung, "Why Systolic Architectures?", IEEE Computer 15(1), 1982; Jouppi et al., "In-Datacenter Performance
Analysis of a Tensor Processing Unit", ISCA 2017, for the TPU's weight-stationary matrix unit).
"""

from __future__ import annotations

from collections.abc import Mapping

from calckit.charts import POINT_COLOR, layered
from calckit.spec import Calculator, Input, Output, Result, Table, Value, number

__all__ = ["SYSTOLIC", "busy_pes", "leaving", "pass_cycles", "working_row"]

_SUBSCRIPTS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
IDLE = "·"
IDLE_STROKE = "#8a8a8a"  # the outline of an idle PE: decoration only, seen on both of Material's schemes


def pass_cycles(size: int, rows: int) -> int:
    """Cycles for `rows` input rows to pass through a `size` x `size` array, from the first entering to the last out."""
    return rows + 2 * size - 2


def working_row(i: int, j: int, cycle: int, rows: int) -> int | None:
    """The input row PE(i, j) works on at `cycle`, or None when it is idle."""
    k = cycle - i - j
    return k if 0 <= k < rows else None


def busy_pes(size: int, rows: int, cycle: int) -> int:
    return sum(working_row(i, j, cycle, rows) is not None for i in range(size) for j in range(size))


def leaving(size: int, rows: int, cycle: int) -> list[tuple[int, int]]:
    """The outputs (k, j) whose sums leave the bottom of the array at the end of `cycle`, by column."""
    return [(cycle - (size - 1) - j, j) for j in range(size) if 0 <= cycle - (size - 1) - j < rows]


def _text(key: str, value: Value) -> str:
    """An output's value as the form shows it: the summary writes each figure the same way."""
    return SYSTOLIC.output(key).text(value)


def _x(k: int) -> str:
    return "x" + str(k).translate(_SUBSCRIPTS)


def _outputs(found: list[tuple[int, int]]) -> str:
    return ", ".join(f"y[{k},{j}]" for k, j in found)


def _schedule(size: int, rows: int, cycle: int) -> Table:
    """Every cycle of the pass: what each array row's PEs work on (· idle), and what leaves the bottom."""
    table_rows = []
    for t in range(pass_cycles(size, rows)):
        cells = [
            " ".join(_x(k) if (k := working_row(i, j, t, rows)) is not None else IDLE for j in range(size))
            for i in range(size)
        ]
        mark = f"▶ {t}" if t == cycle else str(t)
        table_rows.append((mark, *cells, _outputs(leaving(size, rows, t)) or "—"))
    columns = ("cycle", *(f"array row {i}" for i in range(size)), "leaves the bottom")
    return Table(columns, tuple(table_rows), caption=f"The whole pass; ▶ marks cycle {cycle}.")


def _chart(size: int, rows: int, cycle: int) -> dict[str, object]:
    cells = [
        {
            "row": f"row {i}",
            "column": f"column {j}",
            "label": _x(k) if (k := working_row(i, j, cycle, rows)) is not None else IDLE,
            "busy": k is not None,
        }
        for i in range(size)
        for j in range(size)
    ]
    out = {k_j[1]: f"y[{k_j[0]},{k_j[1]}]" for k_j in leaving(size, rows, cycle)}
    below = [{"row": "leaves", "column": f"column {j}", "label": out.get(j, ""), "busy": j in out} for j in range(size)]
    order = [f"row {i}" for i in range(size)] + ["leaves"]
    columns = [f"column {j}" for j in range(size)]
    plain = {"labelAngle": 0, "domain": False, "ticks": False, "labelPadding": 6}
    x = {"field": "column", "type": "ordinal", "sort": columns, "title": None, "axis": {"orient": "top", **plain}}
    y = {"field": "row", "type": "ordinal", "sort": order, "title": None, "axis": plain}
    busy = f"{busy_pes(size, rows, cycle)} of {size * size}"
    description = (
        f"The {size} by {size} array at cycle {cycle}: {busy} processing elements work. "
        + "; ".join(
            f"row {i}: " + " ".join(str(c["label"]) for c in cells[i * size : (i + 1) * size]) for i in range(size)
        )
        + (f". Leaving the bottom: {_outputs(leaving(size, rows, cycle))}." if out else ".")
    )
    return layered(
        description,
        [
            {
                "data": {"values": cells},
                "mark": {"type": "rect", "filled": False, "cornerRadius": 4},
                "encoding": {
                    "x": x,
                    "y": y,
                    "stroke": {
                        "field": "busy",
                        "type": "nominal",
                        "scale": {"domain": [True, False], "range": [POINT_COLOR, IDLE_STROKE]},
                        "legend": None,
                    },
                    "strokeWidth": {"condition": {"test": "datum.busy", "value": 3}, "value": 1},
                },
            },
            {
                "data": {"values": cells + below},
                "mark": {"type": "text", "fontSize": 15},
                "encoding": {"x": x, "y": y, "text": {"field": "label"}},
            },
        ],
        height=44 * (size + 1),
    )


def _compute(inputs: Mapping[str, Value]) -> Result:
    size, rows, cycle = int(number(inputs, "size")), int(number(inputs, "rows")), int(number(inputs, "cycle"))
    cycles = pass_cycles(size, rows)
    busy = busy_pes(size, rows, cycle)
    entering = [(cycle - i, i) for i in range(size) if 0 <= cycle - i < rows]
    out = leaving(size, rows, cycle)
    if cycle < cycles:
        where = f"Cycle {cycle} of the pass's {_text('cycles', cycles)} (0 to {cycles - 1})"
    else:
        where = f"Cycle {cycle}, after the pass's {_text('cycles', cycles)} (0 to {cycles - 1}): every sum has left"
    parts = [f"{where}: {_text('busy', busy)} of {size * size} PEs work."]
    if entering:
        parts.append("Entering on the left: " + ", ".join(f"x[{k},{i}] into row {i}" for k, i in entering) + ".")
    if out:
        parts.append(f"Leaving the bottom: {_outputs(out)}.")
    utilization = 100 * rows / cycles
    parts.append(f"Over the whole pass each PE works {_text('utilization', utilization)} of the cycles.")
    return Result(
        {"busy": busy, "cycles": cycles, "utilization": utilization},
        " ".join(parts),
        chart=_chart(size, rows, cycle),
        table=_schedule(size, rows, cycle),
    )


SYSTOLIC = Calculator(
    name="systolic",
    title="A systolic array, cycle by cycle",
    description=(
        "A weight-stationary array multiplying a stream of input rows: which processing element works on which row "
        "at each cycle, and how busy the array is over the pass."
    ),
    inputs=(
        Input("size", "Array side (PEs per row and column)", kind="integer", default=8, min=1, max=8),
        Input("rows", "Input rows streamed through", kind="integer", default=64, min=1, max=64),
        Input(
            "cycle",
            "Cycle",
            kind="integer",
            default=3,  # with every other input at its default or at either end of its range, a cycle of the pass
            min=0,
            max=77,  # the last cycle of the longest pass: 64 rows through an 8 x 8 array
            step=1,
            slider="linear",
            player=True,
            player_until="cycles",
            help="Step through the pass with Previous and Next, or Play it. A cycle after the pass shows it done.",
        ),
    ),
    outputs=(
        Output("busy", "PEs working this cycle", digits=3),
        Output("cycles", "Cycles for the whole pass", digits=3),
        Output("utilization", "PEs busy over the pass", unit="%", digits=3),
    ),
    compute=_compute,
)
