"""The chip database refuses what would mislead a reader, each at its line with what to write instead (issue 22,
item 7): a source dated in the future, a sparse figure stored as dense, a chip with no dense peak that does not say
why, an http:// source, a price without its class, and a misspelt field (with "did you mean")."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest

from calculators import CALCULATORS
from calculators.chips import ChipDataError, load_chips, parse_chips
from calculators.hardware import chip_choices
from tests.unit.test_chips import VALID

TODAY = datetime.date(2026, 12, 1)


def refusal(tmp_path: Path, old: str, new: str) -> str:
    """The one-line message for VALID with `old` replaced by `new`, read from a file as an author's edit is."""
    assert old in VALID, old
    path = tmp_path / "chips.toml"
    path.write_text(VALID.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(ChipDataError) as raised:
        parse_chips(path.read_text(encoding="utf-8"), origin="calculators/chips.toml", today=TODAY)
    message = str(raised.value)
    assert "\n" not in message
    return message


URL = 'url = "https://example.com/other.pdf"'


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        # A source dated after today: a table would print "Figures as of 2031-06-01".
        (
            URL,
            URL + '\ndate = "2031-06-01"',
            "calculators/chips.toml:11: source 'other-sheet', field 'date': 2031-06-01 is after today (2026-12-01): "
            "write the document's own date, or 'checked 2026-12-01' for a living page read today",
        ),
        # "checked" on a day not yet come.
        (
            URL,
            URL + '\ndate = "checked 2026-12-02"',
            "calculators/chips.toml:11: source 'other-sheet', field 'date': 2026-12-02 is after today (2026-12-01)",
        ),
        # A year alone that has not begun.
        (URL, URL + '\ndate = "2027"', "calculators/chips.toml:11: source 'other-sheet', field 'date': 2027 is after"),
        # An http:// address, with the https:// one to write instead.
        (
            URL,
            'url = "http://example.com/other.pdf"',
            "calculators/chips.toml:10: source 'other-sheet', field 'url': an http:// address "
            "('http://example.com/other.pdf'): write the https:// address of the same document "
            "('https://example.com/other.pdf'), as every page of the book is served over https",
        ),
        # The sparse headline stored as the dense value.
        (
            "{ value = 989, source",
            "{ value = 1979, source",
            "calculators/chips.toml:23: chip 'test-chip', field 'peak_tflops.bf16': 'headline_sparse' = true, yet "
            "'value' is the sparse headline (1979): store the dense figure as 'value' (with 2:4 sparsity, half the "
            "headline: 989.5)",
        ),
        # A misspelt chip field.
        (
            "power_w = {",
            "pwer_w = {",
            "calculators/chips.toml:22: chip 'test-chip', field 'pwer_w': unknown field 'pwer_w': did you mean "
            "'power_w'? (known: bandwidth_tbs, form_factor, id, interconnect, memory_gb, memory_type, name, "
            "no_dense_peak, note, other, peak_tflops, power_w, price_per_hour, sram_mb, vendor, year)",
        ),
        # A misspelt key inside a figure.
        (
            '{ value = 80, source = "vendor-sheet" }',
            '{ value = 80, sorce = "vendor-sheet" }',
            "calculators/chips.toml:20: chip 'test-chip', field 'memory_gb': unknown field 'sorce': did you mean "
            "'source'?",
        ),
        # A misspelt precision.
        (
            "peak_tflops.fp32",
            "peak_tflops.fp23",
            "calculators/chips.toml:24: chip 'test-chip', field 'peak_tflops.fp23': unknown precision 'fp23': did "
            "you mean 'fp32'? (known: bf16, fp32, fp4, fp8, int8)",
        ),
        # A misspelt source field.
        (
            'title = "Another data sheet"',
            'titel = "Another data sheet"',
            "calculators/chips.toml:9: source 'other-sheet', field 'titel': unknown field 'titel': did you mean "
            "'title'? (known: date, id, note, title, url)",
        ),
        # A name near nothing gets the list alone.
        (
            'vendor = "Vendor"',
            'vendor = "Vendor"\nzzz = 1',
            "calculators/chips.toml:16: chip 'test-chip', field 'zzz': unknown field 'zzz' (known: bandwidth_tbs,",
        ),
        # A chip without any dense peak that does not say why.
        (
            'peak_tflops.bf16 = { value = 989, source = "vendor-sheet", headline_sparse = true, headline = 1979 }\n'
            'peak_tflops.fp32 = { value = 67, source = "vendor-sheet" }\n',
            "",
            "calculators/chips.toml:12: chip 'test-chip', field 'peak_tflops': no dense peak: add one, such as "
            'peak_tflops.bf16 = { value = ..., source = "..." }, or, where the vendor publishes none, say why in '
            'no_dense_peak = "..." (calculators that need a peak then leave the chip out of their pickers)',
        ),
        # A reason beside a peak contradicts it.
        (
            'vendor = "Vendor"',
            'vendor = "Vendor"\nno_dense_peak = "none published"',
            "calculators/chips.toml:16: chip 'test-chip', field 'no_dense_peak': the chip has a dense peak: remove "
            "no_dense_peak, or the peak",
        ),
        # A price without its class.
        (
            'note = "TDP" }\n',
            'note = "TDP" }\nprice_per_hour = { value = 2.5, source = "other-sheet" }\n',
            "calculators/chips.toml:23: chip 'test-chip', field 'price_per_hour': a price names its class: "
            "price_class = one of 'on-demand', 'reserved', 'spot', 'capacity block' (it has none)",
        ),
        # A class that is not one.
        (
            'note = "TDP" }\n',
            'note = "TDP" }\nprice_per_hour = { value = 2.5, source = "other-sheet", price_class = "list" }\n',
            "calculators/chips.toml:23: chip 'test-chip', field 'price_per_hour': a price names its class: "
            "price_class = one of 'on-demand', 'reserved', 'spot', 'capacity block' (got 'list')",
        ),
        # A class on a figure that is not a price.
        (
            'note = "TDP" }',
            'note = "TDP", price_class = "spot" }',
            "calculators/chips.toml:22: chip 'test-chip', field 'power_w': 'price_class' belongs to price_per_hour "
            "only",
        ),
    ],
)
def test_refused_at_its_line_with_what_to_write(tmp_path: Path, old: str, new: str, message: str) -> None:
    assert refusal(tmp_path, old, new).startswith(message)


def test_dates_up_to_today_are_accepted(tmp_path: Path) -> None:
    """Today, this month, this year and the past all pass; so does a past date in a longer text."""
    for date in ("checked 2026-12-01", "2026-12", "2026", "late 2024 (rates in force until 2025-01-01)"):
        path = tmp_path / "chips.toml"
        path.write_text(VALID.replace(URL, f'{URL}\ndate = "{date}"'), encoding="utf-8")
        assert "test-chip" in parse_chips(path.read_text(encoding="utf-8"), today=TODAY)


def test_the_books_database_passes_its_own_checks_today() -> None:
    """Every source of the shipped file is dated no later than the day these tests run, and none is http://."""
    chips = load_chips()
    assert all(chip.peak_tflops or chip.no_dense_peak for chip in chips.values())
    assert not [f.source.id for chip in chips.values() for f in chip.figures() if f.source.url.startswith("http:")]


def test_chips_without_a_dense_peak_are_left_out_of_compute_pickers() -> None:
    """Cerebras's wafer and Apple's SoCs publish no dense peak: a calculator that needs one does not offer them;
    the inference calculator, which works from memory and bandwidth alone for such a chip, does."""
    without = {chip.id for chip in load_chips().values() if not chip.peak_tflops}
    assert {"cerebras-wse-3", "apple-m3-ultra", "apple-m4-max", "apple-m5", "mi455x"} <= without
    offered = {choice.value for choice in chip_choices(needs_peak=True)}
    assert not without & offered
    assert "h100-sxm" in offered
    for name in ("roofline", "matmul", "serving", "mbu", "training", "allreduce"):
        assert not without & picker(name), name
    assert without <= picker("inference")


def picker(calculator: str) -> set[str]:
    """The chip ids a calculator's chip picker offers."""
    (chip,) = (field for field in CALCULATORS[calculator].inputs if field.key == "chip")
    return {choice.value for choice in chip.choices}


def test_a_readers_wrong_clock_does_not_stop_the_database(tmp_path: Path) -> None:
    """In the browser the build-checked file is loaded without the date check: a reader whose clock says 2025 still
    gets every chip, while the build, which checks, refuses the same date for an author."""
    text = VALID.replace(URL, f'{URL}\ndate = "checked 2026-11-29"')
    before = datetime.date(2025, 1, 1)
    assert "test-chip" in parse_chips(text, today=before, check_dates=False)
    with pytest.raises(ChipDataError, match="2026-11-29 is after today"):
        parse_chips(text, today=before)
