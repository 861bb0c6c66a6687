"""Reference pages generated at build from the package itself: every calculator's inputs and outputs, and the chip
database with the source of every figure. Nothing here is written by hand, so it cannot drift from the code."""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from calculators import Calculator
    from calculators.chips import Chip, Figure, Source

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


def _figure(figure: Figure | None, numbers: dict[str, int]) -> str:
    if figure is None:
        return "—"
    mark = lambda source: f'<sup><a href="#source-{source.id}">{numbers[source.id]}</a></sup>'  # noqa: E731
    text = f"{figure.value:g}{mark(figure.source)}"
    if figure.headline_sparse and figure.headline:
        headline = f"{figure.headline:g}"
        text += f' <span title="vendor headline {headline} counts 2:4 sparsity">(sparse {headline})</span>'
    for alternative in figure.alternatives:
        text += f" (alt. {alternative.value:g}{mark(alternative.source)})"
    return text


def chips_page() -> str:
    """Markdown with an HTML table of every chip; each figure links to its numbered source below."""
    from calculators.chips import PRECISIONS, load_chips, load_sources

    chips = list(load_chips().values())
    sources = list(load_sources().values())
    numbers = {source.id: number for number, source in enumerate(sources, start=1)}
    precisions = [p for p in PRECISIONS if any(p in chip.peak_tflops for chip in chips)]
    head = "".join(
        f'<th scope="col">{escape(label)}</th>'
        for label in [
            "Chip",
            "Year",
            *(f"{p.upper()} dense ({'TOP/s' if p == 'int8' else 'TFLOP/s'})" for p in precisions),
            "Memory (GB)",
            "Bandwidth (TB/s)",
            "SRAM (MB)",
            "Power (W)",
        ]
    )
    rows = "".join(_chip_row(chip, precisions, numbers) for chip in chips)
    items = "".join(_source_item(source) for source in sources)
    return f"""# Chip database

The figures behind every chip picker in the book, generated from `calculators/chips.toml`. Peaks are **dense**: where a
vendor's headline counts 2:4 structured sparsity, the table shows the dense figure and notes the sparse one. Each
figure links to its source; where good sources disagree, the alternative is shown with its own. Select a column's
heading to sort by it.

<div class="calc-table-wrap" role="region" tabindex="0" aria-label="Chip database">
<table class="calc-table" data-sortable>
<thead><tr>{head}</tr></thead>
<tbody>{rows}</tbody>
</table>
</div>

## Sources

<ol class="chip-sources">{items}</ol>
"""


def _figure_cell(figure: Figure | None, numbers: dict[str, int]) -> str:
    """A figure's cell; its value also in data-value, which the table sorts by (the text has footnote marks)."""
    value = f' data-value="{figure.value:g}"' if figure else ""
    return f"<td{value}>{_figure(figure, numbers)}</td>"


def _chip_row(chip: Chip, precisions: list[str], numbers: dict[str, int]) -> str:
    cells = [
        f'<th scope="row">{escape(chip.name)}<br>'
        f"<small>{escape(chip.form_factor)}; {escape(chip.memory_type)}</small></th>",
        f'<td data-value="{chip.year}">{chip.year}</td>',
        *(_figure_cell(chip.peak_tflops.get(p), numbers) for p in precisions),
        *(_figure_cell(figure, numbers) for figure in (chip.memory_gb, chip.bandwidth_tbs, chip.sram_mb, chip.power_w)),
    ]
    return f'<tr id="chip-{chip.id}">{"".join(cells)}</tr>'


def _source_item(source: Source) -> str:
    note = f" {escape(source.note)}" if source.note else ""
    date = f" ({escape(source.date)})" if source.date else ""
    return f'<li id="source-{source.id}"><a href="{escape(source.url)}">{escape(source.title)}</a>{date}.{note}</li>'
