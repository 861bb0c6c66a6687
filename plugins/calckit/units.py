"""Formatting of quantities: SI prefixes, significant digits, percentages.

The only place that turns numbers into text.
"""

from __future__ import annotations

import math

__all__ = ["format_money", "format_number", "format_percent", "format_si"]

# Zetta and yotta are left out: few readers know them, so 8.4e23 FLOP reads "8.4 × 10²³ FLOP", not "840 ZFLOP".
_PREFIXES = [
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
    if not value:
        return "0"
    exponent = math.floor(math.log10(abs(value)))
    value = round(value, digits - 1 - exponent)
    if abs(value) >= 10.0 ** (exponent + 1):
        exponent += 1  # rounded up into the next power of ten: 9.996 is 10.0, written with one decimal less
    text = f"{value:,.{max(0, digits - 1 - exponent)}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


# Large plain numbers in words, as readers say them: 1.87 million chip-hours, not 1.87 × 10⁶.
_LARGE_NUMBERS = [(1e12, "trillion"), (1e9, "billion"), (1e6, "million")]


def format_number(value: float, unit: str = "", digits: int = 3) -> str:
    """A plain number with its unit: 295 FLOP/byte, 1,979 W, 0.0123 s, 1.87 million; else powers of ten."""
    _check_finite(value)
    magnitude = abs(_round_sig(value, digits)) if value else 0.0
    for factor, word in _LARGE_NUMBERS:
        if factor <= magnitude < 1000 * factor:
            return f"{_plain(value / factor, digits)} {word} {unit}".rstrip()
    if magnitude and not 1e-3 <= magnitude < 1e6:
        mantissa, exponent = f"{_round_sig(value, digits):.{digits - 1}e}".split("e")
        mantissa = mantissa.rstrip("0").rstrip(".")
        text = f"{mantissa} × 10{str(int(exponent)).translate(_SUPERSCRIPT)}"
    else:
        text = _plain(value, digits)
    return f"{text} {unit}".rstrip()


# A duration past a minute is read in minutes and hours, as people say it: 1,780 s is 29.7 min, not 1.78 ks.
_MINUTE, _HOUR = 60.0, 3600.0


def format_si(value: float, unit: str, digits: int = 3) -> str:
    """A number with an SI prefix on its unit: 3.35e12 B/s -> '3.35 TB/s', 9.89e14 FLOP/s -> '989 TFLOP/s'; seconds
    from a minute on in minutes, from an hour on in hours: 1780 s -> '29.7 min', 7.2e5 s -> '200 h'."""
    _check_finite(value)
    magnitude = abs(_round_sig(value, digits))
    if magnitude == 0:
        return f"0 {unit}"
    if unit == "s" and magnitude >= _MINUTE:
        # At least 1 of the larger unit once the value rounds up to it: 59.96 s is 1 min, not 0.999 min.
        minutes = _round_sig(value / _MINUTE, digits)
        if abs(minutes) < _MINUTE:
            return f"{_plain(math.copysign(max(abs(minutes), 1.0), value), digits)} min"
        hours = _round_sig(value / _HOUR, digits)
        return format_number(math.copysign(max(abs(hours), 1.0), value), "h", digits)
    if magnitude >= 1000 * _PREFIXES[0][0]:
        return format_number(value, unit, digits)
    for factor, prefix in _PREFIXES:
        if magnitude >= factor:
            return f"{_plain(value / factor, digits)} {prefix}{unit}"
    return format_number(value, unit, digits)


_CURRENCY_SIGNS = {"USD": "$"}


def format_money(value: float, currency: str = "USD") -> str:
    """An amount as prices are written: '$919.80', '$12,345.60', '$4.56 million'; under a cent, 'under $0.01'."""
    _check_finite(value)
    sign = _CURRENCY_SIGNS.get(currency)

    def write(amount: str) -> str:
        return f"{sign}{amount}" if sign else f"{amount} {currency}"

    magnitude = abs(value)
    if 0 < magnitude < 0.005:
        return f"under {write('0.01')}"
    if value < 0:
        return "-" + format_money(-value, currency)
    if magnitude >= 1e6:
        return write(format_number(value))
    return write(f"{value:,.2f}")


def format_percent(fraction: float, digits: int = 3) -> str:
    """A fraction as a percentage: 0.339 -> '33.9%'."""
    _check_finite(fraction)
    return f"{_plain(fraction * 100, digits)}%"


def _check_finite(value: float) -> None:
    if not math.isfinite(value):
        raise ValueError(f"cannot format a non-finite value ({value!r})")
