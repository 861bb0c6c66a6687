"""```exercise: the reader writes a Python function, checked against the book's package on cases the author lists or
draws from declared ranges.

The schema, its checks and the cases live in the shared package (`calckit.exercise`); each problem it finds is
reported at its line of the page, down to the line inside the starter or the solution where Python found a syntax
error or the solution raised.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from calckit.exercise import EXERCISE

from ...pages.reference import CALCULATORS_PAGE
from ..base import Authored, Named, NamedKind, Option, authored_problems
from ..hooks import BlockItem, Browser, Progress
from .render import exercise_version, render_exercise

if TYPE_CHECKING:
    from calckit.exercise import Exercise

__all__ = ["KIND", "ExerciseKind", "ExerciseModel"]


@dataclass(frozen=True)
class ExerciseModel:
    exercise: Exercise
    named: Named  # its anchor, `exercise-ID`, and where the reader's code and progress are saved (page path and id)


def _progress_item(model: ExerciseModel, block: Authored) -> BlockItem:
    exercise = model.exercise
    title = " ".join(exercise.title.split())
    return BlockItem("exercise", model.named.key, exercise_version(exercise), 1, title, model.named.anchor)


class ExerciseKind(NamedKind[ExerciseModel]):
    name = "exercise"
    title = "exercise"
    anchor = "exercise"
    saves = "saves the reader's code"
    # exercise.js loads the editor (editor.js) and exercise.css itself, and runs the reader's code in
    # exercise_worker.js; the page keeps Python's runtime offline as a calculator's does.
    browser = Browser("exercise.js", "[data-exercise]", "mountExercises")
    # Each exercise is one item of the reader's progress: solved or not.
    progress = Progress(
        "Exercise",
        _progress_item,
        title_prefix="Exercise: ",
        label_key="progress.label.exercise",
        title_key="exercise.title",
        name_key="progress.kind.exercise",
    )
    options: ClassVar = Option.table(EXERCISE)  # calckit's table of an exercise's keys, which it reads

    def read(self, block: Authored) -> ExerciseModel:
        from calckit.exercise import ExerciseError
        from calckit.exercise_checks import read_exercise

        loaded = block.load("exercise block", "exercise")
        try:
            exercise = read_exercise(loaded.data, block.book.calculators, block.book.package)
        except ExerciseError as error:

            def code_line(line: int, number: int) -> int:  # the code's first line: the key's, or the next (`code: |`)
                return line + (number if _block_scalar(block.fence.body, line - block.line - 1) else number - 1)

            raise authored_problems(error, block.page.path, loaded, code_line) from None
        return ExerciseModel(exercise, self.named(block, exercise.id, block.page.path, loaded.line(("id",))))

    def render(self, model: ExerciseModel, block: Authored) -> str:
        exercise = model.exercise
        calculator = block.book.calculator(exercise.calculator) if exercise.calculator else None
        named, link = model.named, block.page.link(CALCULATORS_PAGE)
        return render_exercise(
            named.anchor,
            model.exercise,
            named.key,
            link,
            calculator,
            block.page.text,
            block.page.strings,
            named.old_anchor,
        )


def _block_scalar(body: str, index: int) -> bool:
    """Whether the key on line `index` of the body holds a block scalar (`starter: |`): it starts on the next line."""
    lines = body.split("\n")
    if not 0 <= index < len(lines):
        return False
    _, _, value = lines[index].partition(":")
    return value.strip()[:1] in ("|", ">")


KIND = ExerciseKind()
