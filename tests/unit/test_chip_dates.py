"""Dating the landscape: every source in the chip database has a date, and chip tables print the newest as "as of"."""

from __future__ import annotations

import re

from calckit.book import calculator as get
from calckit.table import Row, as_of
from calculators import CALCULATORS, TABLE
from calculators.chips import as_of as chips_as_of
from calculators.chips import get_chip, load_sources
from mkdocs_calculators.pages.tables import SourceLinks, data_table, source_numbers


def rows(*ids: str) -> list[Row]:
    return [TABLE.rows()[row_id] for row_id in ids]


ISO = re.compile(r"(?:checked )?\d{4}(?:-\d{2}){0,2}\b")


def test_every_source_has_a_date_a_reader_can_read() -> None:
    """A dated document gives its date; a living one, "checked YYYY-MM-DD", the day its figures were last checked."""
    undated = [source.id for source in load_sources().values() if not ISO.search(source.date)]
    assert undated == []


def test_as_of_is_the_newest_date_among_the_figures_sources() -> None:
    """TPU v4 and v5e figures come from Google's living pages and JAX's table, all checked on 2026-11-29."""
    assert as_of(rows("tpu-v4", "tpu-v5e"), load_sources()) == "2026-11-29"


def test_alternatives_count_too() -> None:
    """The B200's bandwidth has an alternative from a pull request dated 2026-03-05, newer than its datasheet (2024)."""
    (b200,) = rows("b200")
    alternative = b200.cells["bandwidth"].alternatives[0]
    assert load_sources()[alternative.source].date == "2026-03-05"
    assert as_of([b200], load_sources()) >= "2026-03-05"


def test_tables_say_as_of_in_their_caption() -> None:
    chips = rows("tpu-v4", "tpu-v5e")
    links = SourceLinks(source_numbers(TABLE))
    html = data_table(TABLE, chips, ("bf16",), links, label="TPUs", details=False, caption="TPUs.")
    assert "<caption>TPUs. Figures as of 2026-11-29.</caption>" in html
    bare = data_table(TABLE, chips, ("bf16",), links, label="TPUs", details=False)
    assert "<caption>Figures as of 2026-11-29.</caption>" in bare


def test_a_calculator_summary_dates_the_chip_it_used() -> None:
    """The H100 SXM's newest source is AWS's price page of late 2024 (its peaks and bandwidth are NVIDIA's of 2022);
    the TPU v5e's is Google's living page, checked 2026-11-29; typed figures carry no date."""
    assert get("roofline").run({"chip": "h100-sxm"}).summary.endswith(" NVIDIA H100 SXM figures as of 2024.")
    assert get("matmul").run({"chip": "tpu-v5e"}).summary.endswith(" Google TPU v5e figures as of 2026-11-29.")
    typed = get("roofline").run({"peak_tflops": 989.4, "bandwidth_tbs": 3.35}).summary
    assert "as of" not in typed


def test_every_calculator_that_fills_from_a_chip_dates_it() -> None:
    """Each of them, at its default chip, ends its summary with that chip's date from the database."""
    for calculator in CALCULATORS.values():
        if "chip" not in calculator.input_keys:
            continue
        chip = get_chip(str(calculator.defaults["chip"]))
        summary = calculator.run({}).summary
        assert summary.endswith(f" {chip.name} figures as of {chips_as_of([chip])}."), (calculator.name, summary)
