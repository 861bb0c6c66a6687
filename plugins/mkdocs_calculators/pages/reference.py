"""Reference pages generated at build from the book's package itself: every calculator's inputs and outputs, and the
package's data table (for this book, the chip database) with the source of every figure. Nothing here is written by
hand, so it cannot drift from the code."""

from __future__ import annotations

import re
from html import escape
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from calckit.book import Book
    from calckit.spec import Calculator
    from calckit.table import DataTable, Source

    from ..i18n import Strings

__all__ = ["CALCULATORS_PAGE", "HTML_CHUNK", "calculators_page", "table_page", "table_page_path"]

CALCULATORS_PAGE = "reference/calculators.md"
# Around each table of these pages, written as HTML: a host that knows it (the plugin) puts the table in after Markdown
# has run, which spares Markdown's HTML parser (md_in_html) most of these pages' build time; to any other, comments.
HTML_CHUNK = re.compile(r"^<!-- calculators: html -->\n(?P<html>.*?)\n<!-- /calculators: html -->$", re.S | re.M)


def _chunk(html: str) -> str:
    return f"<!-- calculators: html -->\n{html}\n<!-- /calculators: html -->"


def table_page_path(table: DataTable) -> str:
    """Where the table's reference page is: reference/chips.md for the table named chips."""
    return f"reference/{table.name}.md"


def _table(head: tuple[str, ...], rows: list[list[str]]) -> str:
    """An HTML table as Python-Markdown's `tables` writes one, of cells given as HTML. Written as HTML, not as a
    Markdown table: the package's labels and units are plain text (a `*` in one is not emphasis), and Markdown's
    table parser took most of this page's build time (with HTML_CHUNK, it is not parsed at all)."""
    from .stand_in import PAGE_NARROW, PAGE_WIDE, markdown_table_stand_in
    from .tables import cell_text

    lines = ["<table>", "<thead>", "<tr>", *(f"<th>{cell}</th>" for cell in head), "</tr>", "</thead>", "<tbody>"]
    for row in rows:
        lines += ["<tr>", *(f"<td>{cell}</td>" for cell in row), "</tr>"]
    # Off screen, the table is skipped by style and layout (calculators.css, .calc-reference-table) with its height
    # estimated here standing in: the page's forty tables were most of what a phone restyled and laid out at its load.
    texts = [[cell_text(cell) for cell in row] for row in rows]
    stand_in = markdown_table_stand_in([cell_text(cell) for cell in head], texts, PAGE_WIDE, PAGE_NARROW, code={0})
    return _chunk(
        "\n".join([f'<div class="calc-reference-table" style="{stand_in}">', *lines, "</tbody>", "</table>", "</div>"])
    )


def _calculator_section(calculator: Calculator, s: Strings) -> str:
    from .render import input_value_text, range_text

    heads = ("input", "label", "unit", "default", "allowed", "output", "meaning")
    head = {name: s.html(f"reference.{name}") for name in heads}
    inputs = _table(
        (head["input"], head["label"], head["unit"], head["default"], head["allowed"]),
        [
            [
                f"<code>{escape(spec.key)}</code>",
                escape(spec.label),
                escape(spec.unit) or "—",
                escape(
                    input_value_text(spec.default) if not isinstance(spec.default, tuple) else ", ".join(spec.default)
                ),
                escape(range_text(spec, s)),
            ]
            for spec in calculator.inputs
        ],
    )
    outputs = _table(
        (head["output"], head["label"], head["unit"], head["meaning"]),
        [
            [f"<code>{escape(out.key)}</code>", escape(out.label), escape(out.unit) or "—", escape(out.help) or "—"]
            for out in calculator.outputs
        ],
    )
    return f"""## {calculator.title} {{#{calculator.name}}}

{escape(calculator.description)} {s.markup("reference.embed", use=f"`use: {calculator.name}`")}

{inputs}

{outputs}

```calculator
use: {calculator.name}
```
"""


def calculators_page(book: Book, s: Strings) -> str:
    """Markdown for every calculator of the book, with a live example of each at its defaults, in the words of `s`."""
    sections = "\n".join(_calculator_section(calculator, s) for calculator in book.calculators.values())
    table = (
        " "
        + s.markup(
            "reference.picker",
            table=f"[{escape(book.table.title.lower())}]({book.table.name}.md)",
            custom="`custom`",
        )
        if book.table
        else ""
    )
    intro = s.markup("reference.intro", package=f"`{book.package}`", block="```` ```calculator ````")
    return f"""# {s.html("reference.title")}

{intro}{table}

{sections}"""


def table_page(table: DataTable, s: Strings) -> str:
    """Markdown with a table of every row; each figure links to its numbered source below."""
    from .tables import SourceLinks, data_table, source_numbers

    rows = list(table.rows().values())
    html = data_table(
        table, rows, table.reference_columns, SourceLinks(source_numbers(table)), label=table.title, details=True
    )
    items = "".join(_source_item(source) for source in table.sources().values())
    return f"""# {table.title}

{table.intro}

{_chunk(html)}

## {s.html("reference.sources")}

<ol class="table-sources">{items}</ol>
"""


def _source_item(source: Source) -> str:
    note = f" {escape(source.note)}" if source.note else ""
    date = f" ({escape(source.date)})" if source.date else ""
    return f'<li id="source-{source.id}"><a href="{escape(source.url)}">{escape(source.title)}</a>{date}.{note}</li>'
