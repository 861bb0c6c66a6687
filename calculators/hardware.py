"""Inputs that describe the hardware, shared by the calculators: a chip picker that fills figures from the chip
database, a precision picker, and the figures themselves for "custom" hardware."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from calckit.errors import InputError
from calckit.spec import CUSTOM, Choice, Input, Value, text

from .chips import PRECISION_LABELS, PRECISIONS, as_of, load_chips

__all__ = [
    "BYTES_PER_VALUE",
    "bandwidth_input",
    "bytes_per_param_input",
    "chip_choices",
    "chip_input",
    "figures_as_of",
    "fill_from_chip",
    "peak_input",
    "power_input",
    "precision_input",
    "price_input",
    "price_note",
    "transformer_inputs",
]

# Bytes that one number takes at each precision the chip database lists. FP4 counts its block scales: NVFP4 keeps
# one FP8 scale per 16 values (4.5 bits a value; MXFP4's one 8-bit scale per 32 would be 4.25).
BYTES_PER_VALUE = {"fp32": 4.0, "bf16": 2.0, "fp8": 1.0, "fp4": 0.5625, "int8": 1.0}
assert set(BYTES_PER_VALUE) == set(PRECISIONS)


def chip_choices(*, needs_peak: bool = False) -> tuple[Choice, ...]:
    """Every chip of the database and "custom"; with `needs_peak`, only the chips with a dense peak (a chip that
    publishes none, such as Cerebras's wafer, would only give its reader an error)."""
    chips = tuple(
        Choice(chip.id, chip.name, chip.vendor) for chip in load_chips().values() if chip.peak_tflops or not needs_peak
    )
    return (*chips, Choice(CUSTOM, "Custom figures", "Other"))


def chip_input(default: str, *, help: str = "", needs_peak: bool = True) -> Input:
    """The chip picker. It offers only chips with a dense peak unless `needs_peak` is False (a calculator that can
    work from memory and bandwidth alone)."""
    return Input(
        "chip",
        "Chip",
        kind="choice",
        default=default,
        choices=chip_choices(needs_peak=needs_peak),
        help=help or "Fills in the figures below from the chip database; pick “Custom figures” to type your own.",
    )


def precision_input(default: str = "bf16", *, label: str = "Compute precision") -> Input:
    return Input(
        "precision",
        label,
        kind="choice",
        default=default,
        choices=tuple(Choice(key, PRECISION_LABELS[key]) for key in PRECISIONS),
        help="The number format of the arithmetic; peak throughput depends on it (FP4 is NVFP4 or MXFP4, "
        "with block scales; INT8 in TOP/s).",
    )


def peak_input(default: float) -> Input:
    return Input(
        "peak_tflops",
        "Peak compute",
        unit="TFLOP/s",
        default=default,
        min=0.001,
        max=1e6,
        step=0.1,
        filled_by="chip",
        help="Dense peak at that precision, without structured sparsity.",
    )


def power_input(default: float, help: str) -> Input:
    """The power of one chip, filled from the database by the chip picker."""
    return Input("power_w", "Power per chip", unit="W", default=default, min=0.1, max=1e6, filled_by="chip", help=help)


def price_input(default: float) -> Input:
    """What one chip costs per hour, filled from the database where a cloud publishes a price for it; for a chip
    without one, the field keeps what it holds and `price_note` says so."""
    return Input(
        "price_per_hour",
        "Price per chip-hour",
        unit="USD",
        default=default,
        min=0.0001,
        max=1e5,
        filled_by="chip",
        help="Filled from the chip database where a cloud publishes a price for the chip (its source says which "
        "kind of price); type what you pay.",
    )


def price_note(values: Mapping[str, Value]) -> str:
    """A note for a cost computed from the price field while the chip picked has no price in the database."""
    chip = text(values, "chip")
    if chip == CUSTOM or load_chips()[chip].price_per_hour is not None:
        return ""
    return (
        f"No published price for the {load_chips()[chip].name} is in the chip database: this uses the price in the "
        "field. Type what you pay."
    )


def figures_as_of(values: Mapping[str, Value]) -> str:
    """' NVIDIA H100 SXM figures as of 2022-03.': how recent the picked chip's figures are, for the end of a
    summary (the newest date among their sources in the database); '' for custom figures."""
    chip = text(values, "chip")
    if chip == CUSTOM:
        return ""
    dated = as_of([load_chips()[chip]])
    return f" {load_chips()[chip].name} figures as of {dated}." if dated else ""


def transformer_inputs(*, params_b: float, layers: int, hidden: int) -> tuple[Input, ...]:
    """A decoder-only transformer's size and shape, what its weights and KV cache take, and the precisions of both
    (8 KV heads of 128 by default, as in the Llama 3 family)."""
    return (
        Input("params_b", "Model parameters", unit="billions", default=params_b, min=0.001, max=1e5),
        bytes_per_param_input(),
        Input("layers", "Layers", kind="integer", default=layers, min=1, max=10_000),
        Input("hidden", "Hidden size", kind="integer", default=hidden, min=1, max=1e6),
        Input("kv_heads", "KV heads", kind="integer", default=8, min=1, max=10_000),
        Input("head_dim", "Head size", kind="integer", default=128, min=1, max=100_000),
        bytes_per_param_input(key="kv_bytes", label="Bytes per KV-cache value"),
    )


def bandwidth_input(default: float) -> Input:
    return Input(
        "bandwidth_tbs",
        "Memory bandwidth",
        unit="TB/s",
        default=default,
        min=0.001,
        max=1e5,
        step=0.01,
        filled_by="chip",
        help="Peak bandwidth of the memory that holds the weights (HBM on most accelerators).",
    )


def bytes_per_param_input(
    default: str = "2", *, key: str = "bytes_per_param", label: str = "Bytes per parameter"
) -> Input:
    return Input(
        key,
        label,
        kind="choice",
        default=default,
        choices=(
            Choice("4", "4 (FP32)"),
            Choice("2", "2 (BF16 / FP16)"),
            Choice("1", "1 (FP8 / INT8)"),
            Choice("0.5625", "0.5625 (4-bit with block scales, 4.5 bits)"),
            Choice("0.5", "0.5 (4-bit)"),
        ),
    )


# What each filled field takes from a chip, given the precision picked.
_FIGURES: dict[str, Callable[[str, str], float | None]] = {
    "peak_tflops": lambda chip, precision: load_chips()[chip].peak(precision).value,
    "bandwidth_tbs": lambda chip, _: load_chips()[chip].bandwidth_tbs.value,
    "memory_gb": lambda chip, _: load_chips()[chip].memory_gb.value,
    "power_w": lambda chip, _: figure.value if (figure := load_chips()[chip].power_w) else None,
    "price_per_hour": lambda chip, _: figure.value if (figure := load_chips()[chip].price_per_hour) else None,
}
# Fields a chip may leave empty: the field keeps the reader's value (the calculator notes it), rather than an error.
_OPTIONAL = frozenset({"price_per_hour"})


def fill_from_chip(*keys: str) -> Callable[[dict[str, Value]], dict[str, Value]]:
    """A `resolve` step: unless the chip is "custom", put the chip's figures into `keys`."""

    def resolve(values: dict[str, Value]) -> dict[str, Value]:
        chip = text(values, "chip")
        if chip == CUSTOM:
            return values
        precision = text(values, "precision") if "precision" in values else "bf16"
        filled = dict(values)
        for key in keys:
            try:
                figure = _FIGURES[key](chip, precision)
            except KeyError:
                name, offered = load_chips()[chip].name, tuple(load_chips()[chip].peak_tflops)
                available = ", ".join(offered)
                if not available:
                    raise InputError(
                        "chip",
                        "a chip with a published dense peak, or custom",
                        chip,
                        f"{name} has no published dense peak: choose another chip, or Custom figures.",
                    ) from None
                raise InputError(
                    "precision",
                    f"a precision that {name} supports ({available})",
                    precision,
                    f"{name} has no published {PRECISION_LABELS[precision]} figure: choose "
                    + " or ".join(PRECISION_LABELS[key] for key in offered)
                    + ".",
                ) from None
            if figure is None and key in _OPTIONAL:
                continue
            if figure is None:
                what = key.split("_")[0]
                raise InputError(
                    "chip",
                    f"a chip with a published {what} figure, or custom",
                    chip,
                    f"{load_chips()[chip].name} has no published {what} figure: "
                    "choose another chip, or Custom figures.",
                )
            filled[key] = figure
        return filled

    return resolve
