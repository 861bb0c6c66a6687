"""T5 for the exercises' editor (bench.figures.editor_figures), on downloads made up for the purpose: `make bench`
measures real ones, and is not run by the tests."""

from __future__ import annotations

import pytest

from bench.figures import BenchError, editor_figures, is_editor

VIEW = "/assets/calculators/editor/codemirror-view.js"
STATE = "/assets/calculators/editor/codemirror-state.js"
ENTRY = "/assets/calculators/editor.js"
GZIPPED = {VIEW: 119_684, STATE: 34_950, ENTRY: 1_500}


def test_what_counts_as_the_editor() -> None:
    """The vendored modules and their entry; not the exercise component, whose page needs it anyway."""
    assert is_editor(VIEW) and is_editor(ENTRY)
    assert not is_editor("/assets/calculators/exercise.js")
    assert not is_editor("/assets/calculators/entry.js")


def test_no_editor_bytes_without_an_exercise_meets_the_target() -> None:
    home = [("/", 30_000), ("/assets/calculators/entry.js", 3_000)]
    with_exercise = [(VIEW, 495_588), (STATE, 147_400), (ENTRY, 5_000), ("/lessons/x/", 40_000)]
    none, size = editor_figures(home, with_exercise, GZIPPED)
    assert (none.measured, none.target, none.met) == (0, 0, True)
    assert none.detail == "no request"
    assert size.measured == pytest.approx(156.134)  # kB gzipped, of the three files loaded
    assert size.target is None and size.detail == "3 files, 647,988 B as sent"


def test_editor_bytes_on_a_page_without_an_exercise_miss_the_target() -> None:
    home = [("/", 30_000), (ENTRY, 5_000)]
    none, _ = editor_figures(home, [(VIEW, 495_588)], GZIPPED)
    assert (none.measured, none.met) == (5_000, False)
    assert none.detail == "1 request"


def test_files_the_exercise_page_did_not_load_are_named() -> None:
    _, size = editor_figures([], [(VIEW, 495_588)], GZIPPED)
    assert size.measured == pytest.approx(119.684)
    assert size.detail.endswith(f"not loaded: {ENTRY}, {STATE}")


def test_an_exercise_page_that_loads_no_editor_is_a_broken_measurement() -> None:
    with pytest.raises(BenchError, match="downloaded no editor file"):
        editor_figures([], [("/lessons/x/", 40_000)], GZIPPED)
