"""The systolic-array stepper against the cycle-by-cycle table worked by hand in chapter 27 (3 x 3 array, three input
rows) and the chapter's utilization figures (N = 128: 2,048 rows keep it 89% busy, 128 rows 34%)."""

from __future__ import annotations

import pytest

from calckit.api import run
from calculators.systolic import busy_pes, leaving, pass_cycles, working_row

from .page_text import assert_says

# The chapter's table: for each cycle, what each array row's three PEs work on (None idle), and what leaves.
CHAPTER = {
    0: ([[0, None, None], [None] * 3, [None] * 3], []),
    1: ([[1, 0, None], [0, None, None], [None] * 3], []),
    2: ([[2, 1, 0], [1, 0, None], [0, None, None]], [(0, 0)]),
    3: ([[None, 2, 1], [2, 1, 0], [1, 0, None]], [(1, 0), (0, 1)]),
    4: ([[None, None, 2], [None, 2, 1], [2, 1, 0]], [(2, 0), (1, 1), (0, 2)]),
    5: ([[None] * 3, [None, None, 2], [None, 2, 1]], [(2, 1), (1, 2)]),
    6: ([[None] * 3, [None] * 3, [None, None, 2]], [(2, 2)]),
}


@pytest.mark.parametrize("cycle", sorted(CHAPTER))
def test_each_cycle_matches_the_chapters_table(cycle: int) -> None:
    grid, out = CHAPTER[cycle]
    assert [[working_row(i, j, cycle, 3) for j in range(3)] for i in range(3)] == grid
    assert leaving(3, 3, cycle) == out


def test_the_pass_and_its_utilization() -> None:
    assert pass_cycles(3, 3) == 7
    assert sum(busy_pes(3, 3, t) for t in range(7)) == 27  # 27 of 63 PE-slots work
    assert busy_pes(3, 3, 3) == 7  # "cycle 3 has seven PEs working"
    long, short = (round(100 * rows / pass_cycles(128, rows)) for rows in (2048, 128))
    assert (long, short) == (89, 34)
    assert_says(
        "chapters/27-asics-and-accelerators.md",
        "Out of 7 cycles × 9 PEs = 63 PE-slots, only 27 do work",
        "cycle 3 has seven PEs working",
        "the pass takes $M + 2N - 2$ cycles",
        f"a stream of 2,048 rows keeps it {long}% busy, a stream of 128 rows only {short}%",
    )


def test_the_calculator_says_what_happens_at_a_cycle() -> None:
    result = run("systolic", {"size": 3, "rows": 3, "cycle": 3})
    values = {output["key"]: output["value"] for output in result["outputs"]}
    assert values == {"busy": 7, "cycles": 7, "utilization": pytest.approx(100 * 3 / 7)}
    assert result["summary"] == (
        "Cycle 3 of the pass's 7 (0 to 6): 7 of 9 PEs work. Entering on the left: x[2,1] into row 1, x[1,2] into "
        "row 2. Leaving the bottom: y[1,0], y[0,1]. Over the whole pass each PE works 42.9 % of the cycles."
    )
    rows = result["table"]["rows"]
    assert rows[3] == ["▶ 3", "· x₂ x₁", "x₂ x₁ x₀", "x₁ x₀ ·", "y[1,0], y[0,1]"]
    assert rows[0] == ["0", "x₀ · ·", "· · ·", "· · ·", "—"]
    assert len(rows) == 7


def test_a_cycle_after_the_pass_shows_it_done() -> None:
    """Every cycle the form accepts computes (the player stops at the pass's end, from the `cycles` output)."""
    result = run("systolic", {"size": 3, "rows": 3, "cycle": 7})
    assert result["ok"]
    assert result["summary"].startswith("Cycle 7, after the pass's 7 (0 to 6): every sum has left: 0 of 9 PEs work.")
    assert all(not row[0].startswith("▶") for row in result["table"]["rows"])


@pytest.mark.parametrize("size", range(1, 9))
def test_every_pass_does_all_its_work_once(size: int) -> None:
    """Over any pass, each PE works once per input row and every output leaves exactly once."""
    for rows in (1, 2, 3, 5, 8, 13, 64):
        cycles = pass_cycles(size, rows)
        assert sum(busy_pes(size, rows, t) for t in range(cycles)) == rows * size * size
        left = [pair for t in range(cycles) for pair in leaving(size, rows, t)]
        assert sorted(left) == [(k, j) for k in range(rows) for j in range(size)]
        assert busy_pes(size, rows, cycles) == 0 and busy_pes(size, rows, -1) == 0
