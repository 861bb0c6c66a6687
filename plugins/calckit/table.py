"""A book's data table: rows of cited figures, for table blocks in any page and a generated reference page.

A book's package may declare one (`TABLE` in its `__init__`; see `calckit.book`). This book's is the chip database;
a course on networking might tabulate switch ASICs, one on power electronics transistors. The plugin renders
every table the same way: a sortable HTML table, each figure marked with the number of its source, the newest
source's date as "Figures as of", and a reference page listing every row and every source.

An author embeds part of it with a block named after the table, listing rows by id and columns by key:

    ```chips
    chips: [tpu-v4, tpu-v5e]
    columns: [year, bf16, memory]
    caption: Two TPU generations, per chip.
    ```

Standard library only: the package runs at build and in Pyodide alike.
"""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field

from .declared import NOWHERE, Place, declared_here

__all__ = ["Cell", "Column", "DataTable", "Row", "Source", "TableError", "as_of", "check_table", "newest_date"]

_DATE = re.compile(r"\d{4}(?:-\d{2}){0,2}")


@dataclass(frozen=True)
class Source:
    """A document that figures cite: its title (with publisher), address, and optionally date and a note.

    The note says how its figures were checked when that was not on the document itself.
    """

    id: str
    title: str
    url: str
    date: str = ""
    note: str = ""


@dataclass(frozen=True)
class Cell:
    """One cell: a number (shown with `:g` and sorted by value) or a text, optionally with its source's id.

    `aside` is shown after the figure in smaller print, `aside_title` explains it on hover (a sparse headline beside
    a dense peak); `alternatives` are the same quantity as other good sources give it, each with its own source.
    """

    value: float | str
    source: str = ""
    aside: str = ""
    aside_title: str = ""
    alternatives: tuple[Cell, ...] = ()

    def sources(self) -> Iterator[str]:
        """The ids of the sources this cell cites, its alternatives' included."""
        if self.source:
            yield self.source
        for alternative in self.alternatives:
            yield from alternative.sources()


@dataclass(frozen=True)
class Row:
    """One row: an id (the block's `chips: [id, ...]`), the name shown, details shown on the reference page, and a
    cell per column key (a missing key is shown as "—")."""

    id: str
    name: str
    cells: Mapping[str, Cell]
    details: str = ""


@dataclass(frozen=True)
class Column:
    key: str
    heading: str


@dataclass(frozen=True)
class DataTable:
    """Everything the plugin needs to render a book's data table. `rows` and `sources` are called at build (and may
    raise an error whose message is `path:LINE: what is wrong`, which the build prints as it is)."""

    name: str  # the block's fence and its rows key: "chips" for ```chips and `chips: [ids]`
    title: str  # the reference page's title: "Chip database"
    intro: str  # Markdown under the reference page's title
    columns: tuple[Column, ...]  # every column a block may name, in the order they are shown
    default_columns: tuple[str, ...]  # the columns of a block that names none
    reference_columns: tuple[str, ...]  # the columns of the reference page
    rows: Callable[[], Mapping[str, Row]]
    sources: Callable[[], Mapping[str, Source]]
    row_label: str = "row"  # what one row is called in messages: "chip"
    # Where the book's code declared it (file, line): a name that a block kind of the plugin has is refused there.
    declared_at: Place = field(default=NOWHERE, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "declared_at", declared_here())
        keys = [column.key for column in self.columns]
        unknown = [key for key in (*self.default_columns, *self.reference_columns) if key not in keys]
        if unknown:
            raise ValueError(f"data table '{self.name}': unknown column '{unknown[0]}' (columns: {', '.join(keys)})")
        if not re.fullmatch(r"[a-z][a-z0-9_-]*", self.name) or self.name in {"calculator", "quiz", "exercise"}:
            raise ValueError(
                f"data table name '{self.name}' must be lower case letters, digits, '-' or '_', and not a block kind "
                "the plugin already has (calculator, quiz, exercise)"
            )

    @property
    def column_keys(self) -> tuple[str, ...]:
        return tuple(column.key for column in self.columns)

    def heading(self, key: str) -> str:
        return next(column.heading for column in self.columns if column.key == key)


def newest_date(sources: Iterable[Source]) -> str:
    """The newest date among these sources ("YYYY-MM-DD", "YYYY-MM" or "YYYY"; a living document's is the day its
    figures were last checked, "checked YYYY-MM-DD"); "" when none is dated."""
    return max((match.group() for source in sources if (match := _DATE.search(source.date))), default="")


def as_of(rows: list[Row], sources: Mapping[str, Source]) -> str:
    """The newest date among the sources of these rows' cells."""
    cited = {source_id for row in rows for cell in row.cells.values() for source_id in cell.sources()}
    return newest_date(sources[source_id] for source_id in cited if source_id in sources)


class TableError(ValueError):
    """A data table whose rows do not fit its declaration, said in one line naming the table, row and column."""


def check_table(table: DataTable) -> None:
    """Load the table's rows and sources and check that they fit: each row under its own id, each cell in a declared
    column, every number finite, every source it cites declared. TableError names the first that does not."""
    rows, sources = table.rows(), table.sources()
    columns = table.column_keys
    for row_id, row in rows.items():
        where = f"data table '{table.name}', {table.row_label} '{row_id}'"
        if row.id != row_id:
            raise TableError(f"{where}: its Row has the id '{row.id}' (give it the id it is listed under)")
        for key, cell in row.cells.items():
            if key not in columns:
                raise TableError(f"{where}: unknown column '{key}' (columns: {', '.join(columns)})")
            for figure in (cell, *cell.alternatives):
                if isinstance(figure.value, float | int) and not math.isfinite(figure.value):
                    raise TableError(f"{where}, column '{key}': {figure.value} is not a number a reader can use")
            for source in cell.sources():
                if source not in sources:
                    close = difflib.get_close_matches(source, list(sources), n=1)
                    hint = f"did you mean '{close[0]}'?" if close else f"sources: {', '.join(sources)}"
                    raise TableError(f"{where}, column '{key}': unknown source '{source}' ({hint})")
