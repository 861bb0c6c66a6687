"""The chip database: its schema, its figures against their sources, and the loader's error messages."""

from __future__ import annotations

import re
import tomllib
from importlib import resources
from pathlib import Path

import pytest

from calculators.chips import (
    PRECISION_LABELS,
    PRECISION_UNITS,
    PRECISIONS,
    Chip,
    ChipDataError,
    Figure,
    get_chip,
    load_chips,
    load_sources,
    parse_chips,
    parse_database,
)

CHIPS = load_chips()
SOURCES = load_sources()
RAW = tomllib.loads(resources.files("calculators").joinpath("chips.toml").read_text(encoding="utf-8"))

REQUIRED_IDS = (
    "a100-80gb-sxm",
    "h100-sxm",
    "h100-pcie",
    "h200-sxm",
    "b200",
    "mi250x",
    "mi300x",
    "mi325x",
    "mi355x",
    "tpu-v4",
    "tpu-v5e",
    "tpu-v5p",
    "tpu-v6e",
    "tpu-7x",
    "gaudi-2",
    "gaudi-3",
    "trainium2",
    "inferentia2",
    "groq-lpu",
    "cerebras-wse-3",
    "apple-m3-ultra",
    "apple-m4-max",
)


def figures(chip: Chip) -> list[tuple[str, Figure]]:
    """Every figure of a chip with its field name, alternatives included."""
    named: list[tuple[str, Figure | None]] = [
        ("memory_gb", chip.memory_gb),
        ("bandwidth_tbs", chip.bandwidth_tbs),
        ("power_w", chip.power_w),
        ("sram_mb", chip.sram_mb),
        ("price_per_hour", chip.price_per_hour),
        *((f"peak_tflops.{p}", f) for p, f in chip.peak_tflops.items()),
        *((f"other.{k}", f) for k, f in chip.other.items()),
    ]
    found: list[tuple[str, Figure]] = []
    for name, figure in named:
        if figure is not None:
            found.append((name, figure))
            found.extend((f"{name}.alternatives", alternative) for alternative in figure.alternatives)
    return found


ALL_FIGURES = [(chip.id, name, figure) for chip in CHIPS.values() for name, figure in figures(chip)]


class TestSchema:
    def test_every_required_chip_is_present(self) -> None:
        """The 22 accelerators the course compares are all in the database."""
        missing = [chip_id for chip_id in REQUIRED_IDS if chip_id not in CHIPS]
        assert not missing

    def test_chips_come_in_file_order(self) -> None:
        """load_chips keeps the order of the file, which groups chips by vendor."""
        assert list(CHIPS) == [raw["id"] for raw in RAW["chip"]]

    @pytest.mark.parametrize("chip", CHIPS.values(), ids=list(CHIPS))
    def test_fields_have_their_types(self, chip: Chip) -> None:
        """Text fields are non-empty text, the year an integer, figures are Figures."""
        for text in (chip.id, chip.name, chip.vendor, chip.form_factor, chip.memory_type, chip.interconnect):
            assert isinstance(text, str)
            assert text.strip()
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", chip.id)
        assert isinstance(chip.year, int)
        assert not isinstance(chip.year, bool)
        assert isinstance(chip.memory_gb, Figure)
        assert isinstance(chip.bandwidth_tbs, Figure)
        assert chip.power_w is None or isinstance(chip.power_w, Figure)
        assert chip.sram_mb is None or isinstance(chip.sram_mb, Figure)
        assert set(chip.peak_tflops) <= set(PRECISIONS)

    @pytest.mark.parametrize("chip", CHIPS.values(), ids=list(CHIPS))
    def test_units_follow_the_field(self, chip: Chip) -> None:
        """GB, TB/s, W and MB by field; TFLOP/s for floating-point peaks, TOP/s for INT8."""
        assert chip.memory_gb.unit == "GB"
        assert chip.bandwidth_tbs.unit == "TB/s"
        assert chip.power_w is None or chip.power_w.unit == "W"
        assert chip.sram_mb is None or chip.sram_mb.unit == "MB"
        for precision, figure in chip.peak_tflops.items():
            assert figure.unit == PRECISION_UNITS[precision]
        assert PRECISION_UNITS["int8"] == "TOP/s"
        for figure in chip.other.values():
            assert figure.unit

    def test_every_precision_has_a_label(self) -> None:
        """Each precision has the label readers see."""
        assert PRECISIONS == ("fp32", "bf16", "fp8", "fp4", "int8")
        assert PRECISION_LABELS == {"fp32": "FP32", "bf16": "BF16/FP16", "fp8": "FP8", "fp4": "FP4", "int8": "INT8"}
        assert PRECISION_UNITS["fp4"] == "TFLOP/s"

    def test_peaks_are_ordered_by_precision(self) -> None:
        """A chip's peaks come in PRECISIONS order, whatever the order in the file."""
        for chip in CHIPS.values():
            assert tuple(chip.peak_tflops) == chip.precisions


class TestPlausibleRanges:
    @pytest.mark.parametrize("chip", CHIPS.values(), ids=list(CHIPS))
    def test_memory_and_bandwidth(self, chip: Chip) -> None:
        """Memory 0.1 GB (Groq's 230 MB of SRAM) to 100 TB; bandwidth 0.05 to 100,000 TB/s (Cerebras: 21,000)."""
        assert 0.1 <= chip.memory_gb.value <= 100_000
        assert 0.05 <= chip.bandwidth_tbs.value <= 100_000

    @pytest.mark.parametrize("chip", CHIPS.values(), ids=list(CHIPS))
    def test_peaks_power_sram_year(self, chip: Chip) -> None:
        """Peaks 1 to 10^6 TFLOP/s, power 5 to 30,000 W, SRAM 1 MB to 100 GB, years 2015 to 2026."""
        for figure in chip.peak_tflops.values():
            assert 1 <= figure.value <= 1e6
        if chip.power_w is not None:
            assert 5 <= chip.power_w.value <= 30_000
        if chip.sram_mb is not None:
            assert 1 <= chip.sram_mb.value <= 100_000
        assert 2015 <= chip.year <= 2026

    @pytest.mark.parametrize("chip", CHIPS.values(), ids=list(CHIPS))
    def test_lower_precision_is_never_slower(self, chip: Chip) -> None:
        """FP32 <= BF16 <= FP8 <= FP4 and BF16 <= INT8 wherever both are given: a smaller format never runs slower."""
        peaks = {p: f.value for p, f in chip.peak_tflops.items()}
        for low, high in (("fp32", "bf16"), ("bf16", "fp8"), ("fp8", "fp4"), ("bf16", "int8")):
            if low in peaks and high in peaks:
                assert peaks[low] <= peaks[high]

    @pytest.mark.parametrize(("chip_id", "name", "figure"), ALL_FIGURES)
    def test_alternatives_stay_close(self, chip_id: str, name: str, figure: Figure) -> None:
        """An alternative differs from its primary figure by less than 25 %: the same quantity, another reading."""
        if not name.endswith(".alternatives"):
            primary = figure
            for alternative in primary.alternatives:
                assert 0.75 <= alternative.value / primary.value <= 1.25, (chip_id, name)


class TestSources:
    @pytest.mark.parametrize(("chip_id", "name", "figure"), ALL_FIGURES)
    def test_every_figure_has_a_source_with_an_address(self, chip_id: str, name: str, figure: Figure) -> None:
        """Every figure and every alternative cites a known source with a title and an http(s) URL."""
        assert figure.source.id in SOURCES, (chip_id, name)
        assert figure.source.title.strip()
        assert re.fullmatch(r"https?://\S+", figure.source.url), (chip_id, name)

    def test_ids_are_unique_in_the_file(self) -> None:
        """No chip id and no source id appears twice in the file itself."""
        chip_ids = [raw["id"] for raw in RAW["chip"]]
        source_ids = [raw["id"] for raw in RAW["source"]]
        assert len(chip_ids) == len(set(chip_ids))
        assert len(source_ids) == len(set(source_ids))

    def test_every_source_is_cited(self) -> None:
        """Each [[source]] is cited by at least one figure or alternative."""
        cited = {figure.source.id for _, _, figure in ALL_FIGURES}
        assert set(SOURCES) - cited == set()


class TestDenseNotSparse:
    @pytest.mark.parametrize(("chip_id", "name", "figure"), ALL_FIGURES)
    def test_dense_value_never_exceeds_the_headline(self, chip_id: str, name: str, figure: Figure) -> None:
        """Where a vendor headline is recorded it is at least the stored (dense) figure."""
        if figure.headline is not None:
            assert figure.value <= figure.headline, (chip_id, name)

    @pytest.mark.parametrize(("chip_id", "name", "figure"), [f for f in ALL_FIGURES if f[2].headline_sparse])
    def test_sparse_headlines_are_halved(self, chip_id: str, name: str, figure: Figure) -> None:
        """A 2:4-sparse headline is twice the dense peak (NVIDIA): the stored value is the half, not the headline."""
        assert figure.headline is not None
        assert figure.headline / figure.value == pytest.approx(2, rel=0.01), (chip_id, name)

    def test_headline_sparse_is_set_on_nvidia_hopper_and_blackwell(self) -> None:
        """NVIDIA's H100, H200 and B200 datasheets headline sparse tensor figures: each is marked."""
        for chip_id in ("h100-sxm", "h100-pcie", "h200-sxm", "b200"):
            for precision in ("bf16", "fp8", "int8"):
                assert get_chip(chip_id).peak(precision).headline_sparse

    @pytest.mark.parametrize(
        ("chip_id", "dense", "sparse"),
        [
            # NVIDIA H100 datasheet: 1,979 TFLOPS BF16 "with sparsity"; Hopper whitepaper: 989.4 dense.
            ("h100-sxm", 989, 1979),
            # NVIDIA H100 datasheet, PCIe: 1,513 with sparsity.
            ("h100-pcie", 756, 1513),
            # AMD ROCm MI300X table: matrix BF16 1,307.4 (AMD lists 2,614.9 with structured sparsity).
            ("mi300x", 1307, 2615),
            # NVIDIA HGX B200: 4.5 PFLOPS BF16 with sparsity, 2.25 dense.
            ("b200", 2250, 4500),
        ],
    )
    def test_no_sparse_figure_smuggled_in(self, chip_id: str, dense: float, sparse: float) -> None:
        """The stored BF16 peak is the dense one, about half the sparse headline."""
        value = get_chip(chip_id).peak("bf16").value
        assert value == pytest.approx(dense, rel=0.005)
        assert value < 0.75 * sparse

    def test_a_sparse_only_headline_is_not_a_peak(self) -> None:
        """Cerebras publishes only a 125 PFLOPS 'peak AI' figure that counts sparsity: kept apart, not a peak."""
        wse3 = get_chip("cerebras-wse-3")
        assert wse3.peak_tflops == {}
        assert wse3.other["ai_peak_pflops"].value == 125
        assert wse3.other["ai_peak_pflops"].unit == "PFLOP/s"

    def test_neural_engine_tops_is_kept_apart(self) -> None:
        """Apple's Neural Engine TOPS is a different unit from GPU FLOP/s: it is not a peak."""
        m4 = get_chip("apple-m4-max")
        assert "int8" not in m4.peak_tflops
        assert m4.other["neural_engine_tops"].unit == "TOP/s"


class TestKnownValues:
    @pytest.mark.parametrize(
        ("chip_id", "peak", "bandwidth", "ridge"),
        [
            # NVIDIA H100 datasheet / Hopper whitepaper: 989 TFLOP/s dense BF16, 3.35 TB/s HBM3 -> 295 FLOP/byte.
            ("h100-sxm", 989.4, 3.35, 295.3),
            # Google Cloud TPU v5e documentation: 197 TFLOP/s BF16, 819 GBps HBM2 -> 240.5 FLOP/byte.
            ("tpu-v5e", 197, 0.819, 240.5),
            # NVIDIA A100 datasheet: 312 TFLOP/s BF16, 2,039 GB/s HBM2e (80 GB SXM) -> 153 FLOP/byte.
            ("a100-80gb-sxm", 312, 2.039, 153.0),
            # AMD ROCm MI300X table: 1,307.4 TFLOP/s BF16, 5.3 TB/s -> 246.7 FLOP/byte.
            ("mi300x", 1307.4, 5.3, 246.7),
            # Google Cloud TPU7x documentation: 2,307 TFLOP/s BF16, 7,380 GBps -> 312.6 FLOP/byte.
            ("tpu-7x", 2307, 7.38, 312.6),
        ],
    )
    def test_ridge_points(self, chip_id: str, peak: float, bandwidth: float, ridge: float) -> None:
        """BF16 peak and bandwidth as published, and their ratio, the roofline's ridge point."""
        chip = get_chip(chip_id)
        assert chip.peak("bf16").value == peak
        assert chip.bandwidth_tbs.value == bandwidth
        assert chip.ridge_point() == pytest.approx(ridge, abs=0.05)

    def test_ironwood_fp8_and_memory(self) -> None:
        """Google Cloud TPU7x documentation: 4,614 TFLOP/s FP8, 192 GiB of HBM per chip."""
        chip = get_chip("tpu-7x")
        assert chip.peak("fp8").value == 4614
        assert chip.memory_gb.value == 192

    def test_groq_is_sram_only(self) -> None:
        """Groq LPU (TechPowerUp on Groq's figures): 230 MB of SRAM, 80 TB/s, 750 TOPS INT8, 188 TFLOPS FP16."""
        chip = get_chip("groq-lpu")
        assert chip.sram_mb is not None
        assert chip.sram_mb.value == 230
        assert chip.bandwidth_tbs.value == 80
        assert chip.peak("int8").value == 750
        assert chip.peak("bf16").value == 188
        assert "FP16" in chip.peak("bf16").note

    def test_cerebras_memory(self) -> None:
        """Cerebras WSE-3 (Tom's Hardware, TweakTown on the launch): 44 GB SRAM at 21 PB/s."""
        chip = get_chip("cerebras-wse-3")
        assert chip.memory_gb.value == 44
        assert chip.sram_mb is not None
        assert chip.sram_mb.value == 44_000
        assert chip.bandwidth_tbs.value == 21_000

    def test_int8_is_in_tops(self) -> None:
        """INT8 peaks are operations, not floating-point operations: TOP/s."""
        assert get_chip("h100-sxm").peak("int8").unit == "TOP/s"
        assert get_chip("h100-sxm").peak("bf16").unit == "TFLOP/s"


class TestLookups:
    def test_get_chip_names_the_known_ids(self) -> None:
        """An unknown id raises KeyError listing the ids there are."""
        with pytest.raises(KeyError, match=r"no chip 'h300'.*h100-sxm.*apple-m4-max"):
            get_chip("h300")

    def test_missing_precision_names_chip_and_precisions(self) -> None:
        """Asking a chip for a precision it lacks names the chip and what it has."""
        with pytest.raises(KeyError, match=r"chip 'a100-80gb-sxm' has no 'fp8' peak \(it has: fp32, bf16, int8"):
            get_chip("a100-80gb-sxm").peak("fp8")
        with pytest.raises(KeyError, match=re.escape("chip 'apple-m3-ultra' has no 'bf16' peak (it has: none")):
            get_chip("apple-m3-ultra").ridge_point()

    def test_loaded_once_and_returned_as_copies(self) -> None:
        """Loading is cached (the same Chip objects), and a caller's changes to the dict do not leak."""
        first = load_chips()
        first.pop("h100-sxm")
        second = load_chips()
        assert "h100-sxm" in second
        assert second["b200"] is first["b200"]

    def test_chips_are_immutable(self) -> None:
        """Chips, figures and their mappings cannot be changed in place."""
        chip = get_chip("h100-sxm")
        with pytest.raises(AttributeError):
            chip.year = 2030  # type: ignore[misc]
        with pytest.raises(TypeError):
            chip.peak_tflops["fp4"] = chip.peak("fp8")  # type: ignore[index]


VALID = """
[[source]]
id = "vendor-sheet"
title = "Vendor data sheet"
url = "https://example.com/sheet.pdf"

[[source]]
id = "other-sheet"
title = "Another data sheet"
url = "https://example.com/other.pdf"

[[chip]]
id = "test-chip"
name = "Test Chip"
vendor = "Vendor"
year = 2024
form_factor = "PCIe card"
memory_type = "HBM3"
interconnect = "none"
memory_gb = { value = 80, source = "vendor-sheet" }
bandwidth_tbs = { value = 3.35, source = "vendor-sheet", alternatives = [{ value = 3.3, source = "other-sheet" }] }
power_w = { value = 700, source = "vendor-sheet", note = "TDP" }
peak_tflops.bf16 = { value = 989, source = "vendor-sheet", headline_sparse = true, headline = 1979 }
peak_tflops.fp32 = { value = 67, source = "vendor-sheet" }
other.npu_tops = { value = 38, unit = "TOP/s", source = "other-sheet" }
"""


def write_and_parse(tmp_path: Path, text: str) -> dict[str, Chip]:
    """Write TOML text to a file, as an author would, and load that file."""
    path = tmp_path / "chips.toml"
    path.write_text(text, encoding="utf-8")
    return parse_chips(path.read_text(encoding="utf-8"), origin=str(path))


class TestLoadingErrors:
    def test_the_valid_example_loads(self, tmp_path: Path) -> None:
        """The example every error case below mutates is itself valid."""
        chip = write_and_parse(tmp_path, VALID)["test-chip"]
        assert chip.precisions == ("fp32", "bf16")
        assert chip.peak("bf16").headline == 1979
        assert chip.bandwidth_tbs.alternatives[0].source.id == "other-sheet"
        assert chip.other["npu_tops"].unit == "TOP/s"
        assert chip.sram_mb is None

    @pytest.mark.parametrize(
        ("old", "new", "message"),
        [
            # An unknown field on a chip.
            (
                'vendor = "Vendor"',
                'vendor = "Vendor"\ncolour = "green"',
                "chip 'test-chip', field 'colour': unknown field",
            ),
            # An unknown field inside a figure.
            ("{ value = 80, source", "{ valu = 80, source", "field 'memory_gb': unknown field 'valu'"),
            # A figure without its source.
            ('{ value = 80, source = "vendor-sheet" }', "{ value = 80 }", "field 'memory_gb': missing 'source'"),
            # A source id that no [[source]] defines.
            (
                '{ value = 67, source = "vendor-sheet" }',
                '{ value = 67, source = "nope" }',
                "'peak_tflops.fp32': unknown source id 'nope'",
            ),
            # Text where a number belongs.
            ("{ value = 700,", '{ value = "700",', "field 'power_w': 'value' must be a number"),
            # A boolean is not a number.
            ("{ value = 700,", "{ value = true,", "field 'power_w': 'value' must be a number"),
            # A negative figure.
            ("{ value = 80,", "{ value = -80,", "field 'memory_gb': 'value' must be a finite number > 0"),
            # A zero figure.
            ("{ value = 3.3,", "{ value = 0,", "'bandwidth_tbs.alternatives': 'value' must be a finite number > 0"),
            # A missing required field.
            ('memory_type = "HBM3"\n', "", "chip 'test-chip', field 'memory_type': missing"),
            # A year that is not a whole number.
            ("year = 2024", 'year = "2024"', "field 'year': expected a positive whole number"),
            # Text that is a number.
            ('name = "Test Chip"', "name = 4", "field 'name': expected non-empty text"),
            # A precision the database does not know.
            ("peak_tflops.fp32", "peak_tflops.fp6", "field 'peak_tflops.fp6': unknown precision 'fp6'"),
            # A sparse headline flagged without the headline figure.
            (", headline = 1979", "", "'peak_tflops.bf16': 'headline_sparse' needs the vendor's 'headline'"),
            # The sparse figure stored as the value: it exceeds the headline.
            (
                "{ value = 989,",
                "{ value = 1979.5,",
                "the dense 'value' (1979.5) exceeds the vendor's 'headline' (1979)",
            ),
            # headline_sparse must be a boolean.
            ("headline_sparse = true", 'headline_sparse = "yes"', "'headline_sparse' must be true or false"),
            # An 'other' figure must carry its unit.
            ('unit = "TOP/s", ', "", "field 'other.npu_tops': expected a figure with a 'unit'"),
            # A unit is only for 'other' figures.
            (
                '{ value = 67, source = "vendor-sheet" }',
                '{ value = 67, unit = "x", source = "vendor-sheet" }',
                "'peak_tflops.fp32': unknown field 'unit'",
            ),
            # An alternative carries only value, source and note.
            (
                '{ value = 3.3, source = "other-sheet" }',
                '{ value = 3.3, source = "other-sheet", headline = 4 }',
                "'bandwidth_tbs.alternatives': unknown field 'headline'",
            ),
            # Alternatives must be a list.
            (
                'alternatives = [{ value = 3.3, source = "other-sheet" }]',
                "alternatives = 3.3",
                "'alternatives' must be a list",
            ),
            # A chip id that is not kebab-case.
            ('id = "test-chip"', 'id = "Test_Chip"', "field 'id': expected kebab-case"),
        ],
    )
    def test_schema_errors_name_the_chip_and_field(self, tmp_path: Path, old: str, new: str, message: str) -> None:
        """Each schema problem is a ValueError naming the file, the chip and the field."""
        assert old in VALID
        with pytest.raises(ValueError, match=re.escape(message)) as raised:
            write_and_parse(tmp_path, VALID.replace(old, new, 1))
        assert str(tmp_path / "chips.toml") in str(raised.value)

    @pytest.mark.parametrize(
        ("old", "new", "message"),
        [
            # A source without a URL.
            ('url = "https://example.com/other.pdf"\n', "", "source 'other-sheet', field 'url': missing"),
            # A URL that is not an address.
            ('"https://example.com/other.pdf"', '"example.com/other.pdf"', "field 'url': expected an https:// address"),
            # An unknown field on a source.
            (
                'title = "Vendor data sheet"',
                'title = "Vendor data sheet"\nauthor = "x"',
                "source 'vendor-sheet', field 'author': unknown field",
            ),
            # Two sources with one id.
            ('id = "other-sheet"', 'id = "vendor-sheet"', "source 'vendor-sheet', field 'id': duplicate id"),
        ],
    )
    def test_source_errors_name_the_source_and_field(self, tmp_path: Path, old: str, new: str, message: str) -> None:
        """Problems in a [[source]] name that source and the field."""
        with pytest.raises(ValueError, match=re.escape(message)):
            write_and_parse(tmp_path, VALID.replace(old, new, 1))

    def test_duplicate_chip_ids(self, tmp_path: Path) -> None:
        """Two chips with one id are refused, naming it."""
        chip = VALID[VALID.index("[[chip]]") :]
        with pytest.raises(ValueError, match="chip 'test-chip', field 'id': duplicate id"):
            write_and_parse(tmp_path, VALID + chip)

    def test_file_level_errors(self, tmp_path: Path) -> None:
        """Broken TOML, unknown top-level keys and a file without chips are refused with the file named."""
        with pytest.raises(ValueError, match=re.escape("chips.toml:27: not valid TOML")):
            write_and_parse(tmp_path, VALID + "\n[[chip]\n")
        with pytest.raises(ValueError, match=r"unknown top-level key\(s\) \['chips'\]"):
            write_and_parse(tmp_path, VALID + "\n[[chips]]\nid = 1\n")
        with pytest.raises(ValueError, match=re.escape("expected at least one [[chip]] table")):
            write_and_parse(tmp_path, VALID[: VALID.index("[[chip]]")])

    @pytest.mark.parametrize(
        ("old", "new", "message"),
        [
            # A bandwidth written in GB/s: 1000 times too large.
            (
                "value = 3.35,",
                "value = 3350,",
                "21: chip 'test-chip', field 'bandwidth_tbs': 3350 TB/s is outside the plausible range 0.05 to 30 "
                "TB/s: check the unit (this field is in TB/s)",
            ),
            # A memory size in MB.
            (
                "value = 80,",
                "value = 80000,",
                "20: chip 'test-chip', field 'memory_gb': 80000 GB is outside the plausible range 0.01 to 4096 GB: "
                "check the unit (this field is in GB)",
            ),
            # A peak in GFLOP/s.
            (
                "value = 67,",
                "value = 67000,",
                "24: chip 'test-chip', field 'peak_tflops.fp32': 67000 TFLOP/s is outside the plausible range 0.1 "
                "to 10000 TFLOP/s: check the unit (this field is in TFLOP/s)",
            ),
            # An alternative is checked like its figure.
            (
                "value = 3.3,",
                "value = 3300,",
                "21: chip 'test-chip', field 'bandwidth_tbs.alternatives': 3300 TB/s is outside the plausible "
                "range 0.05 to 30 TB/s: check the unit (this field is in TB/s)",
            ),
            # A year with a digit missing.
            ("year = 2024", "year = 224", "16: chip 'test-chip', field 'year': 224 is outside the plausible range"),
            # A misspelt source id.
            (
                'power_w = { value = 700, source = "vendor-sheet"',
                'power_w = { value = 700, source = "vendor-shet"',
                "22: chip 'test-chip', field 'power_w': unknown source id 'vendor-shet': did you mean 'vendor-sheet'?",
            ),
            # A source id that matches nothing.
            (
                'power_w = { value = 700, source = "vendor-sheet"',
                'power_w = { value = 700, source = "datasheet-2"',
                "22: chip 'test-chip', field 'power_w': unknown source id 'datasheet-2': add a [[source]] with that "
                "id, or use an existing one",
            ),
            # A figure without its source.
            (
                '{ value = 80, source = "vendor-sheet" }',
                "{ value = 80 }",
                "20: chip 'test-chip', field 'memory_gb': missing 'source': every figure names the id of the "
                "[[source]] it comes from",
            ),
            # A number in quotes.
            (
                "{ value = 700,",
                '{ value = "700",',
                "22: chip 'test-chip', field 'power_w': 'value' must be a number (got '700'): write it without quotes",
            ),
            # A missing field is placed at its chip's header.
            ('memory_type = "HBM3"\n', "", "12: chip 'test-chip', field 'memory_type': missing"),
            # A source's problem is placed at its own line.
            ('url = "https://example.com/other.pdf"', 'url = "example.com"', "10: source 'other-sheet', field 'url'"),
        ],
    )
    def test_messages_carry_the_line_and_what_would_be_right(
        self, tmp_path: Path, old: str, new: str, message: str
    ) -> None:
        """Every problem is one line, `path:LINE: chip 'ID', field 'NAME': problem`, at the line of the field."""
        assert old in VALID
        with pytest.raises(ChipDataError) as raised:
            write_and_parse(tmp_path, VALID.replace(old, new, 1))
        assert str(raised.value).startswith(f"{tmp_path / 'chips.toml'}:{message}")
        assert "\n" not in str(raised.value)

    def test_a_duplicate_id_names_both_lines(self, tmp_path: Path) -> None:
        """The second chip with one id is reported at its own id line, naming the line of the first."""
        chip = VALID[VALID.index("[[chip]]") :]
        with pytest.raises(ChipDataError) as raised:
            write_and_parse(tmp_path, VALID + "\n" + chip)
        assert str(raised.value) == (
            f"{tmp_path / 'chips.toml'}:28: chip 'test-chip', field 'id': duplicate id (first used at line 13): "
            "give each chip an id of its own"
        )

    def test_toml_syntax_errors_carry_tomls_line_and_column(self, tmp_path: Path) -> None:
        """A TOML mistake is reported at TOML's own line and column, without tomllib's parenthesis."""
        with pytest.raises(ChipDataError) as raised:
            write_and_parse(tmp_path, VALID.replace('name = "Test Chip"', "name = Test Chip"))
        assert str(raised.value) == f"{tmp_path / 'chips.toml'}:14: not valid TOML: Invalid value (column 8)"

    def test_parse_database_returns_sources_too(self) -> None:
        """parse_database gives the sources and the chips, both by id."""
        database = parse_database(VALID)
        assert list(database.sources) == ["vendor-sheet", "other-sheet"]
        assert list(database.chips) == ["test-chip"]


class TestPrices:
    def test_a_price_per_chip_hour_is_read_with_its_source(self, tmp_path: Path) -> None:
        text = VALID.replace(
            'note = "TDP" }\n',
            'note = "TDP" }\nprice_per_hour = { value = 5.408, source = "other-sheet", price_class = "on-demand" }\n',
        )
        chip = write_and_parse(tmp_path, text)["test-chip"]
        assert chip.price_per_hour is not None
        assert chip.price_per_hour.price_class == "on-demand"
        assert chip.price_per_hour is not None
        assert (chip.price_per_hour.value, chip.price_per_hour.unit) == (5.408, "USD per chip-hour")
        assert chip.price_per_hour.source.id == "other-sheet"

    def test_an_instance_price_left_undivided_stops_at_its_line(self, tmp_path: Path) -> None:
        """$43.26 is a p5e.48xlarge's hour, 8 chips' worth: outside one chip's plausible 0.05 to 25 USD."""
        text = VALID.replace(
            'note = "TDP" }\n',
            'note = "TDP" }\nprice_per_hour = { value = 43.26, source = "other-sheet", price_class = "spot" }\n',
        )
        with pytest.raises(
            ValueError,
            match=re.escape(
                "23: chip 'test-chip', field 'price_per_hour': 43.26 USD per chip-hour is outside the plausible range "
                "0.05 to 25 USD per chip-hour"
            ),
        ):
            write_and_parse(tmp_path, text)

    def test_the_h200_price_is_awss_capacity_block_rate_per_gpu(self) -> None:
        """43.26 USD per p5e.48xlarge-hour / 8 H200s = 5.4075, as the page rounds it, 5.408; the H100 has the only
        other price."""
        price = CHIPS["h200-sxm"].price_per_hour
        assert price is not None
        assert price.value == pytest.approx(43.26 / 8, abs=1e-3)
        assert price.source.id == "aws-ec2-capacity-blocks-pricing"
        assert "not on-demand" in price.note
        assert price.price_class == "capacity block"
        assert [chip.id for chip in CHIPS.values() if chip.price_per_hour] == ["h100-sxm", "h200-sxm"]

    def test_the_h100_price_is_the_same_pages_rate_per_gpu(self) -> None:
        """39.33 USD per p5.48xlarge-hour / 8 H100s = 4.916: the same page and kind of price as the H200's."""
        price = CHIPS["h100-sxm"].price_per_hour
        assert price is not None
        assert price.value == pytest.approx(39.33 / 8, abs=1e-3)
        assert price.source.id == "aws-ec2-capacity-blocks-pricing"
        assert "not on-demand" in price.note
