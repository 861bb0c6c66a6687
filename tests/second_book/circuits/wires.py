"""Copper wire by American Wire Gauge: a data table for ```wires blocks, each figure with its source."""

from __future__ import annotations

from calckit.table import Cell, Column, DataTable, Row, Source

_SOURCE = "awg-table"
_SOURCES = {
    _SOURCE: Source(
        _SOURCE,
        "American wire gauge: table of AWG wire sizes (Wikipedia)",
        "https://en.wikipedia.org/wiki/American_wire_gauge",
        "checked 2026-12-01",
        "Diameters from ASTM B258's formula; resistance of annealed copper at 20 °C.",
    )
}
# AWG: (diameter in mm, resistance in ohms per km)
_GAUGES = {10: (2.588, 3.277), 12: (2.053, 5.211), 14: (1.628, 8.286)}


def _rows() -> dict[str, Row]:
    return {
        f"awg-{gauge}": Row(
            f"awg-{gauge}",
            f"AWG {gauge}",
            {"diameter": Cell(diameter, _SOURCE), "resistance": Cell(resistance, _SOURCE)},
            details="solid copper",
        )
        for gauge, (diameter, resistance) in _GAUGES.items()
    }


TABLE = DataTable(
    name="wires",
    title="Wire gauges",
    intro="Solid copper wire by gauge. Each figure links to its source.",
    columns=(Column("diameter", "Diameter (mm)"), Column("resistance", "Resistance (Ω/km)")),
    default_columns=("diameter", "resistance"),
    reference_columns=("diameter", "resistance"),
    rows=_rows,
    sources=lambda: _SOURCES,
    row_label="wire",
)
