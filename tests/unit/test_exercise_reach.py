"""What of an exercise's solution its cases run (calckit.exercise_reach, through exercise_run.check_code)."""

from __future__ import annotations

from pathlib import Path

from calckit.exercise_reach import is_solution_file, measured
from calckit.exercise_run import check_code

CLAMP = (
    "def clamp(x):\n"  # 1
    "    if x < 0:\n"  # 2
    "        x = 0\n"  # 3
    "    for step in range(int(x)):\n"  # 4
    "        if step > 100:\n"  # 5
    "            x = None\n"  # 6
    "            break\n"  # 7
    "    return x\n"  # 8
)


def clamp_data(*xs: float) -> dict[str, object]:
    cases = [{"inputs": {"x": x}, "expected": None if x > 101 else max(x, 0.0)} for x in xs]
    tolerance = {"amount": 1e-9, "relative": True}
    return {"function": "clamp", "parameters": ["x"], "floats": ["x"], "cases": cases, "tolerance": tolerance}


def test_every_part_run_leaves_nothing_unreached() -> None:
    result = check_code(CLAMP, clamp_data(-1, 2.5, 300))
    assert result["ok"] and result["unreached"] == []


def test_a_line_no_case_runs_is_named_once_for_its_run_of_lines() -> None:
    result = check_code(CLAMP, clamp_data(-1, 2.5))
    # Lines 6 and 7 never run (no x past 101): the first is named; line 5's `if` never going on to 6 is not said.
    assert result["ok"]
    assert result["unreached"] == [{"line": 6, "to": None}]


def test_a_branch_no_case_takes_is_named_with_where_it_goes() -> None:
    # Only a negative x: the `if` on line 2 never goes on to line 4 without line 3; the loop never runs its body.
    assert check_code(CLAMP, clamp_data(-1))["unreached"] == [{"line": 2, "to": 4}, {"line": 5, "to": None}]
    # No negative x: line 3 never runs, which says all (the `if` never going to it is not said again).
    assert check_code(CLAMP, clamp_data(2.5, 300))["unreached"] == [{"line": 3, "to": None}]


def test_a_branch_that_leaves_the_function_is_named_as_such() -> None:
    code = "def first(x):\n    for step in range(3):\n        if step >= x:\n            return step\n"
    data = {
        "function": "first",
        "parameters": ["x"],
        "floats": [],
        "cases": [{"inputs": {"x": 1}, "expected": 1}],
        "tolerance": {"amount": 1e-9, "relative": True},
    }
    # The loop always returns from inside: no case runs it out and leaves the function from line 2 (returning None).
    assert check_code(code, data)["unreached"] == [{"line": 2, "to": 0}]


def test_a_failing_solution_reports_its_failure_not_its_reach() -> None:
    result = check_code(CLAMP.replace("return x", "return -x"), clamp_data(2.5))
    assert not result["ok"] and result["unreached"] == []


def test_the_solutions_file_is_written_only_to_be_read_and_then_removed() -> None:
    seen: list[tuple[str, bool]] = []

    def run(filename: str) -> int:
        seen.append((filename, Path(filename).exists()))
        exec(compile("y = 1\nif y:\n    y = 2\n", filename, "exec"), {})
        return 7

    ran, unreached = measured("y = 1\nif y:\n    y = 2\n", run)
    assert ran == 7 and unreached == [{"line": 2, "to": 0}]
    ((filename, existed),) = seen
    assert is_solution_file(filename) and not existed and not Path(filename).exists()


def test_an_error_in_the_solution_keeps_its_line() -> None:
    result = check_code("def clamp(x):\n    return 1 / 0\n", clamp_data(1))
    assert result["failure"] is not None and result["failure"]["error"] is not None
    assert result["failure"]["error"]["line"] == 2
