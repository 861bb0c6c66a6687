"""The chip database's data: a chip, a figure with its source, the database, and the precisions peaks are kept at.

Loaded and checked by chip_schema (from chips.toml); read through chips, the module the rest of the package uses.
Standard library only: it runs at build time and in Pyodide alike.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Final

from calckit.table import Source

__all__ = ["PRECISIONS", "PRECISION_LABELS", "PRECISION_UNITS", "Chip", "ChipDatabase", "Figure"]

# fp4 is a 4-bit float with block scales (NVIDIA's NVFP4, the OCP's MXFP4): each figure's note names which.
PRECISIONS: Final = ("fp32", "bf16", "fp8", "fp4", "int8")
PRECISION_LABELS: Final[Mapping[str, str]] = MappingProxyType(
    {"fp32": "FP32", "bf16": "BF16/FP16", "fp8": "FP8", "fp4": "FP4", "int8": "INT8"}
)
PRECISION_UNITS: Final[Mapping[str, str]] = MappingProxyType(
    {"fp32": "TFLOP/s", "bf16": "TFLOP/s", "fp8": "TFLOP/s", "fp4": "TFLOP/s", "int8": "TOP/s"}
)


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
    price_class: str = ""


@dataclass(frozen=True)
class Chip:
    """An accelerator as its vendor specifies it, each figure with its source.

    `peak_tflops` holds dense peaks by precision (see PRECISIONS; INT8 in TOP/s). `other` holds vendor figures
    that are not dense per-precision peaks, such as a sparse-only headline or a Neural Engine's TOPS. A chip without
    any dense peak says why in `no_dense_peak`; the pickers of calculators that need a peak leave it out.
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
    price_per_hour: Figure | None = None
    no_dense_peak: str = ""

    def figures(self) -> tuple[Figure, ...]:
        """Every figure of the chip and their alternatives: what its "as of" date is taken from."""
        mains = (self.memory_gb, self.bandwidth_tbs, self.power_w, self.sram_mb, self.price_per_hour)
        found = [f for f in (*mains, *self.peak_tflops.values(), *self.other.values()) if f is not None]
        return tuple(figure for main in found for figure in (main, *main.alternatives))

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
