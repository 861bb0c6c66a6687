"""The chip comparison: figures from the database, side by side."""

from __future__ import annotations

import pytest

from calckit.api import run
from calculators import CALCULATORS
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
    assert result["table"]["rows"][0][1] == "— (no FP8)"
    assert result["outputs"][0]["text"] == get_chip("h100-sxm").name


def test_a_model_that_does_not_fit_is_marked() -> None:
    result = run("compare", {"chips": ["h100-sxm", "mi300x"], "params_b": 70})
    assert result["table"]["rows"][0][-1].endswith("(does not fit)")
    assert not result["table"]["rows"][1][-1].endswith("(does not fit)")


def test_only_chips_that_hold_the_model_are_ranked_for_decode() -> None:
    """All chips, 70 B model: Cerebras WSE-3 has the most bandwidth but 44 GB of SRAM, so it cannot serve it."""
    chips = next(spec for spec in CALCULATORS["compare"].inputs if spec.key == "chips").choice_values
    result = run("compare", {"chips": list(chips), "params_b": 70})
    texts = {o["key"]: o["text"] for o in result["outputs"]}
    rows = {row[0]: row[-1] for row in result["table"]["rows"]}
    assert texts["most_bandwidth"] == get_chip("cerebras-wse-3").name
    assert rows[texts["fastest_decode"]].endswith(" token/s")  # it fits
    assert rows[get_chip("cerebras-wse-3").name].endswith("(does not fit)")
    assert f"{texts['fastest_decode']} decodes fastest at batch 1 (" in result["summary"]
    unfit = [name for name, cell in rows.items() if cell.endswith("(does not fit)")]
    assert all(name in result["summary"].split(" decodes fastest at batch 1 (")[1] for name in unfit)


def test_a_chip_that_leads_several_ways_is_named_once() -> None:
    result = run("compare", {"chips": ["h100-sxm", "cerebras-wse-3", "b200"]})
    assert result["summary"].startswith(
        "Of these chips, NVIDIA B200 has the most BF16/FP16 compute and memory, Cerebras WSE-3 the most bandwidth; "
    )


def test_when_no_chip_holds_the_model_none_is_fastest() -> None:
    result = run("compare", {"chips": ["h100-sxm", "mi300x"], "params_b": 5000})
    assert result["outputs"][3]["text"] == "None: the model fits on none of them"
    assert result["summary"].endswith("none of them holds the 5,000 B-parameter model on one chip.")


def test_needs_two_chips() -> None:
    result = run("compare", {"chips": ["h100-sxm"]})
    assert result["errors"][0]["message"] == "'chips' must be at least 2 choices (got ['h100-sxm'])"


def test_chart_has_a_point_per_chip() -> None:
    chart = run("compare", {"chips": ["h100-sxm", "mi300x", "tpu-v5p"]})["chart"]
    points = chart["layer"][2]["data"]["values"]
    assert len(points) == 3
    assert points[0]["tflops"] == pytest.approx(989.4)


def test_every_line_of_equal_ridge_is_named_where_it_leaves_the_chart() -> None:
    chart = run("compare", {"chips": ["h100-sxm", "mi300x", "tpu-v5p"]})["chart"]
    x_domain = chart["layer"][0]["encoding"]["x"]["scale"]["domain"]
    y_domain = chart["layer"][0]["encoding"]["y"]["scale"]["domain"]
    ends = chart["layer"][1]["data"]["values"]
    assert [end["ridge"] for end in ends] == ["ridge 10 FLOP/byte", "ridge 100 FLOP/byte", "ridge 1000 FLOP/byte"]
    for end in ends:
        ridge = float(end["ridge"].split()[1])
        assert end["tflops"] == pytest.approx(ridge * end["bandwidth"])
        on_edge = end["bandwidth"] == pytest.approx(x_domain[1]) or end["tflops"] == pytest.approx(y_domain[1])
        assert on_edge and x_domain[0] <= end["bandwidth"] <= x_domain[1]


def test_the_table_says_how_old_its_figures_are() -> None:
    """The newest date among the compared chips' sources: H100 SXM from NVIDIA's 2022 data sheet and whitepaper
    (2022-03), the Groq LPU from a February 2024 report, so 2024-02; with Gaudi 3 (Bekman's book, 2026-08-22) the
    newer date wins."""
    old = CALCULATORS["compare"].run({"chips": ["h100-sxm", "groq-lpu"]}).table
    newer = CALCULATORS["compare"].run({"chips": ["h100-sxm", "groq-lpu", "gaudi-3"]}).table
    assert old is not None and newer is not None
    assert old.caption.endswith("decode for a 70 B-parameter model on one chip. Figures as of 2024-02.")
    assert newer.caption.endswith("Figures as of 2026-08-22.")


def test_chips_that_tie_are_all_named() -> None:
    """B300, Rubin, MI355X and MTIA 400 all have 288 GB: naming only the first would say the others have less.
    B300 and MI355X tie on bandwidth (8 TB/s each) and so on batch-1 decode: 8e12 / (70e9 x 2) = 57.1 token/s."""
    four = run("compare", {"chips": "b300,rubin,mi355x,mtia-400", "precision": "fp4"})
    memory = dict(zip([o["key"] for o in four["outputs"]], [o["text"] for o in four["outputs"]], strict=True))
    assert memory["most_memory"] == (
        "NVIDIA B300 (Blackwell Ultra), NVIDIA Rubin (Vera Rubin NVL72), AMD Instinct MI355X and Meta MTIA 400"
    )
    assert "Meta MTIA 400 tie for the most memory" in four["summary"]
    # The output's text is the summary's words for it (the book's one-figure-one-text rule).
    assert memory["most_memory"] in four["summary"]
    two = run("compare", {"chips": "b300,mi355x", "precision": "bf16", "params_b": 70, "bytes_per_param": "2"})
    assert two["summary"] == (
        "Of these chips, AMD Instinct MI355X has the most BF16/FP16 compute, NVIDIA B300 (Blackwell Ultra) and AMD "
        "Instinct MI355X tie for the most bandwidth and memory; of those that hold the 70 B-parameter model on one "
        "chip, NVIDIA B300 (Blackwell Ultra) and AMD Instinct MI355X tie as the fastest to decode at batch 1."
    )
    rows = {row[0]: row for row in two["table"]["rows"]}
    assert rows["AMD Instinct MI355X"][-1] == rows["NVIDIA B300 (Blackwell Ultra)"][-1] == "57.1 token/s"
