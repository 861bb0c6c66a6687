"""What quizzes and exercises share as blocks an author writes: the fields they take, where in the author's data a
problem is, and the one error that lists every problem found.

A kind's fields are one table (`Field`s): the readers check an author's keys against it, the plugin's block kinds
declare their options from it, and the contributing guide's tables say the same.

The readers (`quiz_checks`, `exercise_checks`, on `reading`'s shared base) collect problems as they go and raise
`AuthoredError` with all of them; the build turns each `where` into a file and line.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from difflib import get_close_matches

__all__ = ["AuthoredError", "AuthoredProblem", "Field", "Where", "field_names", "unknown_key"]

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


@dataclass(frozen=True)
class Field:
    """One key an author may write: its name, what it holds (as messages and the guide say it), and whether a block
    needs it."""

    name: str
    holds: str
    required: bool = False


def field_names(fields: Iterable[Field]) -> tuple[str, ...]:
    return tuple(field.name for field in fields)


def unknown_key(key: str, allowed: Iterable[str], noun: str = "field") -> str:
    """The message for a key that is not one of `allowed`: "unknown field 'titel' (did you mean 'title'? expected
    one of: id, title, ...)"."""
    names = list(allowed)
    close = get_close_matches(key, names, n=1)
    hint = f"did you mean '{close[0]}'? " if close else ""
    return f"unknown {noun} '{key}' ({hint}expected one of: {', '.join(names)})"
