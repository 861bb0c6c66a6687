"""T3 per calculator (bench.browser.spread, recompute_figures, RECOMPUTES), on samples made up for the purpose: `make
bench` measures real ones, and is not run by the tests. A content test: the values T3 puts into the book's
calculators must each give other results than the one before."""

from __future__ import annotations

import pytest

from bench.browser import RECOMPUTES, recompute_figures, spread, stage_floors
from bench.figures import BenchError
from calckit.api import run


def test_spread_gives_different_values_over_the_range_in_a_fixed_shuffle() -> None:
    values = spread(10, 300, 30, whole=True)
    assert len(set(values)) == 30
    assert {min(map(int, values)), max(map(int, values))} == {10, 300}
    assert values == spread(10, 300, 30, whole=True)  # the same shuffle every run
    assert list(values) != sorted(values, key=int)
    assert sorted(spread(0.01, 10_000, 3), key=float) == ["0.01", "10", "10000"]  # to 3 digits, plainly


def test_spread_refuses_a_range_too_narrow_for_its_count() -> None:
    with pytest.raises(BenchError, match="not all different"):
        spread(1, 300, 30, whole=True)  # 1.2, 1.4 and 1.5 all round to 1


def test_each_value_put_in_gives_another_result_with_a_chart() -> None:
    """The bench waits for outputs that differ from the ones before: two values with the same outputs would hang it."""
    for calculator in RECOMPUTES:
        shown = set()
        for value in calculator.values:
            result = run(calculator.name, {calculator.field: value})
            assert result["ok"] and result["chart"], (calculator.name, value)
            shown.add((tuple(out["text"] for out in result["outputs"]), result["summary"]))
        assert len(shown) == len(calculator.values), calculator.name


def test_figures_of_one_calculator() -> None:
    """Median and nearest-rank p95 of input-to-chart, against 8 and 16.7 ms; each stage's median / p95; the first
    inputs after the boot apart."""
    samples = [
        {
            "total": total,
            "outputs": total - 2,
            "frame": total + 10,
            "calls": 1,
            "input to call sent": 0.5,
            "worker round trip": total - 4,
        }
        for total in [float(ms) for ms in range(1, 21)]  # 1..20 ms
    ]
    first = [{"total": total, "Python in the worker": total / 2} for total in [30.0, 10.0, 20.0]]
    median, p95, stages, frame, first_inputs = recompute_figures("roofline", first, samples)
    assert (median.measured, median.target, median.met) == (10.5, 8, False)
    assert (p95.measured, p95.target) == (19.0, 16.7)  # the 19th of 20
    assert median.detail == "20 inputs; outputs alone 8.5 ms; calls 20"
    assert stages.detail == "input to call sent 0.5 / 0.5, worker round trip 6.5 / 15.0"
    assert frame.measured == 20.5 and frame.target is None
    # The first inputs after the boot are shown beside the warm ones, with no target of their own.
    assert (first_inputs.measured, first_inputs.target) == (20.0, None)
    assert first_inputs.what == "roofline: the first 3 inputs after the boot, median"
    assert first_inputs.detail == "p95 30.0 ms; Python in the worker 10.0 / 15.0"


def test_the_cold_boot_against_the_floor_of_each_stage() -> None:
    """T2 stage by stage: downloads against the floor page, the rest against a repeat visit's same stage."""

    def sample(created: float, runtime: float, ready: float, result: float, worker: dict[str, float]) -> dict:
        return {
            "stages": {"created": created, "runtime": runtime, "ready": ready, "result": result},
            "boot_stages": worker,
        }

    cold = [
        sample(
            -100,
            -70,
            700,
            720,
            {"wasm compiled": 600, "snapshot decompressed": 580, "wheels downloaded": 500, "ready": 760},
        ),
        sample(
            -120,
            -80,
            760,
            790,
            {"wasm compiled": 640, "snapshot decompressed": 650, "wheels downloaded": 520, "ready": 800},
        ),
        sample(-90, -60, 720, 735, {"wasm compiled": 610, "snapshot decompressed": 600, "ready": 770}),
    ]
    repeat = [
        sample(-50, -40, 400, 410, {"wasm compiled": 300, "snapshot decompressed": 250, "ready": 420}),
        sample(-60, -45, 420, 428, {"wasm compiled": 310, "snapshot decompressed": 260, "ready": 440}),
        sample(-55, -40, 410, 420, {"wasm compiled": 305, "snapshot decompressed": 255, "ready": 435}),
    ]
    floor = [{"page_ms": 450.0}, {"page_ms": 470.0}, {"page_ms": 460.0}]
    figure = stage_floors(cold, floor, repeat)
    # Cold, medians of (30, 40, 30), (600, 650, 610: the snapshot in last in the second), (160, 150, 160) and
    # (20, 30, 15): 820 ms. Floors: the floor page's 460, and the repeat visits' medians of (10, 15, 15), (120, 130,
    # 130) and (10, 8, 10): 615 ms.
    assert figure.detail == (
        "820 ms against 615 ms: worker start 30 against 15 (2.00x), downloads and compile 610 against 460 (1.33x), "
        "after them 160 against 130 (1.23x), first call 20 against 10 (2.00x)"
    )
    assert figure.target is None and round(figure.measured, 3) == round(820 / 615, 3)
