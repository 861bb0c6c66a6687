"""Formatting of quantities: SI prefixes, significant digits, percentages.

The only place that turns numbers into text.
"""

from __future__ import annotations

import math

__all__ = ["format_number", "format_percent", "format_si"]

_PREFIXES = [
    (1e24, "Y"),
    (1e21, "Z"),
    (1e18, "E"),
    (1e15, "P"),
    (1e12, "T"),
    (1e9, "G"),
    (1e6, "M"),
    (1e3, "k"),
    (1.0, ""),
    (1e-3, "m"),
    (1e-6, "µ"),
    (1e-9, "n"),
    (1e-12, "p"),
]

_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def _round_sig(value: float, digits: int) -> float:
    if value == 0:
        return 0.0
    return round(value, digits - 1 - math.floor(math.log10(abs(value))))


def _plain(value: float, digits: int) -> str:
    """`value` to `digits` significant digits, without exponent, trailing zeros dropped, thousands grouped."""
    value = _round_sig(value, digits)
    decimals = max(0, digits - 1 - math.floor(math.log10(abs(value)))) if value else 0
    text = f"{value:,.{decimals}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def format_number(value: float, unit: str = "", digits: int = 3) -> str:
    """A plain number with its unit: 295 FLOP/byte, 1,979 W, 0.0123 s; powers of ten outside 1e-3..1e6."""
    _check_finite(value)
    magnitude = abs(value)
    if magnitude and not 1e-3 <= magnitude < 1e6:
        mantissa, exponent = f"{_round_sig(value, digits):.{digits - 1}e}".split("e")
        mantissa = mantissa.rstrip("0").rstrip(".")
        text = f"{mantissa} × 10{str(int(exponent)).translate(_SUPERSCRIPT)}"
    else:
        text = _plain(value, digits)
    return f"{text} {unit}".rstrip()


def format_si(value: float, unit: str, digits: int = 3) -> str:
    """A number with an SI prefix on its unit: 3.35e12 B/s -> '3.35 TB/s', 9.89e14 FLOP/s -> '989 TFLOP/s'."""
    _check_finite(value)
    magnitude = abs(_round_sig(value, digits))
    if magnitude == 0:
        return f"0 {unit}"
    for factor, prefix in _PREFIXES:
        if magnitude >= factor:
            return f"{_plain(value / factor, digits)} {prefix}{unit}"
    return format_number(value, unit, digits)


def format_percent(fraction: float, digits: int = 3) -> str:
    """A fraction as a percentage: 0.339 -> '33.9%'."""
    _check_finite(fraction)
    return f"{_plain(fraction * 100, digits)}%"


def _check_finite(value: float) -> None:
    if not math.isfinite(value):
        raise ValueError(f"cannot format a non-finite value ({value!r})")
