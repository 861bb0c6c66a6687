"""The figures chapter 27 and lesson 102 quote for the chips of 2026 are the chip database's: each quoted phrase is in
the page, and the number in it is the database's value, so a correction to the database that the text does not follow
fails here."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from calculators.chips import Chip, get_chip

DOCS = Path(__file__).resolve().parents[2] / "docs"
CHAPTER = "chapters/27-asics-and-accelerators.md"
LESSON = "lessons/102-ai-accelerators.md"


def text(page: str) -> str:
    """The page with its line breaks and indentation folded into single spaces, as a reader reads it."""
    return re.sub(r"\s+", " ", (DOCS / page).read_text(encoding="utf-8"))


def memory(chip: Chip) -> float:
    return chip.memory_gb.value


def bandwidth(chip: Chip) -> float:
    return chip.bandwidth_tbs.value


def bandwidth_gbs(chip: Chip) -> float:
    """Bandwidth as a page writes it for a laptop chip: GB/s."""
    return chip.bandwidth_tbs.value * 1000


def peak(precision: str, scale: float = 1.0) -> Callable[[Chip], float]:
    return lambda chip: chip.peak(precision).value / scale


def other(key: str) -> Callable[[Chip], float]:
    return lambda chip: chip.other[key].value


def neuronlink_alternative(chip: Chip) -> float:
    (alternative,) = chip.other["neuronlink_tbs"].alternatives
    return round(alternative.value, 1)


def sram(chip: Chip) -> float:
    assert chip.sram_mb is not None
    return chip.sram_mb.value


def power(chip: Chip) -> float:
    assert chip.power_w is not None
    return chip.power_w.value


@pytest.mark.parametrize(
    ("page", "quote", "number", "chip_id", "figure"),
    [
        (CHAPTER, "each GPU has 288 GB of HBM4", 288, "rubin", memory),
        (CHAPTER, "about 500 MB of SRAM at 150 TB/s per chip", 500, "groq-3-lpu", sram),
        (CHAPTER, "about 500 MB of SRAM at 150 TB/s per chip", 150, "groq-3-lpu", bandwidth),
        (CHAPTER, "2.5 EFLOPS ÷ 72 ≈ 34.7 PFLOPS per GPU", 34.7, "rubin", peak("fp4", 1000)),
        (CHAPTER, "The MI455X has 432 GB of HBM4 at 19.6 TB/s", 432, "mi455x", memory),
        (CHAPTER, "The MI455X has 432 GB of HBM4 at 19.6 TB/s", 19.6, "mi455x", bandwidth),
        (CHAPTER, "about 40 PFLOPS of FP4 and 20 of FP8", 40, "mi455x", other("fp4_pflops")),
        (CHAPTER, "about 40 PFLOPS of FP4 and 20 of FP8", 20, "mi455x", other("fp8_pflops")),
        (CHAPTER, "216 GB of HBM3e at 7 TB/s, 272 MB of on-chip SRAM", 216, "maia-200", memory),
        (CHAPTER, "216 GB of HBM3e at 7 TB/s, 272 MB of on-chip SRAM", 7, "maia-200", bandwidth),
        (CHAPTER, "216 GB of HBM3e at 7 TB/s, 272 MB of on-chip SRAM", 272, "maia-200", sram),
        (CHAPTER, "more than 10 PFLOPS of FP4 and 5 of FP8 within 750 W", 10, "maia-200", peak("fp4", 1000)),
        (CHAPTER, "more than 10 PFLOPS of FP4 and 5 of FP8 within 750 W", 5, "maia-200", peak("fp8", 1000)),
        (CHAPTER, "more than 10 PFLOPS of FP4 and 5 of FP8 within 750 W", 750, "maia-200", power),
        (CHAPTER, "from 9.2 to 27.6 TB/s", 9.2, "mtia-400", bandwidth),
        (CHAPTER, "from 9.2 to 27.6 TB/s", 27.6, "mtia-500", bandwidth),
        (CHAPTER, "raises unified memory bandwidth to 153 GB/s, with up to 32 GB", 153, "apple-m5", bandwidth_gbs),
        (CHAPTER, "raises unified memory bandwidth to 153 GB/s, with up to 32 GB", 32, "apple-m5", memory),
        (CHAPTER, "its MXFP4 rate equals its MXFP8 rate", 2517, "trainium3", peak("fp4")),
        (CHAPTER, "2.56 TB/s per chip on AWS's Trainium3 page", 2.56, "trainium3", other("neuronlink_tbs")),
        (CHAPTER, "gives 2,048 GiB/s (2.2 TB/s) per chip", 2.2, "trainium3", neuronlink_alternative),
        (
            LESSON,
            "MTIA 300 in production for ranking and recommendation training with 216 GB of HBM",
            216,
            "mtia-300",
            memory,
        ),
    ],
)
def test_quoted_figure_is_the_databases(
    page: str, quote: str, number: float, chip_id: str, figure: Callable[[Chip], float]
) -> None:
    assert quote in text(page), (page, quote)
    value = figure(get_chip(chip_id))
    assert value == pytest.approx(number, rel=0.002), (chip_id, quote)


def test_trainium3_fp4_equals_fp8() -> None:
    """The chapter says Trainium3's MXFP4 rate equals its MXFP8 rate: so does the database."""
    chip = get_chip("trainium3")
    assert chip.peak("fp4").value == chip.peak("fp8").value


def test_mtia_bandwidth_triples_from_400_to_500() -> None:
    """'from MTIA 400 to 500 the bandwidth triples': 27.6 / 9.2 = 3.0."""
    assert get_chip("mtia-500").bandwidth_tbs.value / get_chip("mtia-400").bandwidth_tbs.value == pytest.approx(3.0)


def test_the_mtia_correction_is_made() -> None:
    """Lesson 102 no longer says that MTIA does not train, and the chapter says MTIA 300 does."""
    lesson = text(LESSON)
    assert "serves them but does not train them" not in lesson
    assert "MTIA 300 trains ranking models" in lesson
    assert "MTIA 300 trains Meta's ranking and recommendation models" in text(CHAPTER)
    assert "HBM" in get_chip("mtia-300").memory_type


def test_trn3_ultraserver_arithmetic() -> None:
    """AWS's Trn3 table: 161,088 MXFP8 TFLOPS over 64 chips and 362,448 over 144 are both 2,517 per chip, the
    Trainium3 page's figure; 2,048 GiB/s = 2,048 x 1.073741824 GB/s = 2.199 TB/s."""
    assert 161_088 / 64 == 362_448 / 144 == get_chip("trainium3").peak("fp8").value
    (alternative,) = get_chip("trainium3").other["neuronlink_tbs"].alternatives
    assert alternative.value == pytest.approx(2048 * 2**30 / 1e12, abs=5e-4)


def test_groq_3_against_the_first_lpu() -> None:
    """'twice the first LPU's capacity and almost twice its bandwidth': 500 / 230 = 2.17, 150 / 80 = 1.88; an LPX
    rack's 256 LPUs hold 256 x 0.5 GB = 128 GB, as reported."""
    first, third = get_chip("groq-lpu"), get_chip("groq-3-lpu")
    assert 2 <= third.memory_gb.value / first.memory_gb.value < 2.25
    assert 1.75 <= third.bandwidth_tbs.value / first.bandwidth_tbs.value < 2
    assert 256 * third.memory_gb.value == pytest.approx(128)


def test_the_fp4_comparison_orders_decode_as_bandwidth() -> None:
    """Chapter 27's FP4 comparison says batch-1 decode follows bandwidth: with every chip holding the 39.4 GB of
    weights (70 B x 0.5625 bytes), each rate is bandwidth / 39.4 GB, so the two orders agree."""
    from calckit.api import run

    page = text(CHAPTER)
    ids = ("b300", "gb300", "rubin", "mi355x", "maia-200", "mtia-400", "trainium3", "ascend-950dt")
    assert f"id: compare-2026-fp4 chips: [{', '.join(ids)}] precision: fp4" in page
    result = run(
        "compare",
        {
            "chips": ",".join(ids),
            "precision": "fp4",
            "params_b": 70,
            "bytes_per_param": "0.5625",
        },
    )
    chips = [get_chip(i) for i in ids]
    assert all(chip.memory_gb.value >= 70 * 0.5625 for chip in chips)
    rates = [float(row[-1].split()[0].replace(",", "")) for row in result["table"]["rows"]]
    expected = [chip.bandwidth_tbs.value * 1e12 / (70e9 * 0.5625) for chip in chips]
    assert rates == pytest.approx(expected, rel=0.005)
