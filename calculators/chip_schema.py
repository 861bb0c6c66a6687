"""Reading chips.toml: every rule the file must follow, each broken one reported at its line.

parse_database validates the whole file and raises ChipDataError, located as an editor jumps to it
(`calculators/chips.toml:LINE: chip 'ID', field 'NAME': what is wrong, and what would be right`), so a bad edit fails
the build with one clear line rather than reaching a reader. Besides types and sources, it refuses what would mislead
a reader: a figure outside its field's plausible range (PLAUSIBLE: a unit slipped by a factor of 1000), a sparse
headline stored as the dense value, a chip with no dense peak that does not say why, a source dated after today or
given by an http:// address, a price that does not name its class; a misspelt name gets "did you mean".
"""

from __future__ import annotations

import datetime
import difflib
import math
import re
import tomllib
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final, NoReturn

from calckit.table import Source

from .chip_lines import ChipDataError, KeyLines, unknown_name
from .chip_model import PRECISION_UNITS, PRECISIONS, Chip, ChipDatabase, Figure

__all__ = [
    "DATABASE_FILE",
    "ORIGIN",
    "PLAUSIBLE",
    "PRICE_CLASSES",
    "parse_chips",
    "parse_database",
]

DATABASE_FILE: Final = "chips.toml"
# How a contributor finds the file from the project's root, in every message.
ORIGIN: Final = f"{__package__ or 'calculators'}/{DATABASE_FILE}"
_ID = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
_URL = re.compile(r"https://\S+")
_DATE = re.compile(r"\b(\d{4})(?:-(\d{2}))?(?:-(\d{2}))?\b")

_SOURCE_KEYS: Final = {"id": True, "title": True, "url": True, "date": False, "note": False}
_TEXT_KEYS: Final = ("id", "name", "vendor", "form_factor", "memory_type", "interconnect")
_FIGURE_UNITS: Final = {
    "memory_gb": "GB",
    "bandwidth_tbs": "TB/s",
    "power_w": "W",
    "sram_mb": "MB",
    "price_per_hour": "USD per chip-hour",
}
_CHIP_KEYS: Final = frozenset(
    {*_TEXT_KEYS, "year", "note", "no_dense_peak", *_FIGURE_UNITS, "peak_tflops", "other"},
)
_REQUIRED_CHIP_KEYS: Final = (*_TEXT_KEYS, "year", "memory_gb", "bandwidth_tbs")
_FIGURE_KEYS: Final = frozenset(
    {"value", "source", "note", "headline_sparse", "headline", "alternatives", "unit", "price_class"}
)
# How a cloud sells the hour a price_per_hour figure gives: every price names its class, in the data and the page.
PRICE_CLASSES: Final = ("on-demand", "reserved", "spot", "capacity block")
_ALTERNATIVE_KEYS: Final = frozenset({"value", "source", "note"})

# The range a figure of each field can plausibly take, in the field's unit: wide enough for every real accelerator,
# narrow enough that a unit slip (GB/s written as TB/s, MB as GB) falls outside it. Declared once, here.
PLAUSIBLE: Final[Mapping[str, tuple[float, float]]] = MappingProxyType(
    {
        "year": (1990, 2040),
        "memory_gb": (0.01, 4096),  # Groq's 230 MB of SRAM to a workstation's 512 GB of unified memory
        "bandwidth_tbs": (0.05, 30),  # memory off the chip: LPDDR's 0.1 TB/s to HBM's 8 TB/s
        "power_w": (1, 30_000),  # a phone's NPU to a wafer-scale system
        "sram_mb": (0.1, 100_000),  # to a wafer's 44 GB
        # One chip's share of a cloud instance: an instance's price (8 to 16 chips, tens of dollars) stays outside.
        "price_per_hour": (0.05, 25),
        "peak_tflops.fp32": (0.1, 10_000),
        "peak_tflops.bf16": (1, 100_000),
        "peak_tflops.fp8": (1, 200_000),
        "peak_tflops.fp4": (1, 400_000),
        "peak_tflops.int8": (1, 200_000),
    }
)
# A chip that streams its working set from its own SRAM (memory_type "on-chip SRAM ...") reads it far faster.
_ON_CHIP_BANDWIDTH: Final = (1.0, 100_000.0)


_TOML_POSITION = re.compile(r"\s*\(at line (\d+), column (\d+)\)$")


def parse_database(
    text: str, origin: str = ORIGIN, *, today: datetime.date | None = None, check_dates: bool = True
) -> ChipDatabase:
    """The database in TOML `text`; ChipDataError at the line of the first problem (see ChipDataError). A source
    dated after `today` (by default the day it is read) is refused, as a table would print it as "Figures as of",
    unless `check_dates` is False."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        message = str(error)
        position = _TOML_POSITION.search(message)
        line, where = (int(position[1]), f" (column {position[2]})") if position else (1, "")
        reason = _TOML_POSITION.sub("", message)
        raise ChipDataError(origin, line, "", f"not valid TOML: {reason}{where}") from None
    lines = KeyLines(text)
    unknown = sorted(set(data) - {"source", "chip"})
    if unknown:
        raise ChipDataError(
            origin, 1, "", f"unknown top-level key(s) {unknown}: expected [[source]] and [[chip]] tables only"
        )
    when = (today or datetime.date.today()) if check_dates else None
    sources = _parse_sources(data.get("source", []), origin, lines, when)
    chips: dict[str, Chip] = {}
    raw_chips = data.get("chip", [])
    if not isinstance(raw_chips, list) or not raw_chips:
        raise ChipDataError(origin, 1, "", "expected at least one [[chip]] table")
    first: dict[str, int] = {}
    for index, raw in enumerate(raw_chips):
        chip = _Parser(origin, sources, raw, index, lines).chip()
        if chip.id in chips:
            raise ChipDataError(
                origin,
                lines.of("chip", index, "id"),
                f"chip '{chip.id}', field 'id'",
                f"duplicate id (first used at line {first[chip.id]}): give each chip an id of its own",
            )
        chips[chip.id] = chip
        first[chip.id] = lines.of("chip", index, "id")
    return ChipDatabase(sources=MappingProxyType(sources), chips=MappingProxyType(chips))


def parse_chips(
    text: str, origin: str = ORIGIN, *, today: datetime.date | None = None, check_dates: bool = True
) -> dict[str, Chip]:
    """The chips in TOML `text` by id, in file order; ValueError on any schema problem (see parse_database)."""
    return dict(parse_database(text, origin, today=today, check_dates=check_dates).chips)


def _future_date(date: str, today: datetime.date) -> str:
    """The first date in a source's `date` text that lies after `today` ("2031-06" is after 2026-12-01), or ""."""
    for match in _DATE.finditer(date):
        year, month, day = (int(part) if part else 0 for part in match.groups())
        if (year, month, day) > (today.year, today.month if month else 0, today.day if day else 0):
            return match.group()
    return ""


def _parse_sources(raw_sources: object, origin: str, lines: KeyLines, today: datetime.date | None) -> dict[str, Source]:
    if not isinstance(raw_sources, list) or not raw_sources:
        raise ChipDataError(origin, 1, "", "expected at least one [[source]] table")
    sources: dict[str, Source] = {}
    for index, raw in enumerate(raw_sources):
        where = f"source #{index + 1}"

        def fail(key: str, problem: str, where: str = where, index: int = index) -> NoReturn:
            field = f", field '{key}'" if key else ""
            raise ChipDataError(origin, lines.of("source", index, key), where + field, problem)

        if not isinstance(raw, dict):
            fail("", "expected a table")
        if isinstance(raw.get("id"), str):
            where = f"source '{raw['id']}'"
        values: dict[str, str] = {}
        for key in raw:
            if key not in _SOURCE_KEYS:
                fail(key, unknown_name(key, _SOURCE_KEYS), where)
        for key, required in _SOURCE_KEYS.items():
            if key not in raw:
                if required:
                    fail(key, "missing", where)
                continue
            value = raw[key]
            if not isinstance(value, str) or not value.strip():
                fail(key, f"expected non-empty text in quotes (got {value!r})", where)
            values[key] = value
        if not _ID.fullmatch(values["id"]):
            fail("id", f"expected kebab-case, such as 'vendor-chip-datasheet' (got {values['id']!r})", where)
        url = values["url"]
        if url.startswith("http://"):
            fail(
                "url",
                f"an http:// address ({url!r}): write the https:// address of the same document "
                f"({'https://' + url.removeprefix('http://')!r}), as every page of the book is served over https",
                where,
            )
        if not _URL.fullmatch(url):
            fail(
                "url", f"expected an https:// address, such as 'https://vendor.com/datasheet.pdf' (got {url!r})", where
            )
        if today and "date" in values and (future := _future_date(values["date"], today)):
            fail(
                "date",
                f"{future} is after today ({today.isoformat()}): write the document's own date, or "
                f"'checked {today.isoformat()}' for a living page read today",
                where,
            )
        if values["id"] in sources:
            fail("id", "duplicate id: give each source an id of its own", where)
        sources[values["id"]] = Source(**values)
    return sources


class _Parser:
    """Turns one [[chip]] table into a Chip, or raises ValueError naming the chip and the field."""

    def __init__(self, origin: str, sources: Mapping[str, Source], raw: object, index: int, lines: KeyLines) -> None:
        self.origin = origin
        self.sources = sources
        self.index = index
        self.lines = lines
        self.label = f"#{index + 1}"
        if not isinstance(raw, dict):
            self.fail("", "expected a table")
        self.raw: dict[str, Any] = raw
        if isinstance(raw.get("id"), str):
            self.label = repr(raw["id"])

    def fail(self, key: str, problem: str) -> NoReturn:
        where = f"chip {self.label}" + (f", field '{key}'" if key else "")
        raise ChipDataError(self.origin, self.lines.of("chip", self.index, key), where, problem)

    def chip(self) -> Chip:
        raw = self.raw
        for key in raw:
            if key not in _CHIP_KEYS:
                self.fail(key, unknown_name(key, _CHIP_KEYS))
        for key in _REQUIRED_CHIP_KEYS:
            if key not in raw:
                self.fail(key, "missing")
        text = {key: self.text(key, raw[key]) for key in _TEXT_KEYS}
        if not _ID.fullmatch(text["id"]):
            self.fail("id", f"expected kebab-case (got {text['id']!r})")
        year = raw["year"]
        if isinstance(year, bool) or not isinstance(year, int) or year <= 0:
            self.fail("year", f"expected a positive whole number, such as 2024 (got {year!r})")
        self.plausible("year", "year", year, "")
        peaks = self.peaks()
        no_peak = self.text("no_dense_peak", raw["no_dense_peak"]) if "no_dense_peak" in raw else ""
        if not peaks and not no_peak:
            self.fail(
                "peak_tflops",
                'no dense peak: add one, such as peak_tflops.bf16 = { value = ..., source = "..." }, or, where '
                'the vendor publishes none, say why in no_dense_peak = "..." (calculators that need a peak then '
                "leave the chip out of their pickers)",
            )
        if peaks and no_peak:
            self.fail("no_dense_peak", "the chip has a dense peak: remove no_dense_peak, or the peak")
        return Chip(
            **text,
            year=year,
            note=self.text("note", raw["note"]) if "note" in raw else "",
            memory_gb=self.figure("memory_gb", raw["memory_gb"], _FIGURE_UNITS["memory_gb"]),
            bandwidth_tbs=self.figure("bandwidth_tbs", raw["bandwidth_tbs"], _FIGURE_UNITS["bandwidth_tbs"]),
            power_w=self.optional("power_w"),
            sram_mb=self.optional("sram_mb"),
            price_per_hour=self.optional("price_per_hour"),
            peak_tflops=peaks,
            other=self.others(),
            no_dense_peak=no_peak,
        )

    def text(self, key: str, value: object) -> str:
        if not isinstance(value, str) or not value.strip():
            self.fail(key, f"expected non-empty text in quotes (got {value!r})")
        return value

    def plausible(self, key: str, field: str, value: float, unit: str) -> None:
        """Refuse a figure outside its field's plausible range (PLAUSIBLE), saying what the unit is."""
        bounds = PLAUSIBLE.get(field)
        if field == "bandwidth_tbs" and str(self.raw.get("memory_type", "")).lower().startswith("on-chip"):
            bounds = _ON_CHIP_BANDWIDTH
        if bounds is None or bounds[0] <= value <= bounds[1]:
            return
        low, high = bounds
        unit_text = f" {unit}" if unit else ""
        advice = f": check the unit (this field is in {unit})" if unit else ""
        self.fail(key, f"{value:g}{unit_text} is outside the plausible range {low:g} to {high:g}{unit_text}{advice}")

    def optional(self, key: str) -> Figure | None:
        return self.figure(key, self.raw[key], _FIGURE_UNITS[key]) if key in self.raw else None

    def table(self, key: str) -> dict[str, Any]:
        value = self.raw.get(key, {})
        if not isinstance(value, dict):
            self.fail(key, f"expected a table (got {value!r})")
        return value

    def peaks(self) -> Mapping[str, Figure]:
        peaks: dict[str, Figure] = {}
        for precision, value in self.table("peak_tflops").items():
            key = f"peak_tflops.{precision}"
            if precision not in PRECISIONS:
                self.fail(key, unknown_name(precision, PRECISIONS, "precision"))
            peaks[precision] = self.figure(key, value, PRECISION_UNITS[precision])
        return MappingProxyType({p: peaks[p] for p in PRECISIONS if p in peaks})

    def others(self) -> Mapping[str, Figure]:
        others: dict[str, Figure] = {}
        for name, value in self.table("other").items():
            key = f"other.{name}"
            if not isinstance(value, dict) or "unit" not in value:
                self.fail(key, "expected a figure with a 'unit'")
            others[name] = self.figure(key, value, self.text(f"{key}.unit", value["unit"]), with_unit=True)
        return MappingProxyType(others)

    def figure(self, key: str, raw: object, unit: str, *, alternative: bool = False, with_unit: bool = False) -> Figure:
        if not isinstance(raw, dict):
            self.fail(key, f"expected a figure {{ value = ..., source = ... }} (got {raw!r})")
        allowed = _ALTERNATIVE_KEYS if alternative else _FIGURE_KEYS if with_unit else _FIGURE_KEYS - {"unit"}
        for name in raw:
            if name not in allowed:
                self.fail(key, unknown_name(name, allowed))
        if "value" not in raw:
            self.fail(key, "missing 'value'")
        if "source" not in raw:
            self.fail(key, "missing 'source': every figure names the id of the [[source]] it comes from")
        value = self.number(key, "value", raw["value"])
        self.plausible(key, key.removesuffix(".alternatives"), value, unit)
        source_id = raw["source"]
        if not isinstance(source_id, str):
            self.fail(key, f"'source' must be the id of a [[source]], in quotes (got {source_id!r})")
        if source_id not in self.sources:
            near = difflib.get_close_matches(source_id, list(self.sources), n=1)
            advice = f"did you mean {near[0]!r}?" if near else "add a [[source]] with that id, or use an existing one"
            self.fail(key, f"unknown source id {source_id!r}: {advice}")
        note = self.text(f"{key}.note", raw["note"]) if "note" in raw else ""
        sparse = raw.get("headline_sparse", False)
        if not isinstance(sparse, bool):
            self.fail(key, f"'headline_sparse' must be true or false (got {sparse!r})")
        headline = self.number(key, "headline", raw["headline"]) if "headline" in raw else None
        if sparse and headline is None:
            self.fail(key, "'headline_sparse' needs the vendor's 'headline' figure")
        if headline is not None and headline < value:
            self.fail(key, f"the dense 'value' ({value:g}) exceeds the vendor's 'headline' ({headline:g})")
        if sparse and headline == value:
            self.fail(
                key,
                f"'headline_sparse' = true, yet 'value' is the sparse headline ({value:g}): store the dense figure "
                f"as 'value' (with 2:4 sparsity, half the headline: {value / 2:g})",
            )
        price_class = raw.get("price_class", "")
        if key == "price_per_hour" and price_class not in PRICE_CLASSES:
            got = f"got {price_class!r}" if price_class else "it has none"
            self.fail(
                key,
                f"a price names its class: price_class = one of {', '.join(repr(c) for c in PRICE_CLASSES)} ({got})",
            )
        if price_class and key != "price_per_hour":
            self.fail(key, "'price_class' belongs to price_per_hour only")
        raw_alternatives = raw.get("alternatives", [])
        if not isinstance(raw_alternatives, list):
            self.fail(key, f"'alternatives' must be a list of figures (got {raw_alternatives!r})")
        alternatives = tuple(
            self.figure(f"{key}.alternatives", alt, unit, alternative=True) for alt in raw_alternatives
        )
        return Figure(
            value=value,
            unit=unit,
            source=self.sources[source_id],
            note=note,
            headline_sparse=sparse,
            headline=headline,
            alternatives=alternatives,
            price_class=price_class,
        )

    def number(self, key: str, name: str, value: object) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            advice = ": write it without quotes" if isinstance(value, str) else ""
            self.fail(key, f"'{name}' must be a number (got {value!r}){advice}")
        if not math.isfinite(value) or value <= 0:
            self.fail(key, f"'{name}' must be a finite number > 0 (got {value!r})")
        return float(value)
