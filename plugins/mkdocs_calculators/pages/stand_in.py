"""How tall a calculator will be, estimated at build from what it renders: its stand-in height while it is off screen.

Off screen, a calculator is skipped by style and layout (`content-visibility: auto` in calculators.css) and a height
stands in for it until the reader nears it. One height for all (200rem, above the tallest) made the page shrink by
thousands of px as each one rendered, so the scrollbar's thumb jumped; a height close to each one's own keeps the page
still. Slightly above rather than below: a stand-in too small lets more calculators near the screen at load (each laid
out, then pushed away), and audits that lay out a skipped calculator find its buttons spilling over what follows.

The estimate follows the stylesheet's boxes (line heights, margins, the grids' column counts at the content column's
width), at a wide layout (the content column of a 1280 px screen, 648 px inside the calculator) and a phone's (390 px:
318 px). Text is wrapped at an average character width. Figures are px at Material's 20 px root (16 px body text) and
the result is in rem, so that it follows the root size as the page does.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from calckit.contracts import RunReply, TableData
    from calckit.spec import Calculator, Input, Value

__all__ = [
    "NARROW",
    "PAGE_NARROW",
    "PAGE_WIDE",
    "WIDE",
    "Layout",
    "height_px",
    "markdown_table_stand_in",
    "stand_in_rem",
    "table_stand_in",
]

ROOT = 20.0  # px in a rem: Material's html font-size (125%)
TEXT = 16.0  # px: the body text (.md-typeset is 0.8rem)
LINE = 1.6  # Material's line height
CHAR = 0.5  # an average character's width, in em of its font (Roboto, mixed case, digits and spaces)
TABLE_WRAP = 1.03  # a few of a long table's cells wrap to one more line than an average width says (the chips table)
SLACK = 1.02  # above rather than below the real height: see the module's docstring
# A calculator's many parts each round their own way (a summary's last line, a chart's legend, a table's wrapped
# heading): 2% left the pipeline explorer 4.5% short and the serving calculator 0.6% (measured, Chromium, wide).
CALCULATOR_SLACK = 1.07
PHONE_TABLE = 30.0  # rem: a table this much narrower is on a phone (calculators.css's narrow rules)
CHART_BOX = 280.0  # px: the least a chart's box takes, drawn or not (calculators.css, .calc-chart-view's min-height)


@dataclass(frozen=True)
class Layout:
    """The width inside a calculator's padding, px, for one screen width."""

    name: str
    width: float


WIDE = Layout("wide", 648.0)  # a 1280 px screen (and any from 1220 px: Material's content column stops growing)
NARROW = Layout("narrow", 318.0)  # a 390 px phone
PAGE_WIDE = Layout("page, wide", 688.0)  # a table in the page's content column itself, on a 1280 px screen
PAGE_NARROW = Layout("page, narrow", 358.0)  # and on a 390 px phone


def _lines(text: str, font: float, width: float) -> int:
    """Lines a text wraps to: a word that does not fit moves to the next line, which wastes part of each line."""
    if not text:
        return 0
    per_line = max(1, int(width / (CHAR * font)))
    lines, used = 1, 0
    for word in text.split():
        need = len(word) + (1 if used else 0)
        if used and used + need > per_line:
            lines, used = lines + 1, len(word)
        else:
            used += need
    return lines


CAPTION_NARROW = 300.0  # px: a caption keeps to a 390 px screen less 4.5rem (calculators.css), where it wraps
SMALL = 0.83  # <small>'s type against the cell's (a browser's `font-size: smaller`)
SOURCE_MARK = re.compile(r"\s+(S\d+)\b")


def _em(word: str) -> float:
    """A word's width in em of its font: capitals and digits are wider than the average character (Roboto)."""
    return sum(0.62 if character.isupper() or character.isdigit() else CHAR for character in word)


def _wrapped(text: str, font: float, width: float) -> int:
    """Lines a cell's text wraps to in a column `width` px wide, breaking between words only (a longer word sticks
    out: calculators.css), each word as wide as its characters; what follows a line break is in small type (a
    name's details), whose lines are as tall as the cell's (the line height is the cell's)."""
    first, _, small = text.partition("\n")
    return _wrapped_type(first, font, width) + (_wrapped_type(small, SMALL * font, width) if small else 0)


def _wrapped_type(text: str, font: float, width: float) -> int:
    words = SOURCE_MARK.sub(r"\1", text).split()  # "312 S1" is read from "312<sup>S1</sup>": one word
    return _wrap([(0.25 * font, _em(word) * font) for word in words], width)


def _wrap(pieces: list[tuple[float, float]], width: float) -> int:
    """Lines that `pieces` (the space before each and its width, px) take in `width`: one that does not fit where the
    line has got to starts the next line, where its space before is not needed."""
    lines, used = 0, 0.0
    for space, need in pieces:
        if lines == 0 or used + space + need > width:
            lines, used = lines + 1, need
        else:
            used += space + need
    return lines


def _columns(width: float, minimum: float, gap: float) -> int:
    """Columns of `repeat(auto-fit, minmax(minimum, 1fr))` in a grid `width` wide."""
    return max(1, int((width + gap) // (minimum + gap)))


def _field(spec: Input, width: float, mounted: bool) -> float:
    """The height of one field of the form, px."""
    hint = (
        spec.help if spec.kind in ("choice", "choices") else spec.range_text + (f". {spec.help}" if spec.help else ".")
    )
    small = 0.85 * TEXT
    messages = 0.1 * small + _lines(hint, small, width) * small * LINE if hint else 0.0
    control = 2.4 * TEXT + 0.4 * TEXT  # a text field or list: 2.4em tall, 0.2em above and below
    if spec.kind == "choices":
        columns = _columns(width, 12 * ROOT, TEXT)
        groups: dict[str, int] = {}
        for choice in spec.choices:
            groups[choice.group] = groups.get(choice.group, 0) + 1
        boxes = sum(
            (0.3 * 0.8 * TEXT + 0.8 * TEXT * LINE if group else 0.0) + math.ceil(count / columns) * (2.2 + 0.2) * TEXT
            for group, count in groups.items()
        )
        filtered = control + 0.4 * TEXT if len(spec.choices) > 10 else 0.0
        return _lines(spec.label, TEXT, width) * TEXT * LINE + filtered + boxes + messages
    label = spec.label + (f" ({spec.unit})" if spec.unit else "")
    height = _lines(label, TEXT * 1.05, width) * TEXT * LINE + control + messages  # the label is bold: wider
    if spec.kind == "choice" and len(spec.choices) > 10:
        height += control + 0.4 * TEXT
    if spec.slider:
        height += 1.8 * TEXT + 4
    if spec.player and mounted:
        height += 2.75 * ROOT + 0.8 * ROOT  # Previous, Play, Next: shown once the script runs
    return height


def _fields(calculator: Calculator, inputs: dict[str, Value], width: float, mounted: bool) -> float:
    """The fields grid, px: fields flow into rows of the grid's columns; a list of tick boxes takes a row of its own."""
    columns = _columns(width, 13 * ROOT, 1.2 * TEXT)
    column = (width - (columns - 1) * 1.2 * TEXT) / columns
    rows: list[float] = []
    row: list[float] = []
    for spec in calculator.inputs:
        if spec.shown_when is not None and inputs.get(spec.shown_when[0]) not in spec.shown_when[1]:
            continue  # hidden until another field asks for it
        if spec.kind == "choices":
            if row:
                rows.append(max(row))
                row = []
            rows.append(_field(spec, width, mounted))
            continue
        row.append(_field(spec, column, mounted))
        if len(row) == columns:
            rows.append(max(row))
            row = []
    if row:
        rows.append(max(row))
    return sum(rows) + max(0, len(rows) - 1) * 0.6 * TEXT


def _outputs(result: RunReply, width: float) -> float:
    """The results' grid (label over figure), px."""
    outputs = result.get("outputs", [])
    if not outputs:
        return 0.0
    columns = _columns(width, 10 * ROOT, 1.2 * TEXT)
    column = (width - (columns - 1) * 1.2 * TEXT) / columns
    rows = []
    for start in range(0, len(outputs), columns):
        cells = outputs[start : start + columns]
        rows.append(
            max(
                _lines(out["label"], 0.85 * TEXT, column) * 0.85 * TEXT * LINE
                + _lines(out["text"], 1.25 * TEXT * 1.1, column) * 1.25 * TEXT * LINE
                + (
                    0.1 * 0.85 * TEXT + _lines(out["note"], 0.85 * TEXT, column) * 0.85 * TEXT * LINE
                    if out.get("note")
                    else 0
                )
                for out in cells
            )
        )
    return 1.4 * TEXT + sum(rows) + (len(rows) - 1) * 0.4 * TEXT


def _table(table: TableData, width: float) -> float:
    """A result table, px: wider than the calculator, it scrolls sideways, so its rows wrap only a little. On a phone
    each column keeps to its least width, its longest word, and the rows' names (bold) to 5em (calculators.css), so a
    cell of several words wraps to several lines."""
    font = 0.8 * TEXT
    columns = len(table["columns"])
    cell = max(width / max(1, columns), 7.5 * font) - 1.6 * font
    narrow = width < PHONE_TABLE * ROOT
    if narrow:
        texts = [[str(table["columns"][at]), *(str(row[at]) for row in table["rows"])] for at in range(columns)]
        widths = [font * max(_em(word) for text in column for word in text.split() or [""]) for column in texts]
        widths[0] = 4.2 * font  # the names' 5em, less its padding: a name wraps there, and a longer word sticks out
        row_lines = [max(_wrapped(str(text), font, widths[at]) for at, text in enumerate(row)) for row in table["rows"]]
        # Headings are bold, a tenth wider: a column as wide as its longest figure wraps its heading more.
        head = max(_wrapped(str(text), 1.1 * font, widths[at]) for at, text in enumerate(table["columns"]))
    else:
        row_lines = [max(_lines(str(text), font, cell) for text in row) for row in table["rows"]]
        head = max(_lines(str(text), font, cell) for text in table["columns"])
    rows = sum(row_lines) + head
    return (
        1.2 * TEXT
        + rows * font * LINE * TABLE_WRAP
        + (len(row_lines) + 1) * (font + 1)
        + _lines(table["caption"], font, min(width, CAPTION_NARROW) if narrow else width) * font * LINE
        + 0.4 * font
    )


def _chart(chart: dict[str, Any], width: float, mounted: bool) -> float:
    """A chart, px: Vega's drawing once mounted (its plot, axes and legend), its description before."""
    if mounted:  # a short chart keeps its box's least height (chapter 27's systolic array was 36 px short)
        return 0.5 * TEXT + max(CHART_BOX, float(chart.get("height", 280)) + 60)
    small = 0.85 * TEXT
    return 0.5 * TEXT + max(
        CHART_BOX, 4 * small + _lines(chart["description"], small, width - 2 * small) * small * LINE
    )


def height_px(
    calculator: Calculator, inputs: dict[str, Value], result: RunReply, layout: Layout, mounted: bool
) -> float:
    """A calculator's height, px at a 20 px root, before its script runs (`mounted` False) or after."""
    width = layout.width
    height = 2 + 2 * TEXT  # border and padding
    height += _lines(f"{calculator.title} calculator", TEXT * 1.05, width) * TEXT * LINE
    height += TEXT + _lines(calculator.description, TEXT, width) * TEXT * LINE
    height += _fields(calculator, inputs, width, mounted)
    height += 0.8 * TEXT + 0.8 * TEXT * LINE + 2 * 0.3 * 0.8 * TEXT + 4  # Reset to defaults
    height += _outputs(result, width)
    height += 2 * TEXT + _lines(result.get("summary", ""), TEXT, width) * TEXT * LINE
    if table := result.get("table"):
        height += _table(table, width)
    if chart := result.get("chart"):
        height += _chart(chart, width, mounted)
    return height


def stand_in_rem(calculator: Calculator, inputs: dict[str, Value], result: RunReply, layout: Layout) -> int:
    """The stand-in height, whole rem: the taller of its heights before and after its script runs, with some slack."""
    tallest = max(height_px(calculator, inputs, result, layout, mounted) for mounted in (False, True))
    return math.ceil(tallest * CALCULATOR_SLACK / ROOT)


def table_stand_in(table: TableData, wide: Layout, narrow: Layout) -> str:
    """A table's stand-in heights as the style attribute's custom properties (calculators.css, .calc-table-wrap).

    Off screen a table is skipped like a calculator; one 35rem for all stood in for the chip database's 4,300 px.
    """
    rem = [math.ceil(_table(table, layout.width) * slack / ROOT) for layout, slack in ((wide, SLACK), (narrow, 1.03))]
    return f"--table-stand-in: {rem[0]}rem; --table-stand-in-narrow: {rem[1]}rem"


# Markdown's own tables, as the theme (Material) styles them: 0.64rem type, cells padded 0.9375em by 1.25em, a head
# cell at least 5rem wide, rows ruled 1 px apart, and 48 px around the table in its box (measured in Chromium). A line
# may break after a hyphen ("tpu-v5e, tpu-v5p"), and code anywhere (the theme's `word-break: break-word`).
_MD_FONT = 0.64 * ROOT
_MD_PAD_X, _MD_PAD_Y = 2 * 1.25 * _MD_FONT, 2 * 0.9375 * _MD_FONT
_MD_HEAD_MIN = 5 * ROOT
_MD_AROUND = 3 * TEXT
_MD_SLACK = 1.06  # with it, 7% short to 16% over (the 38 tables of the calculators' page, at 1280 and 390 px)
_MD_PIECE = re.compile(r"(\s*)([^\s-]*-|[^\s-]+)")  # a piece ends where a line may break: a space, or after a hyphen


def _md_pieces(text: str, font: float) -> list[tuple[float, float]]:
    """The pieces a line may break between, as (the space before it, its width), px."""
    return [(0.25 * font if space else 0.0, _em(piece) * font) for space, piece in _MD_PIECE.findall(text)]


def _md_lines(text: str, font: float, width: float) -> int:
    return max(_wrap(_md_pieces(text, font), width), 1)  # an empty cell is a line tall


def _md_widths(cells: list[list[str]], width: float, code: set[int]) -> list[float]:
    """Each column's width as a browser's automatic table layout gives it: the longest line its cells would take
    unwrapped when all fit, otherwise its least (its longest piece) and a share of the room left, in proportion."""
    least, most = [], []
    for at in range(len(cells[0])):
        pieces = [_md_pieces(row[at], _MD_FONT) for row in cells]
        longest = 0.0 if at in code else max((need for line in pieces for _, need in line), default=0.0)
        least.append(max(longest + _MD_PAD_X, _MD_HEAD_MIN))
        most.append(max(max(sum(space + need for space, need in line) for line in pieces) + _MD_PAD_X, least[-1]))
    if sum(most) <= width:
        return most
    if sum(least) >= width:
        return least  # wider than the column: it scrolls sideways
    share = (width - sum(least)) / (sum(most) - sum(least))
    return [low + (high - low) * share for low, high in zip(least, most, strict=True)]


def _md_table(columns: list[str], rows: list[list[str]], width: float, code: set[int]) -> float:
    widths = _md_widths([columns, *rows], width, code)
    line = _MD_FONT * LINE

    def row_px(cells: list[str], font: float) -> float:
        return _MD_PAD_Y + line * max(_md_lines(text, font, widths[at] - _MD_PAD_X) for at, text in enumerate(cells))

    return _MD_AROUND + row_px(columns, 1.1 * _MD_FONT) + sum(row_px(row, _MD_FONT) + 1 for row in rows)


def markdown_table_stand_in(
    columns: list[str], rows: list[list[str]], wide: Layout, narrow: Layout, *, code: set[int]
) -> str:
    """A Markdown table's stand-in heights (calculators.css, .calc-reference-table), as table_stand_in's; `code`:
    the columns whose cells are code."""
    rem = [math.ceil(_md_table(columns, rows, layout.width, code) * _MD_SLACK / ROOT) for layout in (wide, narrow)]
    return f"--table-stand-in: {rem[0]}rem; --table-stand-in-narrow: {rem[1]}rem"
