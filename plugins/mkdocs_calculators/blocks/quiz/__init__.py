"""```quiz: YAML in the fence, or `file: NAME.yml` naming a YAML file beside the page.

The quiz schema and its checks live in the shared package (`calckit.quiz`); each problem it finds comes back with
where in the data it is, and is reported at that line of the page (or of the quiz's file).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any, ClassVar

from calckit.quiz_checks import QUIZ

from ...pages.yaml_source import Loaded, YamlProblem, load_yaml
from ...problems import Problem
from ..base import Authored, Named, NamedKind, Option, Problems, authored_problems
from ..hooks import BlockItem, Browser, Progress
from .render import QuizHtml, authored_html, quiz_version, render_quiz

if TYPE_CHECKING:
    from calckit.quiz import Quiz

__all__ = ["KIND", "QuizKind", "QuizModel"]


@dataclass(frozen=True)
class QuizModel:
    quiz: Quiz
    html: QuizHtml  # what the author wrote, as HTML (Markdown with the page's extensions)
    named: Named  # its anchor, `quiz-ID`, and where the reader's progress is saved: the page's path and the quiz's id


def _progress_item(model: QuizModel, block: Authored) -> BlockItem:
    quiz = model.quiz
    title = " ".join((quiz.title or "Quiz").split())
    return BlockItem("quiz", model.named.key, quiz_version(quiz), len(quiz.questions), title, model.named.anchor)


def _question_count(tag: Mapping[str, str]) -> int:
    """How many questions a built quiz has, from its tag's data (a page another host built)."""
    try:
        return len(json.loads(tag.get("data-quiz-data", "")).get("questions", []))
    except (ValueError, AttributeError):
        return 0


class QuizKind(NamedKind[QuizModel]):  # its keys are calckit's table (calckit.quiz_checks.QUIZ), and `file`
    name = "quiz"
    title = "quiz"
    anchor = "quiz"
    saves = "saves progress"
    # quiz.js (and quiz_*.js, one per kind of question) grades it in the browser; quiz.css styles it on every page.
    browser = Browser("quiz.js", "[data-quiz]", "mountQuizzes", near_viewport=True, page_styles=("quiz.css",))
    # Each quiz is one item of the reader's progress, as many steps as it has questions.
    progress = Progress(
        "Quiz", _progress_item, _question_count, label_key="progress.label.quiz", name_key="progress.kind.quiz"
    )
    options: ClassVar = {
        **Option.table(QUIZ),
        "file": Option("a YAML file beside the page that holds the quiz instead"),
    }

    def read(self, block: Authored) -> QuizModel:
        from calckit.quiz import QuizError
        from calckit.quiz_checks import read_quiz

        where = block.page.path
        loaded = block.load("quiz block", "quiz")
        if isinstance(loaded.data, dict) and "file" in loaded.data:
            where, text = _referenced(block, loaded)
            try:
                loaded = load_yaml(text, 1, 1, "quiz file", "quiz")
            except YamlProblem as broken:
                raise Problems([Problem(where, broken.line, broken.message)]) from None
        try:
            quiz = read_quiz(loaded.data, block.book.calculators)
        except QuizError as error:
            raise authored_problems(error, where, loaded, lambda line, _: line) from None
        named = self.named(block, quiz.id, where, loaded.line(("id",)))
        html, problems = authored_html(quiz, block.page.text)
        if problems:
            raise Problems([Problem(where, loaded.line(at), message) for at, message in problems])
        return QuizModel(quiz, html, named)

    def render(self, model: QuizModel, block: Authored) -> str:
        named = model.named
        return render_quiz(named.anchor, model.quiz, model.html, named.key, block.page.strings, named.old_anchor)


def _referenced(block: Authored, loaded: Loaded) -> tuple[str, str]:
    """The display path and text of the file that `file: NAME` names, beside the page."""
    data: dict[str, Any] = loaded.data
    line = loaded.line(("file",))
    others = [key for key in data if key != "file"]
    if others:
        message = (
            "a quiz block that names a 'file' must hold nothing else (the quiz goes in the file; got also: "
            f"{', '.join(others)})"
        )
        raise Problems([block.problem(loaded.line((others[0],)), message)])
    name = data["file"]
    relative = PurePosixPath(name) if isinstance(name, str) and name.strip() else None
    if relative is None or relative.is_absolute() or ".." in relative.parts:
        message = f"quiz 'file' must name a YAML file beside the page, such as 'file: quiz.yml' (got {name!r})"
        raise Problems([block.problem(line, message)])
    shown = (PurePosixPath(block.page.path).parent / relative).as_posix()
    try:
        return shown, block.page.read_beside(relative)
    except (OSError, UnicodeDecodeError):
        raise Problems([block.problem(line, f"quiz file '{name}' not found (looked for {shown})")]) from None


KIND = QuizKind()
