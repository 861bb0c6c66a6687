"""Reading an author's ```exercise block: YAML whose problems come back as `docs/page.md:LINE: message`.

The exercise's schema, its checks and its cases live in the shared package (`calckit.exercise`); this module
loads the YAML keeping the line of every key (as quizzes do) and turns each problem into the file's line, down to the
line inside the starter or the solution where Python found a syntax error or the solution raised.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .fences import Fence
from .quizzes import _Broken, _line, _load

if TYPE_CHECKING:
    from calckit.exercise import Exercise

__all__ = ["ExerciseBlock", "exercise_block_html", "read_exercise_block"]


@dataclass(frozen=True)
class ExerciseBlock:
    exercise: Exercise
    key: str  # where the reader's code and progress are saved: the page's path and the exercise's id
    id_line: str  # `path:line` of the exercise's id


def exercise_block_html(
    fence: Fence, fence_line: int, uid: str, path: str, seen: set[str], calculators_page: str
) -> tuple[str, list[str]]:
    """The HTML for one exercise fence on page `path`, and every problem as `path:line: message`.

    `seen` collects the ids of the page's exercises, which must differ: the reader's code is saved by id.
    `calculators_page` is the address of the calculator reference from this page.
    """
    from .exercise_render import render_exercise
    from .render import render_problems

    block = read_exercise_block(fence, fence_line, path)
    if isinstance(block, list):
        return render_problems(block, "exercise"), block
    if block.exercise.id in seen:
        problem = (
            f"{block.id_line}: duplicate exercise id '{block.exercise.id}' on this page (each exercise saves the "
            "reader's code under its id)"
        )
        return render_problems([problem], "exercise"), [problem]
    seen.add(block.exercise.id)
    return render_exercise(uid, block.exercise, block.key, calculators_page), []


def read_exercise_block(fence: Fence, fence_line: int, path: str) -> ExerciseBlock | list[str]:
    """The block's exercise, or every problem in it as `path:line: message`."""
    from calckit.exercise import ExerciseError, read_exercise

    try:
        data, lines = _load(fence.body, fence_line + 1, "exercise block", "exercise")
    except _Broken as broken:
        return [f"{path}:{broken.line}: {broken.message}"]
    lines[()] = fence_line
    try:
        exercise = read_exercise(data)
    except ExerciseError as error:
        located = []
        for problem in error.problems:
            line = _line(problem.where, lines)
            code_line = getattr(problem, "code_line", None)
            if code_line is not None and problem.where in lines:
                line += code_line if _block_scalar(fence.body, line - fence_line - 1) else code_line - 1
            located.append((line, problem.message))
        located.sort(key=lambda pair: pair[0])
        return [f"{path}:{line}: {message}" for line, message in located]
    return ExerciseBlock(exercise, f"exercise:{path}#{exercise.id}", f"{path}:{_line(('id',), lines)}")


def _block_scalar(body: str, index: int) -> bool:
    """Whether the key on line `index` of the body holds a block scalar (`starter: |`): it starts on the next line."""
    lines = body.split("\n")
    if not 0 <= index < len(lines):
        return False
    _, _, value = lines[index].partition(":")
    return value.strip()[:1] in ("|", ">")
