"""Reading an author's ```quiz block: YAML in the fence, or `file: NAME.yml` naming a YAML file beside the page.

The quiz schema and its checks live in the shared package (`calckit.quiz`); this module loads the YAML keeping the
line of every key and list entry, so that each problem the package finds comes back as `docs/page.md:LINE: message`
(or `docs/dir/NAME.yml:LINE: message` for a quiz kept in a file).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

import yaml

from .fences import Fence
from .yaml_errors import Loader, compose, describe_yaml_error

if TYPE_CHECKING:
    from calckit.quiz import Quiz, Where

__all__ = ["QuizBlock", "quiz_block_html", "read_quiz_block"]


@dataclass(frozen=True)
class QuizBlock:
    quiz: Quiz
    key: str  # where the reader's progress is saved: the page's path and the quiz's id
    id_line: str  # `path:line` of the quiz's id, for a problem found across the page's quizzes


class _Broken(Exception):
    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message


def quiz_block_html(
    fence: Fence, fence_line: int, uid: str, path: str, source: str | None, seen: set[str]
) -> tuple[str, list[str]]:
    """The HTML for one quiz fence on page `path` (source file `source`), and every problem as `path:line: message`.

    `seen` collects the ids of the page's quizzes, which must differ: progress is saved by id.
    """
    from .quiz_render import render_quiz
    from .render import render_problems

    block = read_quiz_block(fence, fence_line, path, source)
    if isinstance(block, list):
        return render_problems(block, "quiz"), block
    if block.quiz.id in seen:
        problem = (
            f"{block.id_line}: duplicate quiz id '{block.quiz.id}' on this page (each quiz saves progress under its id)"
        )
        return render_problems([problem], "quiz"), [problem]
    seen.add(block.quiz.id)
    return render_quiz(uid, block.quiz, block.key), []


def read_quiz_block(fence: Fence, fence_line: int, path: str, source: str | None) -> QuizBlock | list[str]:
    """The block's quiz, or every problem in it as `path:line: message`."""
    from calckit.quiz import QuizError, read_quiz

    where, text, first_line = path, fence.body, fence_line + 1
    try:
        data, lines = _load(text, first_line, "quiz block")
        lines[()] = fence_line
        if isinstance(data, dict) and "file" in data:
            where, text = _referenced(data, lines, path, source)
            data, lines = _load(text, 1, "quiz file")
            lines[()] = 1
    except _Broken as broken:
        return [f"{where}:{broken.line}: {broken.message}"]
    try:
        quiz = read_quiz(data)
    except QuizError as error:
        located = [(_line(problem.where, lines), problem.message) for problem in error.problems]
        located.sort(key=lambda pair: pair[0])  # stable: problems on one line keep their order
        return [f"{where}:{line}: {message}" for line, message in located]
    return QuizBlock(quiz, f"quiz:{path}#{quiz.id}", f"{where}:{_line(('id',), lines)}")


def _referenced(data: dict[str, Any], lines: dict[Where, int], path: str, source: str | None) -> tuple[str, str]:
    """The display path and text of the file that `file: NAME` names, beside the page."""
    line = lines[("file",)]
    others = [key for key in data if key != "file"]
    if others:
        raise _Broken(
            lines[(others[0],)],
            f"a quiz block that names a 'file' must hold nothing else (the quiz goes in the file; got also: "
            f"{', '.join(others)})",
        )
    name = data["file"]
    relative = PurePosixPath(name) if isinstance(name, str) and name.strip() else None
    if relative is None or relative.is_absolute() or ".." in relative.parts:
        raise _Broken(
            line, f"quiz 'file' must name a YAML file beside the page, such as 'file: quiz.yml' (got {name!r})"
        )
    shown = (PurePosixPath(path).parent / relative).as_posix()
    try:
        if source is None:
            raise OSError
        return shown, (Path(source).parent / relative).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        raise _Broken(line, f"quiz file '{name}' not found (looked for {shown})") from None


def _line(where: Where, lines: dict[Where, int]) -> int:
    """The line of the deepest part of `where` that the author wrote (a missing field: its mapping's line)."""
    for end in range(len(where), -1, -1):
        if where[:end] in lines:
            return lines[where[:end]]
    return lines[()]


def _load(text: str, first_line: int, what: str, block: str = "quiz") -> tuple[Any, dict[Where, int]]:
    """The YAML's data, keyed as written (`yes:` is 'yes'), and the file line of every key and list entry; `block`
    names the kind of block in messages."""
    try:
        loader, node = compose(text)
        try:
            lines: dict[Where, int] = {}
            data = _construct(loader, node, (), lines, first_line, block) if node is not None else None
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as error:
        line, message = describe_yaml_error(error, text)
        raise _Broken(first_line + line, f"{what} is {message}") from None
    return data, lines


def _construct(
    loader: Loader, node: yaml.Node, where: Where, lines: dict[Where, int], first: int, block: str = "quiz"
) -> Any:
    if isinstance(node, yaml.MappingNode):
        mapping: dict[str, Any] = {}
        for key_node, value_node in node.value:
            key = str(key_node.value) if isinstance(key_node, yaml.ScalarNode) else "?"
            line = first + key_node.start_mark.line
            if key in mapping:
                raise _Broken(line, f"{block} has the key '{key}' twice here (YAML would keep only the last)")
            lines[(*where, key)] = line
            mapping[key] = _construct(loader, value_node, (*where, key), lines, first, block)
        return mapping
    if isinstance(node, yaml.SequenceNode):
        items = []
        for index, child in enumerate(node.value):
            lines[(*where, index)] = first + child.start_mark.line
            items.append(_construct(loader, child, (*where, index), lines, first, block))
        return items
    return loader.construct_object(node, deep=True)
