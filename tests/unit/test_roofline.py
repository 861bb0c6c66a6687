"""The roofline calculator against published figures, and over its whole input space (R1)."""

from __future__ import annotations

import pytest

from calckit import InputError
from calckit.api import run
from calckit.book import calculator as get
from calculators import CALCULATORS
from calculators.chips import get_chip

ROOFLINE = get("roofline")
H100 = {"chip": "custom", "peak_tflops": 989, "bandwidth_tbs": 3.35}  # NVIDIA H100 SXM data sheet, dense BF16


class TestKnownValues:
    @pytest.mark.parametrize(
        ("peak_tflops", "bandwidth_tbs", "ridge"),
        [
            # Google Cloud TPU v5e documentation: 197 TFLOP/s BF16, 819 GB/s HBM per chip.
            (197, 0.819, 240.5),
            # The same with the rounded 0.82 TB/s often quoted.
            (197, 0.82, 240.2),
            # NVIDIA H100 SXM data sheet: 989 TFLOP/s dense BF16 (1,979 with sparsity), 3.35 TB/s HBM3.
            (989, 3.35, 295.2),
            # NVIDIA A100 80GB SXM data sheet: 312 TFLOP/s BF16, 2,039 GB/s.
            (312, 2.039, 153.0),
        ],
    )
    def test_ridge_point(self, peak_tflops: float, bandwidth_tbs: float, ridge: float) -> None:
        """The ridge is peak compute over bandwidth, in FLOP per byte."""
        values = ROOFLINE.run({"peak_tflops": peak_tflops, "bandwidth_tbs": bandwidth_tbs}).values  # chip: custom
        assert values["ridge"] == pytest.approx(ridge, abs=0.05)

    def test_memory_bound_below_the_ridge(self) -> None:
        """At 100 FLOP/byte an H100 is held to 3.35 TB/s x 100 = 335 TFLOP/s, a third of its peak."""
        values = ROOFLINE.run({**H100, "intensity": 100}).values
        assert values["bound"] == "Memory-bound"
        assert values["attainable"] == pytest.approx(335e12)
        assert values["fraction"] == pytest.approx(335 / 989)

    def test_compute_bound_above_the_ridge(self) -> None:
        """Above the ridge, the flat roof holds: all of the peak."""
        for intensity in (400, 1000, 1e6):
            values = ROOFLINE.run({**H100, "intensity": intensity}).values
            assert values["bound"] == "Compute-bound"
            assert values["attainable"] == 989e12
            assert values["fraction"] == 1.0

    @pytest.mark.parametrize(
        ("inputs", "share"),
        [
            # TPU v5e (197 TFLOP/s, 0.819 TB/s, ridge 240.5) at 240 FLOP/byte: 99.8% of peak, not "memory-bound".
            ({"chip": "custom", "peak_tflops": 197, "bandwidth_tbs": 0.819, "intensity": 240}, "99.8%"),
            ({**H100, "intensity": 295.3}, "100%"),
            ({**H100, "intensity": 290}, "98.2%"),
        ],
    )
    def test_near_the_ridge_both_roofs_limit(self, inputs: dict[str, object], share: str) -> None:
        """Within 3% of the ridge neither roof dominates: the verdict says so instead of a 0.2% coin toss."""
        result = run("roofline", inputs)
        texts = {o["key"]: o["text"] for o in result["outputs"]}
        assert texts["bound"] == "At the ridge: both limits"
        assert texts["fraction"] == share
        assert result["summary"].startswith("At the ridge point, both roofs limit it: ")

    def test_just_outside_the_band_the_verdict_is_plain(self) -> None:
        assert ROOFLINE.run({**H100, "intensity": 285}).values["bound"] == "Memory-bound"
        assert ROOFLINE.run({**H100, "intensity": 305}).values["bound"] == "Compute-bound"

    def test_decode_is_memory_bound(self) -> None:
        """Batch-1 decode at 16 bits does about 1 FLOP per byte: under 1 % of an H100's peak."""
        values = ROOFLINE.run({**H100, "intensity": 1}).values
        assert values["bound"] == "Memory-bound"
        assert values["fraction"] == pytest.approx(3.35 / 989)

    def test_texts_shown_to_readers(self) -> None:
        """The default chip is the database's H100 SXM (989.4 TFLOP/s dense BF16, 3.35 TB/s)."""
        assert get_chip("h100-sxm").peak("bf16").value == 989.4
        result = run("roofline", {})
        assert [(o["label"], o["text"]) for o in result["outputs"]] == [
            ("Workload intensity", "100 FLOP/byte"),
            ("Ridge point", "295 FLOP/byte"),
            ("Attainable compute", "335 TFLOP/s"),
            ("Limited by", "Memory-bound"),
            ("Share of peak compute", "33.9%"),
            ("Time at best", "—"),
        ]
        assert result["outputs"][-1]["note"] == "Needs a workload size: pick a matrix multiply or an LLM workload."
        assert result["summary"] == (
            "Memory-bound: at 100 FLOP/byte the chip can reach 335 TFLOP/s, 33.9% of its peak; "
            "the ridge point is 295 FLOP/byte. NVIDIA H100 SXM figures as of 2024."
        )


class TestChart:
    def test_roof_passes_through_the_ridge_and_the_workload_sits_on_it(self) -> None:
        chart = run("roofline", {**H100, "intensity": 10})["chart"]
        roof, ridge, workload = (layer["data"]["values"] for layer in chart["layer"])
        assert roof[1] == {"intensity": pytest.approx(295.22, abs=0.01), "tflops": 989.0}
        assert ridge == [{"intensity": roof[1]["intensity"]}]
        assert workload == [{"intensity": 10.0, "tflops": pytest.approx(33.5)}]
        assert roof[0]["tflops"] / roof[0]["intensity"] == pytest.approx(3.35)  # the sloped roof is the bandwidth

    def test_axes_enclose_ridge_and_workload(self) -> None:
        chart = run("roofline", {"intensity": 0.05})["chart"]
        x_domain = chart["layer"][0]["encoding"]["x"]["scale"]["domain"]
        assert x_domain[0] <= 0.05 / 10 and x_domain[1] >= 295 * 10


class TestRegistry:
    def test_registry_names_every_calculator(self) -> None:
        assert "roofline" in CALCULATORS
        with pytest.raises(KeyError, match="unknown calculator 'nope' \\(expected one of: "):
            get("nope")

    def test_input_error_is_a_value_error(self) -> None:
        assert issubclass(InputError, ValueError)
