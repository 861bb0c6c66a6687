"""The one number reader: what a reader types into a form, a shared link or a quiz answer, and what an author writes
in a page block, read the same way everywhere (the browser's quizzes use its twin in `grading.js`, tested against
this on `tests/unit/grading_cases.json`).

- A decimal comma is read as a decimal point where that is unambiguous (`1,5` is 1.5, `49,14` is 49.14).
- A comma groups thousands only in groups of three after a first group of one to three digits (`12,345,678`,
  `1,400.5`); so do spaces (`1 400`) and underscores (`1_400`). One comma before three digits and nothing else
  (`1,500`) is refused, naming both readings (1500 or 1.5): half the world writes a decimal comma, and a guess
  would be off by a thousand.
- Anything else with commas (`1,2,3`, `1.400,5`) is refused, saying how to write it: a guess could be off by a
  thousand.
- A number too small to tell from zero (`1e-400`) or too large to hold (`1e400`) is refused, not read as 0 or as
  infinity; so are `nan` and `inf`, hexadecimal and the like.
- Full-width forms (what a CJK keyboard types: `１２．５`) are read as their ASCII twins; digits of other scripts
  (`٤٥`, `४५`, mathematical `𝟒`) are refused, saying to use 0 to 9: Python's float() would read them and the
  browser's Number() would not, and a mix of scripts (`4٥`) is more likely a slip than a number.
- White space at either end is what JavaScript's `trim()` removes, so that both twins strip the same characters.
- In a language that writes a decimal comma (`symbols`, its decimal and group symbols: `(",", ".")` in German), a
  number written its way is read so: one comma marks the decimals (`1,500` is 1.5, not refused) and, where the group
  symbol is a point, points between groups of three group thousands (`1.400` is 1400, `1.400,5` is 1400.5; `1.5`
  keeps its point). English's symbols (the default) read as above; so do those of any language with a decimal point.
"""

from __future__ import annotations

import math
import re

__all__ = ["ENGLISH", "SPACES", "NumberError", "plain_text", "read_number"]

# JavaScript's white space (what String.prototype.trim removes): Python's str.strip() alone keeps U+FEFF and strips
# U+001C to U+001F, and the twins must agree on every text.
SPACES = (
    " \t\n\v\f\r\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000\ufeff"
)
_FULL_WIDTH = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)}  # ！ to ～, the ASCII forms of a CJK keyboard
_MINUSES = str.maketrans({"\u2212": "-", "\u2013": "-"})  # the minus sign and the en dash that text editors make
# ASCII: in Python \d would also match the digits of every other script (as in the browser's twin, it does not).
_GROUP_SPACE = re.compile(r"(?<=\d)[ \u00a0\u202f](?=\d{3}(?:\D|$))", re.ASCII)
_UNDERSCORE = re.compile(r"(?<=\d)_(?=\d)", re.ASCII)
_EXPONENT = r"(?:[eE][+-]?\d+)?"
_THOUSANDS = re.compile(rf"[+-]?[1-9]\d{{0,2}}(?:,\d{{3}})+(?:\.\d*)?{_EXPONENT}", re.ASCII)
_DECIMAL_COMMA = re.compile(rf"[+-]?\d+,\d+{_EXPONENT}", re.ASCII)
_EITHER_COMMA = re.compile(rf"[+-]?[1-9]\d{{0,2}},\d{{3}}{_EXPONENT}", re.ASCII)  # 1,500: 1500 or 1.5?
_NATIVE_POINTS = re.compile(rf"[+-]?[1-9]\d{{0,2}}(?:\.\d{{3}})+(?:,\d*)?{_EXPONENT}", re.ASCII)  # 1.400,5
_PLAIN = re.compile(rf"[+-]?(?:\d+\.?\d*|\.\d+){_EXPONENT}", re.ASCII)
DIGITS_ADVICE = "Write the number with the digits 0 to 9, such as 12.5"
COMMA_ADVICE = "Write the decimals after a point, such as 1.5; a comma only groups thousands, as in 1,400,000"


class NumberError(ValueError):
    """Text that is not a number, with what to do in a reader's words (`advice`, a sentence without its stop)."""

    def __init__(self, advice: str, *, garbled: bool = False) -> None:
        self.advice = advice
        self.garbled = garbled  # not a number at all, rather than one written in a way that is refused
        super().__init__(advice)


def plain_text(text: str) -> str:
    """`text` as both twins start reading it: full-width forms as ASCII, white space stripped from its ends;
    NumberError if it has digits of another script."""
    text = text.translate(_FULL_WIDTH).strip(SPACES)
    if any(character.isdecimal() and not character.isascii() for character in text):
        raise NumberError(DIGITS_ADVICE, garbled=True)
    return text


def either_comma(text: str) -> str:
    """What to write instead of a number whose one comma may group thousands or mark decimals: both readings."""
    return (
        f"{text} could be {text.replace(',', '')} or {text.replace(',', '.')}: "
        f"write {text.replace(',', '')}, or {text.replace(',', '.')} with a point"
    )


ENGLISH = (".", ",")  # the decimal and group symbols numbers are written with unless a language says otherwise


def read_number(text: str, symbols: tuple[str, str] = ENGLISH) -> float:
    """The number in `text`, or NumberError saying why it is not one (see the module's rules); `symbols` are the
    decimal and group symbols of the language it is written in."""
    cleaned = _UNDERSCORE.sub("", _GROUP_SPACE.sub("", plain_text(text).translate(_MINUSES)))
    cleaned = _in_english(cleaned, symbols)
    if "," in cleaned:
        if _EITHER_COMMA.fullmatch(cleaned):
            raise NumberError(either_comma(cleaned))
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


def _in_english(cleaned: str, symbols: tuple[str, str]) -> str:
    """A number written with a decimal comma (`symbols`), as English writes it; any other text as it was."""
    decimal, group = symbols
    if decimal != ",":
        return cleaned
    if group == "." and _NATIVE_POINTS.fullmatch(cleaned):
        return cleaned.replace(".", "").replace(",", ".")
    if _DECIMAL_COMMA.fullmatch(cleaned):
        return cleaned.replace(",", ".")
    return cleaned
