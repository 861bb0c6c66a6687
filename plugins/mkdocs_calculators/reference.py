"""Reference pages generated at build from the book's package itself: every calculator's inputs and outputs, and the
package's data table (for this book, the chip database) with the source of every figure. Nothing here is written by
hand, so it cannot drift from the code."""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from calckit.book import Book
    from calckit.spec import Calculator
    from calckit.table import DataTable, Source

__all__ = ["CALCULATORS_PAGE", "calculators_page", "table_page", "table_page_path"]

CALCULATORS_PAGE = "reference/calculators.md"


def table_page_path(table: DataTable) -> str:
    """Where the table's reference page is: reference/chips.md for the table named chips."""
    return f"reference/{table.name}.md"


def _cell(text: str) -> str:
    return escape(text).replace("|", "&#124;")


def _calculator_section(calculator: Calculator) -> str:
    from .render import input_value_text

    inputs = "\n".join(
        f"| `{spec.key}` | {_cell(spec.label)} | {_cell(spec.unit) or '—'} | "
        f"{_cell(input_value_text(spec.default) if not isinstance(spec.default, tuple) else ', '.join(spec.default))} "
        f"| {_cell(spec.range_text)} |"
        for spec in calculator.inputs
    )
    outputs = "\n".join(
        f"| `{out.key}` | {_cell(out.label)} | {_cell(out.unit) or '—'} | {_cell(out.help) or '—'} |"
        for out in calculator.outputs
    )
    return f"""## {calculator.title} {{#{calculator.name}}}

{escape(calculator.description)} Embed it with `use: {calculator.name}`.

| input | label | unit | default | allowed |
| --- | --- | --- | --- | --- |
{inputs}

| output | label | unit | meaning |
| --- | --- | --- | --- |
{outputs}

```calculator
use: {calculator.name}
```
"""


def calculators_page(book: Book) -> str:
    """Markdown for every calculator of the book, with a live example of each at its defaults."""
    sections = "\n".join(_calculator_section(calculator) for calculator in book.calculators.values())
    table = (
        f" A field filled by a picker is taken from the [{book.table.title.lower()}]({book.table.name}.md) unless the "
        "block sets the picker to `custom`."
        if book.table
        else ""
    )
    return f"""# Calculators

Every calculator in the book, generated from its declaration in the `{book.package}` package. Any input can be set
in a ```` ```calculator ```` block.{table}

{sections}"""


def table_page(table: DataTable) -> str:
    """Markdown with a table of every row; each figure links to its numbered source below."""
    from .tables import SourceLinks, data_table, source_numbers

    rows = list(table.rows().values())
    html = data_table(
        table, rows, table.reference_columns, SourceLinks(source_numbers(table)), label=table.title, details=True
    )
    items = "".join(_source_item(source) for source in table.sources().values())
    return f"""# {table.title}

{table.intro}

{html}

## Sources

<ol class="table-sources">{items}</ol>
"""


def _source_item(source: Source) -> str:
    note = f" {escape(source.note)}" if source.note else ""
    date = f" ({escape(source.date)})" if source.date else ""
    return f'<li id="source-{source.id}"><a href="{escape(source.url)}">{escape(source.title)}</a>{date}.{note}</li>'
