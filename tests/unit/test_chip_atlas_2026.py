"""The chip atlas of 2026: NVIDIA's Blackwell Ultra under its two ratings, Rubin's naming, Huawei's Ascend,
Tenstorrent's Blackhole, and Qualcomm's cards that the database cannot hold. Each figure chapter 27 quotes or derives
is built here from the database, so a correction that the text does not follow fails here, with the phrase to write."""

from __future__ import annotations

import pytest

from calckit.api import run
from calculators.chip_lines import ChipDataError
from calculators.chip_schema import parse_database
from calculators.chips import get_chip, load_chips

from .page_text import assert_says

PAGE = "chapters/27-asics-and-accelerators.md"


def ridge(chip_id: str, precision: str) -> float:
    """The roofline calculator's ridge point for the chip at a precision, in FLOP/byte."""
    result = run("roofline", {"chip": chip_id, "precision": precision})
    return float(next(o["value"] for o in result["outputs"] if o["key"] == "ridge"))


class TestBlackwellUltraHasTwoRatings:
    def test_each_entry_takes_its_compute_from_one_system(self) -> None:
        """Issue 47: GB300's FP4 was stored beside HGX B300's BF16 and FP8. Now the HGX B300 entry cites NVIDIA's HGX
        table for every rate and the GB300 entry the GB300 NVL72 table, so no entry mixes two systems."""
        assert {f.source.id for f in get_chip("b300").peak_tflops.values()} == {"nvidia-hgx"}
        assert {f.source.id for f in get_chip("gb300").peak_tflops.values()} == {"nvidia-gb300-nvl72"}

    @pytest.mark.parametrize(
        ("chip_id", "precision", "system_pflops", "gpus", "sparse", "dense_tflops"),
        [
            # NVIDIA HGX page, per 8 GPUs: B300 FP4 105 PFLOPS dense; FP8 72 and BF16 36 with sparsity.
            ("b300", "fp4", 105, 8, False, 13_125),
            ("b300", "fp8", 72, 8, True, 4_500),
            ("b300", "bf16", 36, 8, True, 2_250),
            # HGX B200: FP4 72 PFLOPS dense per 8 GPUs.
            ("b200", "fp4", 72, 8, False, 9_000),
            # NVIDIA GB300 NVL72 page, per 72 GPUs: FP4 1,080 dense; FP8 720 and BF16 360 with sparsity.
            ("gb300", "fp4", 1_080, 72, False, 15_000),
            ("gb300", "fp8", 720, 72, True, 5_000),
            ("gb300", "bf16", 360, 72, True, 2_500),
        ],
    )
    def test_per_gpu_rates_are_the_systems_divided(
        self, chip_id: str, precision: str, system_pflops: float, gpus: int, sparse: bool, dense_tflops: float
    ) -> None:
        """A system's rate over its GPUs, halved where NVIDIA's figure counts 2:4 sparsity, is the stored dense peak."""
        per_gpu = system_pflops * 1000 / gpus / (2 if sparse else 1)
        assert per_gpu == dense_tflops == get_chip(chip_id).peak(precision).value

    def test_blackwell_ultra_sparse_fp4_is_not_twice_dense(self) -> None:
        """144 PFLOPS with sparsity against 105 dense per HGX B300 (1.37), 1,440 against 1,080 per GB300 NVL72 (1.33):
        neither is the 2x of 2:4 sparsity, so neither FP4 peak carries a sparse headline; the B200's does (144 / 72)."""
        assert 144 / 105 < 1.5 and 1_440 / 1_080 < 1.5
        assert not get_chip("b300").peak("fp4").headline_sparse
        assert not get_chip("gb300").peak("fp4").headline_sparse
        b200 = get_chip("b200").peak("fp4")
        assert b200.headline_sparse and b200.headline == 2 * b200.value == 18_000

    def test_the_chapter_quotes_each_systems_rates(self) -> None:
        """13,125 / 9,000 = 1.458 on HGX boards; NVIDIA's 1.5 is the GB300's 15 over a GB200's B200 at 10."""
        b300, gb300, b200 = get_chip("b300"), get_chip("gb300"), get_chip("b200")
        hgx = (b300.peak("fp4").value / 1000, b300.peak("fp8").value / 1000, b300.peak("bf16").value / 1000)
        gb = (gb300.peak("fp4").value / 1000, gb300.peak("fp8").value / 1000, gb300.peak("bf16").value / 1000)
        gain = b300.peak("fp4").value / b200.peak("fp4").value
        assert gb300.peak("fp4").value / (b200.other["fp4_blackwell_pflops"].value * 1000) == 1.5
        assert_says(
            PAGE,
            f"The HGX table gives each GPU {hgx[0]:.1f} PFLOPS of dense NVFP4, {hgx[1]:g} of FP8 "
            f"and {hgx[2]:g} of BF16",
            f"the GB300 NVL72 table, divided by 72, gives {gb[0]:g}, {gb[1]:g} and {gb[2]:g}",
            f"runs NVFP4 at {b200.peak('fp4').value / 1000:g} PFLOPS dense",
            f"Blackwell Ultra gains {hgx[0]:.1f} ÷ {b200.peak('fp4').value / 1000:g} ≈ {gain:.2f} times in FP4",
            f"{b300.peak('fp4').value * 144 / 105 / 1000:g} PFLOPS of FP4 per HGX B300 GPU and "
            f"{gb300.peak('fp4').value * 1440 / 1080 / 1000:g} per GB300",
        )


class TestRubin:
    def test_rubin_cites_nvidia_and_its_naming_is_explained(self) -> None:
        """Rubin's figures cite NVIDIA's own post, not a copy; 72 packages of two dies are the 144 of 'NVL144', and
        Rubin Ultra's 576 dies, four to a package, are 144 packages."""
        rubin = get_chip("rubin")
        assert {rubin.memory_gb.source.id, rubin.bandwidth_tbs.source.id, rubin.peak("fp4").source.id} == {
            "nvidia-rubin-blog"
        }
        assert "nvidia.com" in rubin.memory_gb.source.url
        assert 72 * 2 == 144 and 576 // 4 == 144
        assert_says(
            PAGE,
            f"each GPU has {rubin.memory_gb.value:g} GB of HBM4 at {rubin.bandwidth_tbs.value:g} TB/s",
            "the same rack, 72 packages and 144 dies, had become the Vera Rubin NVL72",
            "was shown as an NVL576 rack: 576 dies, 144 packages",
            "NVIDIA pulled it from 2026 to put the Groq 3 LPU beside Rubin",
        )
        assert "NVL144" in rubin.note and "Rubin CPX" in rubin.note and "Rubin Ultra" in rubin.note


class TestHuaweiAscend:
    def test_the_950s_share_a_die_and_differ_in_memory(self) -> None:
        """Huawei Connect 2025: both 1 PFLOPS FP8 and 2 MXFP4; 950PR 128 GB at 1.6 TB/s, 950DT 144 GB at 4 TB/s, so
        the ridge at FP8 is 1,000 / 1.6 = 625 and 1,000 / 4 = 250 FLOP/byte, as the roofline calculator computes."""
        pr, dt = get_chip("ascend-950pr"), get_chip("ascend-950dt")
        assert [pr.peak(p).value for p in ("fp8", "fp4")] == [dt.peak(p).value for p in ("fp8", "fp4")] == [1000, 2000]
        assert (pr.memory_gb.value, pr.bandwidth_tbs.value, dt.memory_gb.value, dt.bandwidth_tbs.value) == (
            128,
            1.6,
            144,
            4,
        )
        assert ridge("ascend-950pr", "fp8") == pytest.approx(625)
        assert ridge("ascend-950dt", "fp8") == pytest.approx(250)
        assert_says(
            PAGE,
            f"the 950PR's ridge point is 1,000 ÷ 1.6 = {ridge('ascend-950pr', 'fp8'):.0f} FLOP/byte",
            f"the 950DT's 1,000 ÷ 4 = {ridge('ascend-950dt', 'fp8'):.0f}",
        )

    def test_atlas_950_superpod_arithmetic(self) -> None:
        """8,192 x 1 PFLOPS = 8.2 EFLOPS (Huawei: 8); 8,192 x 144 GB = 1,179,648 GB, which is Huawei's 1,152 TB when
        a TB is counted as 1,024 GB."""
        dt = get_chip("ascend-950dt")
        assert 8_192 * dt.peak("fp8").value / 1e6 == pytest.approx(8.2, abs=0.01)
        assert 8_192 * dt.memory_gb.value / 1_024 == 1_152
        assert_says(PAGE, "8 EFLOPS of FP8 (8,192 × 1 PFLOPS ≈ 8.2) and 1,152 TB of memory (8,192 × 144 GB")

    def test_910c_against_gb300_and_the_domain_size(self) -> None:
        """752 / 2,500 = 0.30 of a GB300's dense BF16; 384 NPUs are 5.3 times an NVL72's 72 GPUs; 300 PFLOPS over 384
        chips is 781 TFLOPS each, within 4 % of the paper's 752."""
        c910, gb300 = get_chip("ascend-910c"), get_chip("gb300")
        share = c910.peak("bf16").value / gb300.peak("bf16").value
        assert f"{share:.0%}" == "30%" and 384 / 72 > 5
        per_chip = 300_000 / 384
        assert per_chip == pytest.approx(c910.peak("bf16").value, rel=0.04)
        assert_says(
            PAGE,
            f"{c910.memory_gb.value:g} GB of HBM at {c910.bandwidth_tbs.value:g} TB/s and "
            f"{c910.peak('bf16').value:g} TFLOPS of dense BF16",
            f"A 910C has about {share * 100:.0f} % of a GB300's BF16 rate",
        )


class TestTenstorrent:
    def test_blackhole_ridge_against_h100(self) -> None:
        """664 / 0.512 = 1,297 FLOP/byte against the H100's 1,978.9 / 3.35 = 591 at FP8: more than twice."""
        p150a = ridge("blackhole-p150a", "fp8")
        h100 = ridge("h100-sxm", "fp8")
        assert p150a == pytest.approx(1_297, abs=1) and h100 == pytest.approx(591, abs=1) and p150a > 2 * h100
        chip = get_chip("blackhole-p150a")
        assert_says(
            PAGE,
            f"The p150a card has {chip.memory_gb.value:g} GB at {chip.bandwidth_tbs.value * 1000:g} GB/s",
            f"664 ÷ 0.512 ≈ {round(p150a, -2):,.0f} FLOP/byte, is more than twice an H100's at FP8 "
            f"(1,979 ÷ 3.35 ≈ {round(h100, -1):.0f})",
        )

    def test_the_firmware_change_is_recorded(self) -> None:
        """Before February 2026 the p150a had 140 cores and 774 TFLOPS: 774 x 120 / 140 = 663.4, the 664 of today."""
        fp8 = get_chip("blackhole-p150a").peak("fp8")
        (before,) = fp8.alternatives
        assert before.value == 774 and fp8.value == 664
        assert before.value * 120 / 140 == pytest.approx(fp8.value, abs=1)

    def test_galaxy_is_32_chips(self) -> None:
        """The Galaxy server's 1 TB of GDDR6, 16 TB/s and 23 PFLOPS, over 32 chips."""
        galaxy = get_chip("blackhole-galaxy")
        assert 32 * galaxy.memory_gb.value == 1_024
        assert 32 * galaxy.bandwidth_tbs.value == 16
        assert 32 * galaxy.peak("fp8").value == 23_000


def test_qualcomm_is_described_but_not_stored() -> None:
    """Qualcomm published no bandwidth for the AI200 or AI250, and the schema refuses a chip without one: the chapter
    says so, and no Qualcomm chip is in the database."""
    assert not [chip for chip in load_chips().values() if chip.vendor == "Qualcomm"]
    text = """
[[source]]
id = "qualcomm"
title = "Qualcomm press release"
url = "https://www.qualcomm.com/"
date = "2025-10-27"

[[chip]]
id = "ai200"
name = "Qualcomm AI200"
vendor = "Qualcomm"
year = 2025
form_factor = "PCIe card"
memory_type = "LPDDR"
interconnect = "PCIe, Ethernet"
no_dense_peak = "none published"
memory_gb = { value = 768, source = "qualcomm" }
"""
    with pytest.raises(ChipDataError, match="field 'bandwidth_tbs': missing"):
        parse_database(text)
    # Qualcomm's 768 GB per card against the database's largest HBM parts: 768 / 288 = 2.67, 768 / 432 = 1.78.
    hbm3e, hbm4 = (get_chip(i).memory_gb.value for i in ("b300", "mi455x"))
    assert {get_chip(i).memory_gb.value for i in ("b300", "rubin", "mi355x")} == {hbm3e}
    assert_says(
        PAGE,
        "the chip database needs a bandwidth for every chip, so it does not hold them",
        f"768 GB of LPDDR per card, {768 / hbm3e:.1f} times the {hbm3e:g} GB of a B300, a Rubin or an MI355X and "
        f"{768 / hbm4:.1f} times the MI455X's {hbm4:g} GB",
    )
