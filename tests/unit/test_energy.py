"""Power and energy."""

from __future__ import annotations

import pytest

from calckit.api import run
from calckit.book import calculator as get

ENERGY = get("energy")


def test_a_year_at_700_watts() -> None:
    """700 W for 8,760 h is 6,132 kWh (an H100 SXM at its rated power for a year)."""
    result = run("energy", {"chip": "custom", "power_w": 700, "hours": 8760})
    assert result["outputs"][1]["value"] == pytest.approx(6132)
    assert result["outputs"][1]["text"] == "6,132 kWh"


def test_the_chip_fills_its_rated_power() -> None:
    assert ENERGY.run({"chip": "h100-sxm"}).values["energy"] == pytest.approx(6132)


def test_utilisation_count_and_pue_scale_the_energy() -> None:
    values = ENERGY.run(
        {
            "chip": "custom",
            "power_w": 1000,
            "utilization": 50,
            "count": 8,
            "hours": 10,
            "pue": 1.25,
            "price_per_kwh": 0.2,
        }
    ).values
    assert values["average_power"] == pytest.approx(5000)
    assert values["energy"] == pytest.approx(50)
    assert values["cost"] == pytest.approx(10)


def test_a_chip_without_a_published_power_says_so() -> None:
    result = run("energy", {"chip": "tpu-v5e"})
    assert result["errors"][0]["message"] == (
        "'chip' must be a chip with a published power figure, or custom (got 'tpu-v5e')"
    )
