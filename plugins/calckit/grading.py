"""The one grading rule: how close a reader's number must be, and why a returned value is not the answer.

Quizzes and exercises grade with it: in the browser `grading.js` applies the same rule (the page grades a quiz answer
and an exercise's outputs itself), and `tests/unit/grading_cases.json` holds the cases that both are tested on, so
that the Python the build uses and the JavaScript that readers see cannot drift apart.

A tolerance has one convention: `amount` is in the answer's unit, or, when `relative`, a fraction of the answer
(0.02 for 2%). The slack on top covers float noise only.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .contracts import Returned, ToleranceData
from .numbers import ENGLISH, SPACES, NumberError, plain_text, read_number
from .units import format_number

__all__ = ["SLACK", "Returned", "Tolerance", "read_answer", "returned", "unit_factor", "verdict"]

SLACK = 1e-9  # relative float noise forgiven on top of any tolerance: 1.1 is within 0.1 of 1.0
SHOWN_LIMIT = 200  # characters of a returned value's repr kept for the reader


@dataclass(frozen=True)
class Tolerance:
    """How far from the answer a reply may be: `amount` in the answer's unit, or a fraction of it if `relative`."""

    amount: float
    relative: bool = False

    def allows(self, given: float, answer: float) -> bool:
        limit = self.amount * abs(answer) if self.relative else self.amount
        return abs(given - answer) <= limit + SLACK * max(abs(given), abs(answer), 1e-300)

    def as_dict(self) -> ToleranceData:
        return {"amount": self.amount, "relative": self.relative}


# What a reader's function returned, as plain JSON data (calckit.contracts.Returned): {"kind": "number", "value": 1.5},
# {"kind": "none"}, {"kind": "nonfinite"} (inf or nan, which JSON cannot carry) or {"kind": "other", "type": "str"};
# with "shown", its repr for the reader.


def returned(value: object) -> Returned:
    """`value` as the grading rule sees it (see Returned)."""
    try:
        text = repr(value)
    except Exception:  # the reader's own type, whose repr raised
        text = f"<{type(value).__name__}>"
    shown = text if len(text) <= SHOWN_LIMIT else text[: SHOWN_LIMIT - 3] + "..."
    if value is None:
        return {"kind": "none", "shown": shown}
    if isinstance(value, bool) or not isinstance(value, int | float):
        return {"kind": "other", "type": type(value).__name__, "shown": shown}
    try:
        number = float(value)
    except OverflowError:  # a whole number beyond any float: 10**400
        return {"kind": "nonfinite", "shown": shown}
    if not math.isfinite(number):
        return {"kind": "nonfinite", "shown": shown}
    return {"kind": "number", "value": number, "shown": shown}


def verdict(got: Mapping[str, Any], expected: float | None, tolerance: Tolerance) -> str:
    """'' when what came back (`returned`'s form) answers the case; otherwise why not, in a reader's words."""
    kind = got.get("kind")
    if expected is None:
        return "" if kind == "none" else "expected None: there is no such number for these inputs"
    if kind == "none":
        return "expected a number, got None"
    if kind == "other":
        named = got.get("type")
        return f"expected a number, got {named if isinstance(named, str) else 'something else'}"
    value = got.get("value")
    if kind != "number" or isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return "expected a finite number"
    value = float(value)
    if tolerance.allows(value, expected):
        return ""
    if not expected:
        return "expected 0"
    ratio = value / expected
    if ratio >= 2 or 0 < ratio <= 0.5:  # a unit or a factor gone astray, rather than a slip in the formula
        return f"{_three(ratio)} times the expected value"
    return f"{_three(100 * abs(value - expected) / abs(expected))}% away from the expected value"


def _three(value: float) -> str:
    """Three significant digits: '1,000', '0.001', '50'; '1e+07' and '2e-05' outside a thousandth to a million."""
    return format_number(value, digits=3) if 1e-3 <= abs(value) < 1e6 else f"{value:.3g}"


# The prefixes an answer's unit may carry, and what each multiplies by; the binary ones for bytes alone.
SI_PREFIXES = {"": 1.0, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15, "E": 1e18}
SI_PREFIXES |= {"m": 1e-3, "µ": 1e-6, "n": 1e-9, "p": 1e-12}
BINARY_PREFIXES = {"Ki": 2.0**10, "Mi": 2.0**20, "Gi": 2.0**30, "Ti": 2.0**40, "Pi": 2.0**50}
_MICRO = ("u", "\u03bc")  # how keyboards write micro: u, or the Greek mu (µ is the micro sign)
_NEIGHBOUR = {"k": "M", "M": "k", "G": "T", "T": "G", "P": "T", "E": "P", "m": "µ", "µ": "m", "n": "µ", "p": "n"}
# Other ways readers write a unit, in any case: words for prefixes and units (microseconds, bytes), FLOPS or flop/s
# for FLOP/s, B for byte. The prefix a reader glued to FLOPS is kept as typed (tflops is tFLOP/s, read below).
_PREFIX_WORDS = {"exa": "E", "peta": "P", "tera": "T", "giga": "G", "mega": "M", "kilo": "k"}
_PREFIX_WORDS |= {"milli": "m", "micro": "µ", "nano": "n", "pico": "p"}
_UNIT_WORDS = {"seconds": "s", "second": "s", "secs": "s", "sec": "s", "minutes": "min", "minute": "min"}
_UNIT_WORDS |= {"mins": "min", "hours": "h", "hour": "h", "hrs": "h", "hr": "h", "bytes": "B", "byte": "B"}
_WORDS = re.compile(
    rf"(?<![a-z])({'|'.join(_PREFIX_WORDS)})?-?({'|'.join(_UNIT_WORDS)})(?![a-z])", re.IGNORECASE | re.ASCII
)
_FLOPS = re.compile(r"(?<![a-z])([kmgtpe]?)(?:flops|flop/s)(?![a-z/])", re.IGNORECASE | re.ASCII)
_FLOP = re.compile(r"(?<![a-z])([kmgtpe]?)flops?(?![a-z])", re.IGNORECASE | re.ASCII)
# Durations that an answer in seconds (or ms, µs...) may be given in, in seconds.
_DURATIONS = {"min": 60.0, "h": 3600.0}


_ANSWER = re.compile(
    rf"([+\-\u2212\u2013]?[\d.,_ \u00a0\u202f]*\d[\d.,_]*(?:[eE][+\-\u2212]?\d+)?|[+\-]?\.\d+)[{SPACES}]*(.*)",
    re.S | re.ASCII,
)


def _spelled(unit: str) -> str:
    """`unit` with the words and spellings readers use as the symbols: '257 microseconds' is in µs, 'FLOPs/byte' is
    FLOP/B, 'tflops' is tFLOP/s (its prefix's case is read by `unit_factor`)."""
    unit = _WORDS.sub(
        lambda match: _PREFIX_WORDS.get((match[1] or "").lower(), "") + _UNIT_WORDS[match[2].lower()], unit
    )
    unit = _FLOPS.sub(lambda match: f"{match[1]}FLOP/s", unit)
    return _FLOP.sub(lambda match: f"{match[1]}FLOP", unit)


def _loosely(given: str, written: str) -> bool:
    """Whether `given` is `written` in another case, where case tells nothing apart: not B from b (bytes, bits)."""
    return len(given) == len(written) and all(
        one == other or (one.lower() == other.lower() and one not in "Bb")
        for one, other in zip(given, written, strict=True)
    )


def _units(unit: str) -> dict[str, float]:
    """Every way of writing an answer in `unit` that is converted, and what a number in it is multiplied by."""
    found: dict[str, float] = {}
    for prefix, base in _readings(unit):
        prefixes = SI_PREFIXES | (BINARY_PREFIXES if base.startswith("B") else {})
        for other, factor in prefixes.items():
            found.setdefault(other + base, factor / SI_PREFIXES[prefix])
            if other == "µ":
                for micro in _MICRO:
                    found.setdefault(micro + base, factor / SI_PREFIXES[prefix])
        if base == "s":
            for duration, seconds in _DURATIONS.items():
                found.setdefault(duration, seconds / SI_PREFIXES[prefix])
    return found


def unit_factor(given: str, unit: str) -> float | None:
    """What a number in unit `given` is multiplied by to be in `unit` (1e-3 for GFLOP/s to TFLOP/s, 1.024 for KiB to
    kB, 60 for minutes to s), or None when `given` is not `unit` with another prefix, in a reader's spelling. Case
    is read only where SI leaves no doubt: tflop/s is TFLOP/s (there is no prefix t), but mflop/s is not read (milli
    or mega?), nor Gb/s as GB/s (bits are not bytes)."""
    given, unit = _spelled(given.strip(SPACES)), _spelled(unit.strip(SPACES))
    units = _units(unit)
    if given in units:
        return units[given]
    loose = [factor for written, factor in units.items() if _loosely(given, written)]
    return loose[0] if len(set(loose)) == 1 else None


def read_answer(text: str, unit: str, symbols: tuple[str, str] = ENGLISH) -> float:
    """A quiz answer in the question's `unit`: a number (`numbers.read_number`'s rules, with `symbols`, the decimal
    and group symbols of the book's language), optionally followed by `unit` or that unit with another prefix (49140
    GFLOP/s for TFLOP/s, 128 KiB for kB), converted. NumberError otherwise, saying which unit was expected."""
    match = _ANSWER.fullmatch(plain_text(text))
    if not match:
        raise NumberError(f"Write your answer as a number{f' in {unit}' if unit else ''}, such as 12.5", garbled=True)
    number = read_number(match[1], symbols)
    written = match[2].strip(SPACES)
    if not written:
        return number
    if not unit:
        raise NumberError("Write your answer as a plain number, without a unit")
    factor = unit_factor(written, unit)
    if factor is None:
        raise NumberError(f"“{written}” is not a unit this answer can be in: write it in {unit}{_other_prefixes(unit)}")
    return number * factor


def _readings(unit: str) -> list[tuple[str, str]]:
    """`unit` as a prefix and a base, the longest prefix first: 'ms' is ('m', 's'), then ('', 'ms')."""
    readings = [(prefix, unit[len(prefix) :]) for prefix in SI_PREFIXES if prefix and unit.startswith(prefix)]
    return [*sorted((pair for pair in readings if pair[1]), key=lambda pair: -len(pair[0])), ("", unit)]


def _other_prefixes(unit: str) -> str:
    """', or with another prefix, such as GFLOP/s' for TFLOP/s; '' for a unit without a prefix."""
    prefix, base = _readings(unit)[0]
    return f", or with another prefix, such as {_NEIGHBOUR.get(prefix, 'k')}{base}" if prefix else ""
