"""A book's data table (calckit.table) as HTML: table blocks in any page, and the generated reference page's table.

Every figure links to its numbered source on the reference page, so a reader can check any number where it stands.
For this book the table is the chip database, and a block reads:

    ```chips
    chips: [tpu-v4, tpu-v5e, tpu-v5p]
    columns: [year, bf16, int8, memory, bandwidth, power]
    caption: Google's TPU generations, per chip.
    ```
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING, Any

from .blocks import Problem, load_mapping
from .fences import Fence

if TYPE_CHECKING:
    from calckit.table import Cell, DataTable, Row

__all__ = ["GENERIC_KIND", "SourceLinks", "TableBlock", "data_table", "read_table_block", "source_numbers"]

# The block kind every book has, whether its package declares a table or not: in a book without one, a ```table
# block is reported rather than shown as code.
GENERIC_KIND = "table"


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
    for row in rows:
        name = escape(row.name)
        if details:
            name += f"<br><small>{escape(row.details)}</small>" if row.details else ""
        else:
            name = f'<a href="{links.page}#{table.row_label}-{row.id}">{name}</a>'
        cells = "".join(_cell(row.cells.get(column), links) for column in columns)
        row_id = f" id={table.row_label}-{row.id}" if details else ""
        html_rows.append(f'<tr{row_id}><th scope="row">{name}</th>{cells}</tr>')
    date = as_of(rows, table.sources())
    caption = f"{caption} {'Figures as of ' + date + '.' if date else ''}".strip()
    caption_html = f"<caption>{escape(caption)}</caption>" if caption else ""
    return (
        f'<div class="calc-table-wrap" role="region" tabindex="0" aria-label="{escape(label)}">'
        f'<table class="calc-table" data-sortable>{caption_html}<thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(html_rows)}</tbody></table></div>"
    )


@dataclass(frozen=True)
class TableBlock:
    rows: tuple[str, ...]
    columns: tuple[str, ...]
    caption: str


def _list_of_text(value: Any) -> list[str] | None:
    if isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()]
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return value
    return None


def read_table_block(table: DataTable, fence: Fence, fence_line: int) -> TableBlock | list[Problem]:
    """The rows and columns a table block names, or every problem, with its file line."""
    kind, ids = table.name, table.name  # ```chips lists its rows under `chips:`
    keys = (ids, "columns", "caption")
    mapping = load_mapping(fence.body, fence_line, kind, expected=f"'{ids}: [IDS]'", holds=f"'{ids}' and options")
    if isinstance(mapping, Problem):
        return [mapping]
    values, lines = mapping
    problems = [
        Problem(lines[key], f"{kind} block: unknown key '{key}' (expected one of: {', '.join(keys)})")
        for key in values
        if key not in keys
    ]
    known = table.rows()
    chosen = _list_of_text(values.get(ids))
    if ids not in values or not chosen:
        problems.append(
            Problem(lines.get(ids, fence_line), f"{kind} block needs '{ids}': a list of {table.row_label} ids")
        )
    else:
        problems += [
            Problem(
                lines[ids], f"{kind} block: unknown {table.row_label} '{row}' (expected one of: {', '.join(known)})"
            )
            for row in chosen
            if row not in known
        ]
    columns = _list_of_text(values.get("columns", list(table.default_columns)))
    if columns is None:
        problems.append(Problem(lines["columns"], f"{kind} block: 'columns' must be a list of column names"))
    else:
        problems += [
            Problem(
                lines["columns"],
                f"{kind} block: unknown column '{column}' (expected one of: {', '.join(table.column_keys)})",
            )
            for column in columns
            if column not in table.column_keys
        ]
    caption = values.get("caption", "")
    if not isinstance(caption, str):
        problems.append(Problem(lines["caption"], f"{kind} block: 'caption' must be text"))
    if problems:
        return sorted(problems, key=lambda problem: problem.line)
    assert chosen is not None and columns is not None and isinstance(caption, str)
    return TableBlock(tuple(chosen), tuple(columns), caption)
