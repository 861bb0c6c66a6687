"""Numbers in the reader's language: the figures calckit writes (`1,400.5`, as English writes them, at build and in
the browser's Python alike) shown with the language's decimal and group symbols (`1 400,5` in French), by the
same rule here and in the browser (assets/numbers.js, its twin: tests/unit/number_texts.json holds both to one
table). The symbols are CLDR's, from Babel here and from `Intl.NumberFormat` there.

Only what is plainly a number is rewritten: digits with groups of three after commas, or with a decimal point,
not touching a letter or another digit (`H100`, `v5.1`, `1.5e+07` and dates stay as written).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache

from babel.numbers import get_decimal_symbol, get_group_symbol

__all__ = ["SCALES", "field_text", "localized", "symbols", "worded"]

NUMBER = re.compile(r"(?<![A-Za-z0-9_.,])(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+\.\d+)(?![A-Za-z0-9_])")


# calckit's words for large figures (`2.5 million`: units.format_number), each a key of the catalogue
# (`number.million`) whose plural forms hold the language's word around `{number}`.
SCALES = ("million", "billion", "trillion")
SCALE = re.compile(r"(?<![A-Za-z0-9_.,])(\d+(?:\.\d+)?) (million|billion|trillion)\b")


@cache
def symbols(language: str) -> tuple[str, str]:
    """The language's decimal symbol and group symbol (`(",", "\\u202f")` in French)."""
    from . import locale

    found = locale(language)
    return get_decimal_symbol(found), get_group_symbol(found)


FIELD_NUMBER = re.compile(r"[+-]?\d+\.\d+(?:[eE][+-]?\d+)?")


def field_text(text: str, language: str) -> str:
    """A number as a form's field holds it (`0.819`, the shortest text that reads back) as the language writes it
    (`0,819` in French): its decimal symbol, where that is a comma, which calckit's reader reads back with the
    language's symbols; no groups, as English fields have none. Any other text as it is."""
    decimal, _ = symbols(language)
    return text.replace(".", decimal) if decimal == "," and FIELD_NUMBER.fullmatch(text) else text


def localized(text: str, language: str) -> str:
    """`text` with each of its numbers written with the language's symbols."""
    decimal, group = symbols(language)
    if (decimal, group) == (".", ","):
        return text
    return NUMBER.sub(lambda match: match[0].replace(",", "\0").replace(".", decimal).replace("\0", group), text)


def worded(text: str, language: str, entries: Mapping[str, Mapping[str, str] | str]) -> str:
    """`text` with calckit's words for large figures (`2.5 million`) in the language's (`2,5 millions`, `2,5 百万`):
    `entries` are the catalogue's `number.million`, ... by word; then every number as the language writes it."""
    from . import locale

    rule = locale(language).plural_form

    def word(match: re.Match[str]) -> str:
        entry = entries[match[2]]
        form = entry if isinstance(entry, str) else entry.get(rule(float(match[1])), entry.get("other", ""))
        return form.replace("{number}", localized(match[1], language))

    return localized(SCALE.sub(word, text), language)
