"""The chip database as calckit's data table: ```chips blocks in any page, and the generated database page.

Every figure keeps its source, so the plugin marks each cell with the number of its source on the database page.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from calckit.table import Cell, Column, DataTable, Row, Source

from .chips import PRECISIONS, Chip, Figure, load_chips, load_sources

__all__ = ["TABLE"]


def _cell(figure: Figure | None) -> Cell | None:
    if figure is None:
        return None
    aside, title = "", ""
    if figure.headline_sparse and figure.headline:
        aside, title = f"(sparse {figure.headline:g})", f"vendor headline {figure.headline:g} counts 2:4 sparsity"
    elif figure.headline:
        aside = f"(headline {figure.headline:g})"
        title = "the vendor's headline, not a dense peak: see the source's note"
    if figure.price_class:
        aside, title = f"({figure.price_class})", f"price class: {figure.price_class}"
    alternatives = tuple(Cell(alt.value, alt.source.id) for alt in figure.alternatives)
    return Cell(figure.value, figure.source.id, aside, title, alternatives)


def _peak(precision: str) -> Callable[[Chip], Cell | None]:
    return lambda chip: _cell(chip.peak_tflops.get(precision))


_COLUMNS: dict[str, tuple[str, Callable[[Chip], Cell | None]]] = {
    "year": ("Year", lambda chip: Cell(chip.year)),
    "form_factor": ("Form factor", lambda chip: Cell(chip.form_factor)),
    "fp32": ("FP32 dense (TFLOP/s)", _peak("fp32")),
    "bf16": ("BF16 dense (TFLOP/s)", _peak("bf16")),
    "fp8": ("FP8 dense (TFLOP/s)", _peak("fp8")),
    "fp4": ("FP4 dense (TFLOP/s)", _peak("fp4")),
    "int8": ("INT8 dense (TOP/s)", _peak("int8")),
    "memory": ("Memory (GB)", lambda chip: _cell(chip.memory_gb)),
    "memory_type": ("Memory type", lambda chip: Cell(chip.memory_type)),
    "bandwidth": ("Bandwidth (TB/s)", lambda chip: _cell(chip.bandwidth_tbs)),
    "sram": ("SRAM (MB)", lambda chip: _cell(chip.sram_mb)),
    "power": ("Power (W)", lambda chip: _cell(chip.power_w)),
    "price": ("Price per chip-hour (USD)", lambda chip: _cell(chip.price_per_hour)),
    "interconnect": ("Interconnect", lambda chip: Cell(chip.interconnect)),
}


def _row(chip: Chip) -> Row:
    cells = {key: cell for key, (_, make) in _COLUMNS.items() if (cell := make(chip)) is not None}
    return Row(chip.id, chip.name, cells, details=f"{chip.form_factor}; {chip.memory_type}")


def _rows() -> Mapping[str, Row]:
    return {chip_id: _row(chip) for chip_id, chip in load_chips().items()}


def _sources() -> Mapping[str, Source]:
    return load_sources()


_INTRO = """The figures behind every chip picker in the book, generated from `calculators/chips.toml`. Peaks are
**dense**: where a vendor's headline counts 2:4 structured sparsity, the table shows the dense figure and notes the
sparse one. Each figure links to its source; where good sources disagree, the alternative is shown with its own. A
price per chip-hour is one chip's share of a cloud's published instance price; beside it stands its class (on-demand,
reserved, spot or capacity block), and its source gives the date, since clouds revise prices often. Select a column's
heading to sort by it."""

TABLE = DataTable(
    name="chips",
    title="Chip database",
    intro=_INTRO,
    columns=tuple(Column(key, heading) for key, (heading, _) in _COLUMNS.items()),
    default_columns=("year", "bf16", "memory", "bandwidth", "power"),
    reference_columns=("year", *PRECISIONS, "memory", "bandwidth", "sram", "power", "price"),
    rows=_rows,
    sources=_sources,
    row_label="chip",
)
