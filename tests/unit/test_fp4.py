"""FP4 (NVFP4 / MXFP4) as a precision: the database's dense FP4 peaks, and the calculators that pick a precision
use them, while a chip without FP4 says so."""

from __future__ import annotations

import pytest

from calckit.api import run
from calculators.chips import get_chip, load_chips
from calculators.hardware import BYTES_PER_VALUE, fill_from_chip


@pytest.mark.parametrize(
    ("chip_id", "dense", "format_"),
    [
        # NVIDIA's HGX page: 105 PFLOPS dense NVFP4 per 8-GPU HGX B300; its GB300 NVL72 page: 1,080 per 72 GPUs,
        # the '15 PFLOPS dense NVFP4' of NVIDIA's Blackwell Ultra post; HGX B200: 72 per 8 GPUs.
        ("b300", 13_125, "NVFP4"),
        ("gb300", 15_000, "NVFP4"),
        ("b200", 9_000, "NVFP4"),
        # Huawei Connect 2025: Ascend 950PR and 950DT, 2 PFLOPS MXFP4.
        ("ascend-950pr", 2_000, "MXFP4"),
        ("ascend-950dt", 2_000, "MXFP4"),
        # AWS Neuron, Trainium3 Architecture (2025-12-02): '2,517 MXFP8/MXFP4 TFLOPS', dense.
        ("trainium3", 2_517, "MXFP4"),
        # Tom's Hardware (2025-06): MI355X 'maximum FP4/FP6' 20.1 PFLOPS, with sparsity; dense is half.
        ("mi355x", 10_050, "MXFP4"),
        # Meta's MTIA table as Tom's Hardware reproduced it (2026-03-12): MX4 12, 21 and 30 PFLOPS.
        ("mtia-400", 12_000, "MX4"),
        ("mtia-450", 21_000, "MX4"),
        ("mtia-500", 30_000, "MX4"),
        # Microsoft's Maia 200 announcement (2026-01-26): 'more than 10 petaFLOPS' FP4.
        ("maia-200", 10_000, "FP4"),
        # NVIDIA's Rubin post and CES 2026 announcement: 2.5 EFLOPS NVFP4 training / 72 GPUs = 34.7 PFLOPS.
        ("rubin", 34_700, "NVFP4"),
    ],
)
def test_dense_fp4_peaks(chip_id: str, dense: float, format_: str) -> None:
    figure = get_chip(chip_id).peak("fp4")
    assert figure.value == dense
    assert format_ in figure.note
    assert figure.unit == "TFLOP/s"


def test_fp4_peaks_are_dense_and_never_below_fp8() -> None:
    """Where a vendor's FP4 headline counts sparsity, the dense half is stored; FP4 is never slower than FP8."""
    mi355x = get_chip("mi355x").peak("fp4")
    assert mi355x.headline_sparse and mi355x.headline == 2 * mi355x.value
    # Rubin's headline (50 PFLOPS NVFP4 inference) is NVIDIA's, not 2:4 sparsity: kept as a headline, not a flag.
    rubin = get_chip("rubin").peak("fp4")
    assert (rubin.headline, rubin.headline_sparse) == (50_000, False)
    for chip in load_chips().values():
        if "fp4" in chip.peak_tflops and "fp8" in chip.peak_tflops:
            assert chip.peak("fp8").value <= chip.peak("fp4").value, chip.id


def test_rubin_rack_arithmetic() -> None:
    """2.5 EFLOPS / 72 = 34,722 TFLOP/s, stored rounded to 34,700; 72 x 288 GB = 20.7 TB, as NVIDIA gives it."""
    rubin = get_chip("rubin")
    assert rubin.peak("fp4").value == pytest.approx(2.5e6 / 72, rel=0.001)
    assert 72 * rubin.memory_gb.value == pytest.approx(20_700, rel=0.002)


def test_fp4_counts_its_block_scales() -> None:
    """NVFP4: 4 bits a value plus one 8-bit scale per 16 values = 4.5 bits = 0.5625 bytes."""
    assert BYTES_PER_VALUE["fp4"] == pytest.approx((4 + 8 / 16) / 8)


def test_roofline_at_fp4() -> None:
    """GB300 at FP4: ridge 15,000 TFLOP/s / 8 TB/s = 1,875 FLOP/byte. Prefill of 256 tokens reads each weight once at
    0.5625 bytes and does 2 FLOPs per weight per token: 512 / 0.5625 = 910 FLOP/byte, memory-bound, so it attains
    910 x 8 TB/s = 7.28 PFLOP/s."""
    result = run("roofline", {"chip": "gb300", "precision": "fp4", "workload": "prefill", "tokens": 256})
    values = {output["key"]: output["value"] for output in result["outputs"]}
    assert values["ridge"] == pytest.approx(1875)
    assert values["workload_intensity"] == pytest.approx(512 / 0.5625)
    assert values["bound"] == "Memory-bound"
    assert values["attainable"] == pytest.approx(512 / 0.5625 * 8e12)


def test_a_chip_without_fp4_says_so() -> None:
    result = run("roofline", {"chip": "h100-sxm", "precision": "fp4"})
    (error,) = result["errors"]
    assert error["field"] == "precision"
    assert error["hint"] == "NVIDIA H100 SXM has no published FP4 figure: choose FP32 or BF16/FP16 or FP8 or INT8."


def test_comparison_at_fp4() -> None:
    """Trainium3: 2,517 / 4.9 = 514 FLOP/byte; MI355X: 10,050 TFLOP/s over 1,400 W = 7.18 TFLOP/s per W."""
    result = run("compare", {"chips": "b300,mi355x,h100-sxm,trainium3", "precision": "fp4"})
    rows = {row[0]: dict(zip(result["table"]["columns"], row, strict=True)) for row in result["table"]["rows"]}
    assert rows["NVIDIA H100 SXM"]["Peak compute"] == "— (no FP4)"
    assert rows["AWS Trainium3"]["Ridge point"] == "514 FLOP/byte"
    assert rows["AMD Instinct MI355X"]["Compute per watt"] == "7.18 TFLOP/s per W"
    assert result["outputs"][0]["text"] == "NVIDIA B300 (Blackwell Ultra)"
    assert "the most FP4 compute" in result["summary"]


def test_serving_and_matmul_fill_the_fp4_peak() -> None:
    """The chip picker's resolve step fills the FP4 peak for the serving and matmul calculators alike."""
    filled = fill_from_chip("peak_tflops", "bandwidth_tbs")({"chip": "mtia-400", "precision": "fp4"})
    assert (filled["peak_tflops"], filled["bandwidth_tbs"]) == (12_000, 9.2)
    for name in ("serving", "matmul"):
        assert not run(name, {"chip": "mtia-400", "precision": "fp4"}).get("errors"), name
