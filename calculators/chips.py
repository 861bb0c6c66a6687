"""The chip database: published figures of AI accelerators, every one with its source.

The figures live in `chips.toml` next to this module (its header documents the schema). Peaks are dense: where a
vendor's headline counts structured sparsity, the dense figure is stored, `headline_sparse` is set and the
headline kept beside it. Loading validates the whole file and raises ValueError naming the chip (or source) and
the field at fault, so a bad edit fails the build rather than reaching a reader.

Standard library only (`tomllib`, `importlib.resources`): it runs at build time and in Pyodide alike.
"""

from __future__ import annotations

import functools
import math
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from types import MappingProxyType
from typing import Any, Final, NoReturn

__all__ = [
    "PRECISIONS",
    "PRECISION_LABELS",
    "PRECISION_UNITS",
    "Chip",
    "ChipDatabase",
    "Figure",
    "Source",
    "get_chip",
    "load_chips",
    "load_sources",
    "parse_chips",
    "parse_database",
]

PRECISIONS: Final = ("fp32", "bf16", "fp8", "int8")
PRECISION_LABELS: Final[Mapping[str, str]] = MappingProxyType(
    {"fp32": "FP32", "bf16": "BF16/FP16", "fp8": "FP8", "int8": "INT8"}
)
PRECISION_UNITS: Final[Mapping[str, str]] = MappingProxyType(
    {"fp32": "TFLOP/s", "bf16": "TFLOP/s", "fp8": "TFLOP/s", "int8": "TOP/s"}
)

_FILE = "chips.toml"
_ID = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
_URL = re.compile(r"https?://\S+")

_SOURCE_KEYS: Final = {"id": True, "title": True, "url": True, "date": False, "note": False}
_TEXT_KEYS: Final = ("id", "name", "vendor", "form_factor", "memory_type", "interconnect")
_FIGURE_UNITS: Final = {"memory_gb": "GB", "bandwidth_tbs": "TB/s", "power_w": "W", "sram_mb": "MB"}
_CHIP_KEYS: Final = frozenset(
    {*_TEXT_KEYS, "year", "note", *_FIGURE_UNITS, "peak_tflops", "other"},
)
_REQUIRED_CHIP_KEYS: Final = (*_TEXT_KEYS, "year", "memory_gb", "bandwidth_tbs")
_FIGURE_KEYS: Final = frozenset({"value", "source", "note", "headline_sparse", "headline", "alternatives", "unit"})
_ALTERNATIVE_KEYS: Final = frozenset({"value", "source", "note"})


@dataclass(frozen=True)
class Source:
    """A document that figures cite: its title (with publisher), address, and optionally date and a note.

    The note says how its figures were checked when that was not on the document itself.
    """

    id: str
    title: str
    url: str
    date: str = ""
    note: str = ""


@dataclass(frozen=True)
class Figure:
    """One published number with its unit and source.

    `headline_sparse` marks a peak whose vendor headline counts structured sparsity: `value` is then the dense
    figure and `headline` the vendor's. `alternatives` are the same quantity as other good sources give it.
    """

    value: float
    unit: str
    source: Source
    note: str = ""
    headline_sparse: bool = False
    headline: float | None = None
    alternatives: tuple[Figure, ...] = ()


@dataclass(frozen=True)
class Chip:
    """An accelerator as its vendor specifies it, each figure with its source.

    `peak_tflops` holds dense peaks by precision (see PRECISIONS; INT8 in TOP/s). `other` holds vendor figures
    that are not dense per-precision peaks, such as a sparse-only headline or a Neural Engine's TOPS.
    """

    id: str
    name: str
    vendor: str
    year: int
    form_factor: str
    memory_type: str
    interconnect: str
    memory_gb: Figure
    bandwidth_tbs: Figure
    power_w: Figure | None
    sram_mb: Figure | None
    peak_tflops: Mapping[str, Figure]
    other: Mapping[str, Figure] = field(default_factory=lambda: MappingProxyType({}))
    note: str = ""

    @property
    def precisions(self) -> tuple[str, ...]:
        """The precisions with a dense peak, in PRECISIONS order."""
        return tuple(p for p in PRECISIONS if p in self.peak_tflops)

    def peak(self, precision: str) -> Figure:
        """The dense peak at `precision`; KeyError naming the chip and the precisions it has otherwise."""
        try:
            return self.peak_tflops[precision]
        except KeyError:
            have = ", ".join(self.precisions) or "none"
            raise KeyError(
                f"chip '{self.id}' has no {precision!r} peak (it has: {have}; known precisions: "
                f"{', '.join(PRECISIONS)})"
            ) from None

    def ridge_point(self, precision: str = "bf16") -> float:
        """Dense peak over memory bandwidth: the roofline's ridge, in FLOP (or OP) per byte."""
        return self.peak(precision).value / self.bandwidth_tbs.value


@dataclass(frozen=True)
class ChipDatabase:
    """The parsed file: sources and chips by id, in file order."""

    sources: Mapping[str, Source]
    chips: Mapping[str, Chip]


def parse_database(text: str, origin: str = _FILE) -> ChipDatabase:
    """The database in TOML `text`; ValueError naming the chip or source and the field on any schema problem."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ValueError(f"{origin}: not valid TOML: {error}") from None
    unknown = sorted(set(data) - {"source", "chip"})
    if unknown:
        raise ValueError(f"{origin}: unknown top-level key(s) {unknown}: expected [[source]] and [[chip]] tables")
    sources = _parse_sources(data.get("source", []), origin)
    chips: dict[str, Chip] = {}
    raw_chips = data.get("chip", [])
    if not isinstance(raw_chips, list) or not raw_chips:
        raise ValueError(f"{origin}: expected at least one [[chip]] table")
    for index, raw in enumerate(raw_chips):
        chip = _Parser(origin, sources, raw, index).chip()
        if chip.id in chips:
            raise ValueError(f"{origin}: chip '{chip.id}', field 'id': duplicate id")
        chips[chip.id] = chip
    return ChipDatabase(sources=MappingProxyType(sources), chips=MappingProxyType(chips))


def parse_chips(text: str, origin: str = _FILE) -> dict[str, Chip]:
    """The chips in TOML `text` by id, in file order; ValueError on any schema problem (see parse_database)."""
    return dict(parse_database(text, origin).chips)


def load_chips() -> dict[str, Chip]:
    """Every chip in the package's chips.toml by id, in file order (parsed once, then cached)."""
    return dict(_database().chips)


def load_sources() -> dict[str, Source]:
    """Every source in the package's chips.toml by id, in file order."""
    return dict(_database().sources)


def get_chip(chip_id: str) -> Chip:
    """The chip with this id; KeyError listing the known ids otherwise."""
    chips = _database().chips
    try:
        return chips[chip_id]
    except KeyError:
        raise KeyError(f"no chip {chip_id!r}; known chips: {', '.join(chips)}") from None


@functools.cache
def _database() -> ChipDatabase:
    package = __package__ or "calculators"
    return parse_database(resources.files(package).joinpath(_FILE).read_text(encoding="utf-8"))


def _parse_sources(raw_sources: object, origin: str) -> dict[str, Source]:
    if not isinstance(raw_sources, list) or not raw_sources:
        raise ValueError(f"{origin}: expected at least one [[source]] table")
    sources: dict[str, Source] = {}
    for index, raw in enumerate(raw_sources):
        where = f"{origin}: source #{index + 1}"
        if not isinstance(raw, dict):
            raise ValueError(f"{where}: expected a table")
        if isinstance(raw.get("id"), str):
            where = f"{origin}: source '{raw['id']}'"
        values: dict[str, str] = {}
        for key in raw:
            if key not in _SOURCE_KEYS:
                raise ValueError(f"{where}, field '{key}': unknown field (expected one of {sorted(_SOURCE_KEYS)})")
        for key, required in _SOURCE_KEYS.items():
            if key not in raw:
                if required:
                    raise ValueError(f"{where}, field '{key}': missing")
                continue
            value = raw[key]
            if not isinstance(value, str) or not value.strip():
                raise ValueError(f"{where}, field '{key}': expected non-empty text (got {value!r})")
            values[key] = value
        if not _ID.fullmatch(values["id"]):
            raise ValueError(f"{where}, field 'id': expected kebab-case (got {values['id']!r})")
        if not _URL.fullmatch(values["url"]):
            raise ValueError(f"{where}, field 'url': expected an http(s) address (got {values['url']!r})")
        if values["id"] in sources:
            raise ValueError(f"{where}, field 'id': duplicate id")
        sources[values["id"]] = Source(**values)
    return sources


class _Parser:
    """Turns one [[chip]] table into a Chip, or raises ValueError naming the chip and the field."""

    def __init__(self, origin: str, sources: Mapping[str, Source], raw: object, index: int) -> None:
        self.origin = origin
        self.sources = sources
        self.label = f"#{index + 1}"
        if not isinstance(raw, dict):
            self.fail("", "expected a table")
        self.raw: dict[str, Any] = raw
        if isinstance(raw.get("id"), str):
            self.label = repr(raw["id"])

    def fail(self, key: str, problem: str) -> NoReturn:
        where = f"{self.origin}: chip {self.label}" + (f", field '{key}'" if key else "")
        raise ValueError(f"{where}: {problem}")

    def chip(self) -> Chip:
        raw = self.raw
        for key in raw:
            if key not in _CHIP_KEYS:
                self.fail(key, f"unknown field (expected one of {sorted(_CHIP_KEYS)})")
        for key in _REQUIRED_CHIP_KEYS:
            if key not in raw:
                self.fail(key, "missing")
        text = {key: self.text(key, raw[key]) for key in _TEXT_KEYS}
        if not _ID.fullmatch(text["id"]):
            self.fail("id", f"expected kebab-case (got {text['id']!r})")
        year = raw["year"]
        if isinstance(year, bool) or not isinstance(year, int) or year <= 0:
            self.fail("year", f"expected a positive whole number (got {year!r})")
        return Chip(
            **text,
            year=year,
            note=self.text("note", raw["note"]) if "note" in raw else "",
            memory_gb=self.figure("memory_gb", raw["memory_gb"], _FIGURE_UNITS["memory_gb"]),
            bandwidth_tbs=self.figure("bandwidth_tbs", raw["bandwidth_tbs"], _FIGURE_UNITS["bandwidth_tbs"]),
            power_w=self.optional("power_w"),
            sram_mb=self.optional("sram_mb"),
            peak_tflops=self.peaks(),
            other=self.others(),
        )

    def text(self, key: str, value: object) -> str:
        if not isinstance(value, str) or not value.strip():
            self.fail(key, f"expected non-empty text (got {value!r})")
        return value

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
                self.fail(key, f"unknown precision (expected one of {', '.join(PRECISIONS)})")
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
                self.fail(key, f"unknown field '{name}' (expected one of {sorted(allowed)})")
        for name in ("value", "source"):
            if name not in raw:
                self.fail(key, f"missing '{name}'")
        value = self.number(key, "value", raw["value"])
        source_id = raw["source"]
        if not isinstance(source_id, str):
            self.fail(key, f"'source' must be a source id (got {source_id!r})")
        if source_id not in self.sources:
            self.fail(key, f"unknown source id {source_id!r}")
        note = self.text(f"{key}.note", raw["note"]) if "note" in raw else ""
        sparse = raw.get("headline_sparse", False)
        if not isinstance(sparse, bool):
            self.fail(key, f"'headline_sparse' must be true or false (got {sparse!r})")
        headline = self.number(key, "headline", raw["headline"]) if "headline" in raw else None
        if sparse and headline is None:
            self.fail(key, "'headline_sparse' needs the vendor's 'headline' figure")
        if headline is not None and headline < value:
            self.fail(key, f"the dense 'value' ({value:g}) exceeds the vendor's 'headline' ({headline:g})")
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
        )

    def number(self, key: str, name: str, value: object) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            self.fail(key, f"'{name}' must be a number (got {value!r})")
        if not math.isfinite(value) or value <= 0:
            self.fail(key, f"'{name}' must be a finite number > 0 (got {value!r})")
        return float(value)
