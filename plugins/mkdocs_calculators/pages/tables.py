"""A book's data table (calckit.table) as HTML: table blocks (blocks/table/) and the generated reference page's table.

Every figure links to its numbered source on the reference page, so a reader can check any number where it stands.
For this book the table is the chip database, and a block reads:

    ```chips
    chips: [tpu-v4, tpu-v5e, tpu-v5p]
    columns: [year, bf16, int8, memory, bandwidth, power]
    caption: Google's TPU generations, per chip.
    ```
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html import escape, unescape
from typing import TYPE_CHECKING

from .stand_in import PAGE_NARROW, PAGE_WIDE, table_stand_in

if TYPE_CHECKING:
    from calckit.table import Cell, DataTable, Row

__all__ = ["SourceLinks", "cell_text", "data_table", "source_numbers"]


def source_numbers(table: DataTable) -> dict[str, int]:
    """Each source's number, in the order the table declares them (the reference page lists them so)."""
    return {source_id: number for number, source_id in enumerate(table.sources(), start=1)}


@dataclass(frozen=True)
class SourceLinks:
    """How a figure points at its source: a number, and an address on the reference page."""

    numbers: dict[str, int]
    page: str = ""  # the reference page's address relative to the current page; "" on that page itself

    def mark(self, source_id: str) -> str:
        """'S9': a source on the reference page, never mistaken for the page's own footnote 9."""
        number = self.numbers[source_id]
        link = f'<a href="{self.page}#source-{source_id}" title="Source {number}">S{number}</a>'
        return f'<sup class="table-source">{link}</sup>'


def cell_text(html: str) -> str:
    """What a cell's HTML reads as: its text, the tags between words as spaces."""
    return unescape(re.sub(r"<[^>]+>", " ", html)).strip()


def _figure(cell: Cell, links: SourceLinks) -> str:
    return f"{cell.value:g}{links.mark(cell.source) if cell.source else ''}"


def _cell(cell: Cell | None, links: SourceLinks) -> str:
    """A cell; a number also in data-value, which the table sorts by (the text has source marks)."""
    if cell is None:
        return "<td>—</td>"
    if isinstance(cell.value, str):
        return f"<td>{escape(cell.value)}{links.mark(cell.source) if cell.source else ''}</td>"
    text = _figure(cell, links)
    if cell.aside:
        title = f' title="{escape(cell.aside_title)}"' if cell.aside_title else ""
        text += f" <span{title}>{escape(cell.aside)}</span>"
    for alternative in cell.alternatives:
        text += f" (alt. {_figure(alternative, links)})"
    return f'<td data-value="{cell.value:g}">{text}</td>'


def data_table(
    table: DataTable,
    rows: list[Row],
    columns: tuple[str, ...],
    links: SourceLinks,
    *,
    label: str,
    details: bool,
    caption: str = "",
) -> str:
    """A sortable table, one row per row; `details` (the reference page) adds each row's details under its name and
    gives the row an id to link to; otherwise each name links to its row there."""
    from calckit.table import as_of

    headings = [table.row_label.capitalize(), *(table.heading(column) for column in columns)]
    head = "".join(f'<th scope="col">{escape(heading)}</th>' for heading in headings)
    html_rows = []
    text_rows = []  # what each row reads, for its height off screen
    for row in rows:
        name = escape(row.name)
        if details:
            name += f"<br><small>{escape(row.details)}</small>" if row.details else ""
        else:
            name = f'<a href="{links.page}#{table.row_label}-{row.id}">{name}</a>'
        cell_html = [_cell(row.cells.get(column), links) for column in columns]
        cells = "".join(cell_html)
        # A name's details (a line in small type) after a line break, which the estimate reads as small type.
        shown = f"{row.name}\n{row.details}" if details and row.details else row.name
        text_rows.append([shown, *(cell_text(cell) for cell in cell_html)])
        row_id = f" id={table.row_label}-{row.id}" if details else ""
        html_rows.append(f'<tr{row_id}><th scope="row">{name}</th>{cells}</tr>')
    date = as_of(rows, table.sources())
    caption = f"{caption} {'Figures as of ' + date + '.' if date else ''}".strip()
    caption_html = f"<caption>{escape(caption)}</caption>" if caption else ""
    stand_in = table_stand_in({"caption": caption, "columns": headings, "rows": text_rows}, PAGE_WIDE, PAGE_NARROW)
    return (
        f'<div class="calc-table-wrap" role="region" tabindex="0" aria-label="{escape(label)}" style="{stand_in}">'
        f'<table class="calc-table" data-sortable>{caption_html}<thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(html_rows)}</tbody></table></div>"
    )
