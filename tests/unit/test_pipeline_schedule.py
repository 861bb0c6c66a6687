"""The pipeline-schedule calculator against the papers' own formulas, worked by hand, and against a small simulation
of the 1F1B and GPipe schedules.

Sources: Narayanan et al., "Efficient Large-Scale Language Model Training on GPU Clusters Using Megatron-LM", SC21,
section 2.2 (bubble time fraction (p - 1)/m for 1F1B, (1/v)(p - 1)/m interleaved); Korthikanti et al., "Reducing
Activation Recomputation in Large Transformer Models", MLSys 2023, section 4.2.3 (the first stage holds p
micro-batches under 1F1B, times 1 + (p - 1)/(p m) with m interleaved chunks); Qi et al., "Zero Bubble Pipeline
Parallelism", ICLR 2024, section 2.1 (ZB-H1's bubble a third of 1F1B's when T_F = T_B = T_W, same peak memory);
DeepSeek-AI, "DeepSeek-V3 Technical Report", 2024, table 2 (1F1B (PP - 1)(F + B), ZB1P (PP - 1)(F + B - 2W),
DualPipe (PP/2 - 1)(F&B + B - 3W) with 2x parameters and PP + 1 activations, its B the whole backward).
"""

from __future__ import annotations

import pytest

from calckit.book import calculator as get
from calculators.pipeline_schedule import SCHEDULES, bubble_time, held_microbatches, problem

PIPE = get("pipeline-schedule")


def values(**inputs: object) -> dict[str, object]:
    return dict(PIPE.run(inputs).values)


class TestNarayanan:
    """1F1B and GPipe: bubble (p - 1)(t_f + t_b), that is (p - 1)/m of the ideal time; interleaved divides it by v."""

    @pytest.mark.parametrize(("stages", "microbatches"), [(8, 32), (4, 8), (16, 64), (2, 1)])
    @pytest.mark.parametrize("schedule", ["gpipe", "1f1b"])
    def test_bubble_is_p_minus_one_over_m(self, schedule: str, stages: int, microbatches: int) -> None:
        out = values(schedule=schedule, stages=stages, microbatches=microbatches)
        assert out["bubble_ratio"] == pytest.approx((stages - 1) / microbatches)
        assert out["bubble_share"] == pytest.approx((stages - 1) / (microbatches + stages - 1))
        # F + B + W = 30 ms per micro-batch per stage.
        assert out["step"] == pytest.approx((microbatches + stages - 1) * 0.030)

    @pytest.mark.parametrize("virtual", [2, 3, 4, 8])
    def test_interleaved_divides_by_v(self, virtual: int) -> None:
        out = values(schedule="interleaved", stages=8, microbatches=32, virtual=virtual)
        assert out["bubble_ratio"] == pytest.approx(7 / (virtual * 32))
        assert out["bubble"] == pytest.approx(7 * 0.030 / virtual)

    def test_defaults_by_hand(self) -> None:
        """8 stages, 32 micro-batches, 10 ms passes: 210 ms of bubble in a 1.17 s step, 7/39 of it."""
        out = values()
        assert out["bubble"] == pytest.approx(0.210)
        assert out["compute"] == pytest.approx(0.960)
        assert out["step"] == pytest.approx(1.170)
        assert PIPE.output("bubble_share").text(out["bubble_share"]) == "17.9%"
        assert PIPE.output("bubble_ratio").text(out["bubble_ratio"]) == "21.9%"


class TestMemory:
    def test_1f1b_stage_r_holds_s_minus_r(self) -> None:
        assert [held_microbatches("1f1b", 8, 32, 1, r) for r in range(8)] == [8, 7, 6, 5, 4, 3, 2, 1]
        # Fewer micro-batches than stages: none holds more than there are.
        assert [held_microbatches("1f1b", 8, 3, 1, r) for r in range(8)] == [3, 3, 3, 3, 3, 3, 2, 1]

    def test_gpipe_holds_every_microbatch(self) -> None:
        assert {held_microbatches("gpipe", 8, 32, 1, r) for r in range(8)} == {32}
        out = values(schedule="gpipe")
        assert out["activations"] == pytest.approx(32 * 2.85e9)

    def test_first_and_last_stage_bytes(self) -> None:
        out = values()
        assert out["held_first"] == 8
        assert out["activations"] == pytest.approx(8 * 2.85e9)
        assert out["activations_last"] == pytest.approx(2.85e9)
        assert out["memory"] == pytest.approx(17.5e9 + 8 * 2.85e9)

    @pytest.mark.parametrize(("stages", "virtual"), [(8, 2), (4, 2), (8, 4), (16, 3)])
    def test_interleaved_first_stage_is_korthikanti_factor(self, stages: int, virtual: int) -> None:
        """p (1 + (p - 1)/(p v)) micro-batches: 8 stages, 2 chunks: 11.5."""
        held = held_microbatches("interleaved", stages, 4 * stages, virtual, 0)
        assert held == pytest.approx(stages * (1 + (stages - 1) / (stages * virtual)))
        assert held_microbatches("interleaved", 8, 32, 2, 0) == 11.5

    def test_interleaved_later_stages_hold_less(self) -> None:
        # Megatron-LM's warm-up on rank r: 2 (p - r - 1) + (v - 1) p chunk-forwards, then one more before a backward.
        held = [held_microbatches("interleaved", 4, 8, 2, r) for r in range(4)]
        assert held == [11 / 2, 9 / 2, 7 / 2, 5 / 2]

    def test_zero_bubble_keeps_1f1b_peak(self) -> None:
        assert [held_microbatches("zero-bubble", 8, 32, 1, r) for r in range(8)] == list(range(8, 0, -1))

    def test_dualpipe_holds_pp_plus_one_everywhere(self) -> None:
        """S - r of one direction and r + 1 of the other: S + 1 on every stage (DeepSeek-V3's PP + 1)."""
        assert {held_microbatches("dualpipe", 8, 32, 1, r) for r in range(8)} == {9}
        out = values(schedule="dualpipe")
        assert out["copies"] == 2
        assert out["memory"] == pytest.approx(2 * 17.5e9 + 9 * 2.85e9)


class TestZeroBubbleAndDualPipe:
    def test_zb_h1_is_a_third_of_1f1b_when_passes_are_equal(self) -> None:
        one = bubble_time("1f1b", 8, 32, 1, 1.0, 1.0, 1.0)
        assert bubble_time("zero-bubble", 8, 32, 1, 1.0, 1.0, 1.0) == pytest.approx(one / 3)
        # The ZB README's bubble rate: (p - 1)/(3 m).
        assert values(schedule="zero-bubble")["bubble_ratio"] == pytest.approx(7 / (3 * 32))

    @pytest.mark.parametrize(("f", "b", "w"), [(10.0, 10.0, 10.0), (10.0, 12.0, 8.0), (7.0, 9.0, 6.0)])
    def test_deepseek_table_2(self, f: float, b: float, w: float) -> None:
        """The report writes B for the whole backward (our B + W) and F&B for an overlapped pair (F + its B)."""
        pp, whole = 8, b + w
        assert bubble_time("1f1b", pp, 32, 1, f, b, w) == pytest.approx((pp - 1) * (f + whole))
        assert bubble_time("zero-bubble", pp, 32, 1, f, b, w) == pytest.approx((pp - 1) * (f + whole - 2 * w))
        f_and_b = f + whole
        dualpipe = (pp / 2 - 1) * (f_and_b + whole - 3 * w)
        assert bubble_time("dualpipe", pp, 32, 1, f, b, w) == pytest.approx(dualpipe)

    def test_defaults_by_hand(self) -> None:
        """10 ms passes, 8 stages: 1F1B 7 x 30 = 210 ms, ZB-H1 7 x 10 = 70 ms, DualPipe 3 x (30 + 20 - 30) = 60 ms."""
        assert values(schedule="zero-bubble")["bubble"] == pytest.approx(0.070)
        assert values(schedule="dualpipe")["bubble"] == pytest.approx(0.060)

    def test_bubbles_never_negative(self) -> None:
        assert bubble_time("zero-bubble", 8, 32, 1, 1.0, 1.0, 5.0) == 0.0
        assert bubble_time("dualpipe", 8, 32, 1, 1.0, 1.0, 9.0) == 0.0
        assert bubble_time("dualpipe", 1, 32, 1, 1.0, 1.0, 1.0) == 0.0


class TestConditions:
    def test_problems(self) -> None:
        assert problem("interleaved", 8, 12).startswith("The interleaved schedule needs")
        assert problem("interleaved", 8, 32) == ""
        assert problem("dualpipe", 8, 32) == ""
        assert "DualPipe needs" in problem("dualpipe", 8, 14)
        assert "DualPipe needs" in problem("dualpipe", 7, 28)
        assert problem("zero-bubble", 8, 4) != "" and problem("1f1b", 8, 4) == ""

    def test_a_note_says_when_the_formula_is_stretched(self) -> None:
        result = PIPE.run({"schedule": "dualpipe", "stages": 8, "microbatches": 8})
        assert "DualPipe needs" in result.notes["bubble"]
        assert not PIPE.run({}).notes

    def test_unknown_schedule(self) -> None:
        with pytest.raises(ValueError, match="unknown schedule"):
            bubble_time("pipedream", 8, 32, 1, 1.0, 1.0, 1.0)
        with pytest.raises(ValueError, match="unknown schedule"):
            held_microbatches("pipedream", 8, 32, 1, 0)


class TestTableAndChart:
    def test_every_schedule_in_the_table(self) -> None:
        table = PIPE.run({}).table
        assert table is not None
        rows = {row[0]: row for row in table.rows}
        assert set(rows) == set(SCHEDULES.values())
        assert rows["1F1B"][1] == "210 ms" and rows["1F1B"][4] == "8"
        assert rows["Interleaved 1F1B"][4] == "11.5"
        assert rows["DualPipe"][4] == "9"
        assert rows["GPipe"][5] == "91.2 GB"

    def test_chart_draws_every_stage_of_every_schedule(self) -> None:
        chart = PIPE.run({"schedule": "interleaved"}).chart
        assert chart is not None
        rows = chart["layer"][0]["data"]["values"]
        assert len(rows) == 5 * 8
        chosen = {row["schedule"] for row in rows if row["chosen"]}
        assert chosen == {"Interleaved 1F1B: bubble 9.86%"}
        first = next(row for row in rows if row["chosen"] and row["stage"] == 1)
        assert first["gb"] == pytest.approx(17.5 + 11.5 * 2.85)


def simulate(schedule: str, stages: int, microbatches: int, f: float, b: float) -> tuple[float, list[int]]:
    """Run GPipe or 1F1B (Megatron-LM's order: min(S - r - 1, M) warm-up forwards, then one forward and one
    backward in turn, then the remaining backwards) with each stage doing its passes in order as soon as their inputs
    are ready; return the step time and each stage's most micro-batches held at once."""
    order: list[list[tuple[str, int]]] = []
    for r in range(stages):
        if schedule == "gpipe":
            ops = [("F", i) for i in range(microbatches)] + [("B", i) for i in range(microbatches)]
        else:
            warm = min(stages - r - 1, microbatches)
            ops = [("F", i) for i in range(warm)]
            for i in range(warm, microbatches):
                ops += [("F", i), ("B", i - warm)]
            ops += [("B", i) for i in range(microbatches - warm, microbatches)]
        order.append(ops)
    done: dict[tuple[str, int, int], float] = {}
    free, position, peak = [0.0] * stages, [0] * stages, [0] * stages
    held = [0] * stages
    while any(position[r] < len(order[r]) for r in range(stages)):
        progressed = False
        for r in range(stages):
            if position[r] == len(order[r]):
                continue
            kind, i = order[r][position[r]]
            needs = ("F", r - 1, i) if kind == "F" else ("B", r + 1, i) if r < stages - 1 else ("F", r, i)
            if (kind == "F" and r == 0) or needs in done:
                start = max(free[r], done.get(needs, 0.0))
                free[r] = done[(kind, r, i)] = start + (f if kind == "F" else b)
                held[r] += 1 if kind == "F" else -1
                peak[r] = max(peak[r], held[r])
                position[r] += 1
                progressed = True
        assert progressed, "the schedule deadlocked"
    return max(free), peak


@pytest.mark.parametrize(("stages", "microbatches"), [(4, 8), (8, 32), (6, 3), (3, 12)])
@pytest.mark.parametrize("schedule", ["gpipe", "1f1b"])
def test_simulation_agrees(schedule: str, stages: int, microbatches: int) -> None:
    """The simulated step is (M + S - 1)(F + B), as the calculator says, and the held micro-batches match."""
    step, peak = simulate(schedule, stages, microbatches, 1.0, 2.0)
    out = values(schedule=schedule, stages=stages, microbatches=microbatches, forward_ms=1, backward_ms=1, weight_ms=1)
    assert step * 1e-3 == pytest.approx(out["step"])
    assert peak == [held_microbatches(schedule, stages, microbatches, 1, r) for r in range(stages)]
