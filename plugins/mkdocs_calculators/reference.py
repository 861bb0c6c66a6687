"""Reference pages generated at build from the package itself: every calculator's inputs and outputs, and the chip
database with the source of every figure. Nothing here is written by hand, so it cannot drift from the code."""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from calculators import Calculator
    from calculators.chips import Source

__all__ = ["CALCULATORS_PAGE", "CHIPS_PAGE", "calculators_page", "chips_page"]

CALCULATORS_PAGE = "reference/calculators.md"
CHIPS_PAGE = "reference/chips.md"


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


def calculators_page() -> str:
    """Markdown for every registered calculator, with a live example of each at its defaults."""
    import calculators

    sections = "\n".join(_calculator_section(calculator) for calculator in calculators.CALCULATORS.values())
    return f"""# Calculators

Every calculator in the book, generated from its declaration in the `calculators` package. Any input can be set in
a ```` ```calculator ```` block; a field filled by the chip picker is taken from the
[chip database](chips.md) unless the block sets `chip: custom`.

{sections}"""


def chips_page() -> str:
    """Markdown with a table of every chip; each figure links to its numbered source below."""
    from calculators.chips import PRECISIONS, load_chips, load_sources

    from .chip_tables import SourceLinks, chip_table, source_numbers

    chips = list(load_chips().values())
    precisions = tuple(p for p in PRECISIONS if any(p in chip.peak_tflops for chip in chips))
    columns = ("year", *precisions, "memory", "bandwidth", "sram", "power", "price")
    table = chip_table(chips, columns, SourceLinks(source_numbers()), label="Chip database", details=True)
    items = "".join(_source_item(source) for source in load_sources().values())
    return f"""# Chip database

The figures behind every chip picker in the book, generated from `calculators/chips.toml`. Peaks are **dense**: where a
vendor's headline counts 2:4 structured sparsity, the table shows the dense figure and notes the sparse one. Each
figure links to its source; where good sources disagree, the alternative is shown with its own. A price per chip-hour is
one chip's share of a cloud's published instance price, and its source says which kind of price it is (on-demand or a
reservation). Select a column's heading to sort by it.

{table}

## Sources

<ol class="chip-sources">{items}</ol>
"""


def _source_item(source: Source) -> str:
    note = f" {escape(source.note)}" if source.note else ""
    date = f" ({escape(source.date)})" if source.date else ""
    return f'<li id="source-{source.id}"><a href="{escape(source.url)}">{escape(source.title)}</a>{date}.{note}</li>'
