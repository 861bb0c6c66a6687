"""The chip comparison: figures from the database, side by side."""

from __future__ import annotations

import pytest

from calculators import run
from calculators.chips import get_chip


def test_table_has_one_row_per_chip_with_database_figures() -> None:
    result = run("compare", {"chips": ["h100-sxm", "tpu-v5e"], "params_b": 7, "bytes_per_param": "2"})
    table = result["table"]
    assert [row[0] for row in table["rows"]] == [get_chip("h100-sxm").name, get_chip("tpu-v5e").name]
    h100 = dict(zip(table["columns"], table["rows"][0], strict=True))
    assert h100["Ridge point"] == "295 FLOP/byte"
    assert h100["Memory"] == "80 GB"
    assert h100["Largest model that fits"] == "40 B params"
    # 3.35 TB/s over 14 GB per token: at most 239 tokens per second at batch 1.
    assert h100["Batch-1 decode, at most"] == "239 token/s"
    assert h100["Compute per watt"] == "1.41 TFLOP/s per W"


def test_a_chip_without_the_precision_gets_a_dash() -> None:
    result = run("compare", {"chips": "a100-80gb-sxm,h100-sxm", "precision": "fp8"})
    assert result["table"]["rows"][0][1] == "— (no fp8)"
    assert result["outputs"][0]["text"] == get_chip("h100-sxm").name


def test_a_model_that_does_not_fit_is_marked() -> None:
    result = run("compare", {"chips": ["h100-sxm", "mi300x"], "params_b": 70})
    assert result["table"]["rows"][0][-1].endswith("(does not fit)")
    assert not result["table"]["rows"][1][-1].endswith("(does not fit)")


def test_needs_two_chips() -> None:
    result = run("compare", {"chips": ["h100-sxm"]})
    assert result["errors"][0]["message"] == "'chips' must be at least 2 choices (got ['h100-sxm'])"


def test_chart_has_a_point_per_chip() -> None:
    chart = run("compare", {"chips": ["h100-sxm", "mi300x", "tpu-v5p"]})["chart"]
    assert len(chart["layer"][1]["data"]["values"]) == 3
    assert chart["layer"][1]["data"]["values"][0]["tflops"] == pytest.approx(989.4)
