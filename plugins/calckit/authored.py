"""What quizzes and exercises share as blocks an author writes: where in the author's data a problem is, and the one
error that lists every problem found.

The readers (`quiz_checks`, `exercise_checks`, on `reading`'s shared base) collect problems as they go and raise
`AuthoredError` with all of them; the build turns each `where` into a file and line.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["AuthoredError", "AuthoredProblem", "Where"]

Where = tuple[str | int, ...]  # a path into the author's data: ("questions", 2, "choices", 0, "text")


@dataclass(frozen=True)
class AuthoredProblem:
    """A problem and where it is; `code_line` is a line inside the code at `where` (1 for its first), if it is in
    code (an exercise's starter or solution)."""

    where: Where
    message: str
    code_line: int | None = None


class AuthoredError(ValueError):
    """Everything wrong with a quiz or an exercise, each problem with where it is in the author's data."""

    def __init__(self, problems: Iterable[AuthoredProblem]) -> None:
        self.problems = tuple(problems)
        super().__init__("; ".join(problem.message for problem in self.problems))
