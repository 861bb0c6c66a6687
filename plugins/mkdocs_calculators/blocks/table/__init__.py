"""A table block: rows of the book's data table (calckit.table), every figure linked to its source.

The book's table names the fence (this book's is ```chips, listing its rows under `chips:`); ```table is the kind
every book has, so that in a book without a table such a block is reported rather than shown as code.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...pages.reference import table_page_path
from ...pages.tables import SourceLinks, data_table, source_numbers
from ..base import Authored, BlockKind, Option, Problems, list_of_text, text
from ..hooks import Browser

if TYPE_CHECKING:
    from calckit.book import Book
    from calckit.table import DataTable

__all__ = ["GENERIC_KIND", "KIND", "TableKind", "TableModel"]

GENERIC_KIND = "table"


@dataclass(frozen=True)
class TableModel:
    table: DataTable
    rows: tuple[str, ...]
    columns: tuple[str, ...]
    caption: str


def _columns(value: object) -> list[str]:
    return list_of_text(value, "column names")


def _rows(value: object) -> list[str]:
    try:
        return list_of_text(value)
    except ValueError:
        return []  # `needs` says what it holds


class TableKind(BlockKind[TableModel]):
    name = GENERIC_KIND
    browser = Browser("sortable.js", "table[data-sortable]", "mountSortable")  # readers sort by any column
    title = "table block"

    def label(self, block: Authored) -> str:
        return f"{block.fence.kind} block"  # named as the author wrote it: 'chips block'

    def fence_names(self, book: Book) -> frozenset[str]:
        return frozenset({GENERIC_KIND, book.table.name} if book.table else {GENERIC_KIND})

    def read(self, block: Authored) -> TableModel:
        table = block.book.table
        kind = block.fence.kind
        if table is None or kind != table.name:
            name = (
                f"its table is ```{table.name}" if table else "it declares no data table (TABLE, see calckit/table.py)"
            )
            message = f"{kind} block: this book's package '{block.book.package}' has no such table: {name}"
            raise Problems([block.problem(block.line, message)])
        rows_key = table.name  # ```chips lists its rows under `chips:`
        loaded = block.load(f"{kind} block")
        options = {
            rows_key: Option(f"a list of {table.row_label} ids", _rows, default=[]),
            "columns": Option("the columns to show", _columns, default=list(table.default_columns)),
            "caption": Option("a caption", text, default=""),
        }
        values = self.mapping(block, loaded, f"'{rows_key}: [IDS]'", f"'{rows_key}' and options")
        read, problems = self.read_options(block, loaded, values, options)
        chosen, known = read[rows_key], table.rows()
        if not chosen:  # missing, empty, or not a list: said once, with what it holds
            problems.append(
                block.problem(loaded.line((rows_key,)), f"{kind} block needs '{rows_key}': {options[rows_key].holds}")
            )
        problems += [
            block.problem(
                loaded.line((rows_key,)),
                f"{kind} block: unknown {table.row_label} '{row}' (expected one of: {', '.join(known)})",
            )
            for row in chosen
            if row not in known
        ]
        problems += [
            block.problem(
                loaded.line(("columns",)),
                f"{kind} block: unknown column '{column}' (expected one of: {', '.join(table.column_keys)})",
            )
            for column in read["columns"]
            if column not in table.column_keys
        ]
        if problems:
            raise Problems(problems)
        return TableModel(table, tuple(chosen), tuple(read["columns"]), read["caption"])

    def render(self, model: TableModel, block: Authored) -> str:
        table = model.table
        links = SourceLinks(source_numbers(table), block.page.link(table_page_path(table)))
        every_row = table.rows()
        rows = [every_row[row] for row in model.rows]
        label = model.caption or block.page.strings("table.label", table=table.title.lower())
        return data_table(table, rows, model.columns, links, label=label, details=False, caption=model.caption)


KIND = TableKind()
