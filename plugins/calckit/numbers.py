"""The one number reader: what a reader types into a form, a shared link or a quiz answer, and what an author writes
in a page block, read the same way everywhere (the browser's quizzes use its twin in `grading.js`, tested against
this on `tests/unit/grading_cases.json`).

- A decimal comma is read as a decimal point where that is unambiguous (`1,5` is 1.5, `49,14` is 49.14).
- A comma groups thousands only in groups of three after a first group of one to three digits (`1,400`,
  `12,345,678`); so do spaces (`1 400`) and underscores (`1_400`).
- Anything else with commas (`1,2,3`, `1.400,5`) is refused, saying how to write it: a guess could be off by a
  thousand.
- A number too small to tell from zero (`1e-400`) or too large to hold (`1e400`) is refused, not read as 0 or as
  infinity; so are `nan` and `inf`, hexadecimal and the like.
"""

from __future__ import annotations

import math
import re

__all__ = ["NumberError", "read_number"]

_MINUSES = str.maketrans({"\u2212": "-", "\u2013": "-"})  # the minus sign and the en dash that text editors make
_GROUP_SPACE = re.compile(r"(?<=\d)[ \u00a0\u202f](?=\d{3}(?:\D|$))")
_UNDERSCORE = re.compile(r"(?<=\d)_(?=\d)")
_EXPONENT = r"(?:[eE][+-]?\d+)?"
_THOUSANDS = re.compile(rf"[+-]?[1-9]\d{{0,2}}(?:,\d{{3}})+(?:\.\d*)?{_EXPONENT}")
_DECIMAL_COMMA = re.compile(rf"[+-]?\d+,\d+{_EXPONENT}")
_PLAIN = re.compile(rf"[+-]?(?:\d+\.?\d*|\.\d+){_EXPONENT}")
COMMA_ADVICE = "Write the decimals after a point, such as 1.5; a comma only groups thousands, as in 1,400"


class NumberError(ValueError):
    """Text that is not a number, with what to do in a reader's words (`advice`, a sentence without its stop)."""

    def __init__(self, advice: str, *, garbled: bool = False) -> None:
        self.advice = advice
        self.garbled = garbled  # not a number at all, rather than one written in a way that is refused
        super().__init__(advice)


def read_number(text: str) -> float:
    """The number in `text`, or NumberError saying why it is not one (see the module's rules)."""
    cleaned = _UNDERSCORE.sub("", _GROUP_SPACE.sub("", text.strip().translate(_MINUSES)))
    if "," in cleaned:
        if _THOUSANDS.fullmatch(cleaned):
            cleaned = cleaned.replace(",", "")
        elif _DECIMAL_COMMA.fullmatch(cleaned):
            cleaned = cleaned.replace(",", ".")
        else:
            raise NumberError(COMMA_ADVICE)
    if not _PLAIN.fullmatch(cleaned):
        raise NumberError("Type a number, such as 12.5", garbled=True)
    number = float(cleaned)
    if math.isinf(number):
        raise NumberError("This number is too large to work with: type a smaller one")
    mantissa = re.split("[eE]", cleaned)[0]
    if number == 0 and any(digit in "123456789" for digit in mantissa):
        raise NumberError("This number is too small to tell from 0: type 0, or a larger number")
    return number
