"""A table block: rows of the book's data table (calckit.table), every figure linked to its source.

The book's table names the fence (this book's is ```chips, listing its rows under `chips:`); ```table is the kind
every book has, so that in a book without a table such a block is reported rather than shown as code.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...problems import Problem
from ...reference import table_page_path
from ...tables import SourceLinks, data_table, source_numbers
from ..base import Authored, BlockKind, Option, Problems
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


def _list_of_text(value: Any) -> list[str]:
    if isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()]
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return value
    raise ValueError("a list of column names")


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError("text")
    return value


class TableKind(BlockKind[TableModel]):
    name = GENERIC_KIND
    browser = Browser("sortable.js", "table[data-sortable]", "mountSortable")  # readers sort by any column
    title = "table block"

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
            rows_key: Option(f"a list of {table.row_label} ids"),
            "columns": Option("the columns to show", _list_of_text, default=list(table.default_columns)),
            "caption": Option("a caption", _text, default=""),
        }
        values = _as_mapping(block, loaded.data, kind, rows_key)
        problems: list[Problem] = [
            block.problem(
                loaded.line((key,)), f"{kind} block: unknown key '{key}' (expected one of: {', '.join(options)})"
            )
            for key in values
            if key not in options
        ]
        known = table.rows()
        try:
            chosen = _list_of_text(values[rows_key]) if rows_key in values else []
        except ValueError:
            chosen = []
        if not chosen:
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
        read: dict[str, Any] = {}
        for key in ("columns", "caption"):
            try:
                read[key] = options[key].check(values[key]) if key in values else options[key].default
            except ValueError as error:
                problems.append(block.problem(loaded.line((key,)), f"{kind} block: '{key}' must be {error}"))
        problems += [
            block.problem(
                loaded.line(("columns",)),
                f"{kind} block: unknown column '{column}' (expected one of: {', '.join(table.column_keys)})",
            )
            for column in read.get("columns") or ()
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
        label = model.caption or f"From the {table.title.lower()}"
        return data_table(table, rows, model.columns, links, label=label, details=False, caption=model.caption)


def _as_mapping(block: Authored, data: Any, kind: str, rows_key: str) -> dict[str, Any]:
    if data is None:
        raise Problems([block.problem(block.line, f"{kind} block is empty (expected '{rows_key}: [IDS]')")])
    if not isinstance(data, dict):
        found = "a list" if isinstance(data, list) else "a single value"
        raise Problems(
            [block.problem(block.line, f"{kind} block must be a mapping of '{rows_key}' and options, not {found}")]
        )
    return data


KIND = TableKind()
