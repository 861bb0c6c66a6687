"""Stable ids: a block's anchor, its shared-link keys and its saved progress stay put when the page is edited around
it. Calculators are numbered among the page's blocks of their own kind (`calc-2` is the page's second calculator
whatever stands above it), or take the `id` their author gives them; a quiz or an exercise is anchored by its required
`id` (`quiz-first`), and carries the number it had among its kind (`data-old-anchor="quiz-1"`), which links made
before still use. Two blocks with one id stop the build at the second."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.build.sites import Build, build_fixture, parse_html

QUIZ = """```quiz
id: {id}
questions:
  - kind: single
    text: Which roof is lower at intensity 1?
    choices:
      - text: Memory bandwidth
        correct: true
      - text: Compute
```
"""

EXERCISE = """```exercise
id: {id}
title: Attainable throughput
prompt: Return the attainable throughput in TFLOP/s.
function: attainable(peak_tflops, bandwidth_tbs, intensity)
starter: |
  def attainable(peak_tflops, bandwidth_tbs, intensity):
      ...
solution: |
  def attainable(peak_tflops, bandwidth_tbs, intensity):
      return min(peak_tflops, bandwidth_tbs * intensity)
check:
  calculator: roofline
  output: attainable
  unit: TFLOP/s
  cases: 3
```
"""

TABLE = """```chips
chips: [h100-sxm, tpu-v5e]
columns: [bf16, bandwidth]
```
"""


def calculator(intensity: int, extra: str = "") -> str:
    """A roofline calculator told apart from the others by its intensity."""
    return f"```calculator\nuse: roofline\n{extra}intensity: {intensity}\n```\n"


BEFORE = "\n".join(
    [
        "# Before the edit\n",
        calculator(11),
        QUIZ.format(id="first"),
        calculator(22),
        TABLE,
        calculator(33, "id: named\n"),
        calculator(44),
        EXERCISE.format(id="ex-a"),
    ]
)
# Blocks of other kinds inserted above the second calculator, the quiz moved below it, the table removed.
EDITED = "\n".join(
    [
        "# After the edit\n",
        TABLE,
        calculator(11),
        EXERCISE.format(id="ex-b"),
        QUIZ.format(id="second"),
        TABLE,
        calculator(22),
        QUIZ.format(id="first"),
        calculator(33, "id: named\n"),
        calculator(44),
        EXERCISE.format(id="ex-a"),
    ]
)
# A calculator inserted above the named one: the numbered ones after it move, the named one does not.
INSERTED = "\n".join(["# A calculator inserted\n", calculator(11), calculator(55), calculator(33, "id: named\n")])


@pytest.fixture(scope="module")
def edited_site(tmp_path_factory: pytest.TempPathFactory) -> Build:
    files = {"docs/index.md": "# Home\n", "docs/before.md": BEFORE, "docs/edited.md": EDITED}
    files["docs/inserted.md"] = INSERTED
    return build_fixture(tmp_path_factory.mktemp("ids"), files)


def _anchors(build: Build, page: str) -> dict[str, str]:
    """Each block's anchor on a built page, keyed by what tells it apart: a calculator's intensity, a quiz's or an
    exercise's own id."""
    tree = parse_html(build.html(f"{page}/index.html"))
    found = {
        f"calculator {section.find('input', name='intensity').attrs['value']}": section.attrs["id"]
        for section in tree.find_all("section", class_="calc")
    }
    found |= {f"quiz {quiz.attrs['data-quiz']}": quiz.attrs["id"] for quiz in tree.find_all("div", class_="quiz")}
    found |= {
        f"exercise {exercise.attrs['data-exercise']}": exercise.attrs["id"]
        for exercise in tree.find_all("div", class_="exercise")
    }
    return found


def _old_anchors(build: Build, page: str) -> dict[str, str]:
    """Each quiz's and exercise's old, numbered anchor (its place among its kind) on a built page, keyed as above."""
    tree = parse_html(build.html(f"{page}/index.html"))
    return {
        f"{kind} {block.attrs[f'data-{kind}']}": block.attrs["data-old-anchor"]
        for kind in ("quiz", "exercise")
        for block in tree.find_all("div", class_=kind)
    }


def test_blocks_are_numbered_per_kind(edited_site: Build) -> None:
    """Before the edit: calculators count only calculators, and the named one takes its id (and not a number); a quiz
    and an exercise take theirs."""
    assert edited_site.returncode == 0, edited_site.output
    assert _anchors(edited_site, "before") == {
        "calculator 11": "calc-1",
        "calculator 22": "calc-2",
        "calculator 33": "calc-named",
        "calculator 44": "calc-4",
        "quiz first": "quiz-first",
        "exercise ex-a": "exercise-ex-a",
    }


def test_blocks_of_other_kinds_inserted_moved_or_removed_above_change_no_calculator_id(edited_site: Build) -> None:
    before, after = _anchors(edited_site, "before"), _anchors(edited_site, "edited")
    calculators = {block: anchor for block, anchor in before.items() if block.startswith("calculator")}
    assert {block: after[block] for block in calculators} == calculators
    assert after["quiz second"] == "quiz-second" and after["quiz first"] == "quiz-first"  # their ids, not places
    assert after["exercise ex-b"] == "exercise-ex-b" and after["exercise ex-a"] == "exercise-ex-a"


def test_quizzes_and_exercises_carry_their_old_numbered_anchors(edited_site: Build) -> None:
    """Each quiz and exercise carries the anchor it had when blocks were numbered among their own kind, so that a
    link made then (`edited/#quiz-2`) lands on the same block: quizzes count quizzes only."""
    assert _old_anchors(edited_site, "before") == {"quiz first": "quiz-1", "exercise ex-a": "exercise-1"}
    assert _old_anchors(edited_site, "edited") == {
        "quiz second": "quiz-1",
        "quiz first": "quiz-2",
        "exercise ex-b": "exercise-1",
        "exercise ex-a": "exercise-2",
    }


def test_a_named_calculator_keeps_its_id_when_a_calculator_is_inserted_above(edited_site: Build) -> None:
    assert _anchors(edited_site, "inserted") == {
        "calculator 11": "calc-1",
        "calculator 55": "calc-2",
        "calculator 33": "calc-named",
    }


def test_progress_keys_follow_the_authors_ids_not_the_place(edited_site: Build) -> None:
    """A quiz's and an exercise's saved progress is keyed by the page and the author's id: the same before and after."""
    for page in ("before", "edited"):
        tree = parse_html(edited_site.html(f"{page}/index.html"))
        quiz = tree.find("div", class_="quiz", data_quiz="first")
        assert quiz.attrs["data-quiz-key"] == f"quiz:docs/{page}.md#first"
        exercise = tree.find("div", class_="exercise", data_exercise="ex-a")
        assert exercise.attrs["data-exercise-key"] == f"exercise:docs/{page}.md#ex-a"


def test_the_books_pages_keep_the_ids_their_calculators_had(tmp_path: Path) -> None:
    """The pages written before ids were counted per kind name the calculators whose number would have changed, so
    that links readers made earlier (`#calc-3`, `?calc-3.intensity=50`) still open the same calculator."""
    from tests.support import ROOT

    expected = {
        "docs/lessons/102-ai-accelerators.md": ["1", "3", "4", "6", "7"],
        # The stepper and the FP4 comparison came after ids were counted per kind: each takes a name of its own.
        "docs/chapters/27-asics-and-accelerators.md": ["systolic", "2", "5", "compare-2026-fp4", "6"],
        "docs/lessons/roofline-exercises.md": ["2"],
    }
    from mkdocs_calculators.pages.fences import find_fences

    for name, ids in expected.items():
        fences = find_fences((ROOT / name).read_text(encoding="utf-8"), frozenset({"calculator"}))
        given = [
            next(
                (line.split(":")[1].split("#")[0].strip() for line in f.body.split("\n") if line.startswith("id:")),
                None,
            )
            for f in fences
        ]
        shown = [number if number is not None else str(place) for place, number in enumerate(given, start=1)]
        assert shown == ids, name
