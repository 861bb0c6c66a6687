"""Tables of chips from the chip database: the generated database page, and ```chips blocks in any page.

Every figure links to its numbered source on the database page, so a reader can check any number where it stands.

    ```chips
    chips: [tpu-v4, tpu-v5e, tpu-v5p]
    columns: [year, bf16, int8, memory, bandwidth, power]
    caption: Google's TPU generations, per chip.
    ```
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING, Any

from .blocks import Problem, load_mapping
from .fences import Fence

if TYPE_CHECKING:
    from calculators.chips import Chip, Figure

__all__ = ["COLUMNS", "ChipsBlock", "SourceLinks", "chip_table", "read_chips_block", "source_numbers"]


def source_numbers() -> dict[str, int]:
    """Each source's number, in the order of the database (the database page lists them so)."""
    from calculators.chips import load_sources

    return {source_id: number for number, source_id in enumerate(load_sources(), start=1)}


@dataclass(frozen=True)
class SourceLinks:
    """How a figure points at its source: a number, and an address on the database page."""

    numbers: dict[str, int]
    page: str = ""  # the database page's address relative to the current page; "" on that page itself

    def mark(self, source_id: str) -> str:
        """'S9': a source on the database page, never mistaken for the page's own footnote 9."""
        number = self.numbers[source_id]
        link = f'<a href="{self.page}#source-{source_id}" title="Source {number}">S{number}</a>'
        return f'<sup class="chip-source">{link}</sup>'


def _figure(figure: Figure | None, links: SourceLinks) -> str:
    """A figure's cell; its value also in data-value, which the table sorts by (the text has footnote marks)."""
    if figure is None:
        return "<td>—</td>"
    text = f"{figure.value:g}{links.mark(figure.source.id)}"
    if figure.headline_sparse and figure.headline:
        headline = f"{figure.headline:g}"
        text += f' <span title="vendor headline {headline} counts 2:4 sparsity">(sparse {headline})</span>'
    for alternative in figure.alternatives:
        text += f" (alt. {alternative.value:g}{links.mark(alternative.source.id)})"
    return f'<td data-value="{figure.value:g}">{text}</td>'


def _text(value: str) -> str:
    return f"<td>{escape(value)}</td>"


def _peak(precision: str) -> Callable[[Chip, SourceLinks], str]:
    return lambda chip, links: _figure(chip.peak_tflops.get(precision), links)


Column = tuple[str, Callable[["Chip", SourceLinks], str]]
COLUMNS: dict[str, Column] = {
    "year": ("Year", lambda chip, _: f'<td data-value="{chip.year}">{chip.year}</td>'),
    "form_factor": ("Form factor", lambda chip, _: _text(chip.form_factor)),
    "fp32": ("FP32 dense (TFLOP/s)", _peak("fp32")),
    "bf16": ("BF16 dense (TFLOP/s)", _peak("bf16")),
    "fp8": ("FP8 dense (TFLOP/s)", _peak("fp8")),
    "int8": ("INT8 dense (TOP/s)", _peak("int8")),
    "memory": ("Memory (GB)", lambda chip, links: _figure(chip.memory_gb, links)),
    "memory_type": ("Memory type", lambda chip, _: _text(chip.memory_type)),
    "bandwidth": ("Bandwidth (TB/s)", lambda chip, links: _figure(chip.bandwidth_tbs, links)),
    "sram": ("SRAM (MB)", lambda chip, links: _figure(chip.sram_mb, links)),
    "power": ("Power (W)", lambda chip, links: _figure(chip.power_w, links)),
    "price": ("Price per chip-hour (USD)", lambda chip, links: _figure(chip.price_per_hour, links)),
    "interconnect": ("Interconnect", lambda chip, _: _text(chip.interconnect)),
}
DEFAULT_COLUMNS = ("year", "bf16", "memory", "bandwidth", "power")


def as_of(chips: list[Chip]) -> str:
    """The newest date among the sources of these chips' figures (calculators.chips.as_of)."""
    from calculators.chips import as_of as figures_as_of

    return figures_as_of(chips)


def chip_table(
    chips: list[Chip], columns: tuple[str, ...], links: SourceLinks, *, label: str, details: bool, caption: str = ""
) -> str:
    """A sortable table, one row per chip; `details` adds form factor and memory type under each name."""
    head = "".join(f'<th scope="col">{escape(heading)}</th>' for heading in ["Chip", *(COLUMNS[c][0] for c in columns)])
    rows = []
    for chip in chips:
        name = escape(chip.name)
        if details:
            name += f"<br><small>{escape(chip.form_factor)}; {escape(chip.memory_type)}</small>"
        else:
            name = f'<a href="{links.page}#chip-{chip.id}">{name}</a>'
        cells = "".join(COLUMNS[column][1](chip, links) for column in columns)
        rows.append(f'<tr{f" id=chip-{chip.id}" if details else ""}><th scope="row">{name}</th>{cells}</tr>')
    dated = f"Figures as of {as_of(chips)}." if as_of(chips) else ""
    caption = f"{caption} {dated}".strip()
    caption_html = f"<caption>{escape(caption)}</caption>" if caption else ""
    return (
        f'<div class="calc-table-wrap" role="region" tabindex="0" aria-label="{escape(label)}">'
        f'<table class="calc-table" data-sortable>{caption_html}<thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>"
    )


@dataclass(frozen=True)
class ChipsBlock:
    chips: tuple[str, ...]
    columns: tuple[str, ...]
    caption: str


_KEYS = ("chips", "columns", "caption")


def _list_of_text(value: Any) -> list[str] | None:
    if isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()]
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return value
    return None


def read_chips_block(fence: Fence, fence_line: int) -> ChipsBlock | list[Problem]:
    """The chips and columns a ```chips block names, or every problem, with its file line."""
    from calculators.chips import load_chips

    mapping = load_mapping(fence.body, fence_line, "chips", expected="'chips: [IDS]'", holds="'chips' and options")
    if isinstance(mapping, Problem):
        return [mapping]
    values, lines = mapping
    problems = [
        Problem(lines[key], f"chips block: unknown key '{key}' (expected one of: {', '.join(_KEYS)})")
        for key in values
        if key not in _KEYS
    ]
    known = load_chips()
    chips = _list_of_text(values.get("chips"))
    if "chips" not in values or not chips:
        problems.append(Problem(lines.get("chips", fence_line), "chips block needs 'chips': a list of chip ids"))
    else:
        problems += [
            Problem(lines["chips"], f"chips block: unknown chip '{chip}' (expected one of: {', '.join(known)})")
            for chip in chips
            if chip not in known
        ]
    columns = _list_of_text(values.get("columns", list(DEFAULT_COLUMNS)))
    if columns is None:
        problems.append(Problem(lines["columns"], "chips block: 'columns' must be a list of column names"))
    else:
        problems += [
            Problem(lines["columns"], f"chips block: unknown column '{column}' (expected one of: {', '.join(COLUMNS)})")
            for column in columns
            if column not in COLUMNS
        ]
    caption = values.get("caption", "")
    if not isinstance(caption, str):
        problems.append(Problem(lines["caption"], "chips block: 'caption' must be text"))
    if problems:
        return sorted(problems, key=lambda problem: problem.line)
    assert chips is not None and columns is not None and isinstance(caption, str)
    return ChipsBlock(tuple(chips), tuple(columns), caption)
