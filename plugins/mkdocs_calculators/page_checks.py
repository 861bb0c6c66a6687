"""Checks of a page's own Markdown that MkDocs lets pass in silence, each said as `docs/page.md:LINE: message`.

- Front matter that is not valid YAML: MkDocs then shows it as text at the top of the page, and drops the title.
- A footnote cited but never defined (Markdown prints `[^name]` as it is), or defined twice, or defined and never
  cited (the note and its source vanish from the page).

Code (fenced blocks and inline code spans) is left out: a guide that shows `[^h100]` as an example cites nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import yaml

from .yaml_errors import describe_yaml_error

__all__ = ["PageProblem", "footnote_problems", "front_matter_problem"]

_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})")
_CLOSING = re.compile(r"^[ \t]*(`{3,}|~{3,})[ \t]*$")
_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
_DEFINITION = re.compile(r"^[ ]{0,3}\[\^([^\]\s]+)\]:")
_REFERENCE = re.compile(r"\[\^([^\]\s]+)\]")


@dataclass(frozen=True)
class PageProblem:
    line: int
    message: str
    fatal: bool = False  # an error (the page is wrong) rather than a warning (something is missing)


def front_matter_problem(source: str) -> PageProblem | None:
    """The problem with the page's front matter (between `---` lines at its top), if there is one."""
    lines = source.split("\n")
    if not lines or lines[0].rstrip() != "---":
        return None
    end = next((index for index, line in enumerate(lines[1:], start=1) if line.rstrip() in ("---", "...")), None)
    if end is None:
        return None  # a thematic break, not front matter
    text = "\n".join(lines[1:end])
    try:
        data = yaml.safe_load(text)
    except yaml.MarkedYAMLError as error:
        line, message = describe_yaml_error(error, text)
        return PageProblem(2 + line, f"front matter is {message}", fatal=True)
    except yaml.YAMLError as error:
        return PageProblem(2, f"front matter is not valid YAML: {error}", fatal=True)
    if data is not None and not isinstance(data, dict):
        return PageProblem(2, "front matter must be a mapping of keys, such as  title: My page", fatal=True)
    return None


def _prose_lines(markdown: str) -> list[tuple[int, str]]:
    """Each line outside fenced code, with inline code removed, numbered from 1."""
    lines: list[tuple[int, str]] = []
    fence = ""
    for number, line in enumerate(markdown.split("\n"), start=1):
        if fence:
            closing = _CLOSING.match(line)
            if closing and closing[1][0] == fence[0] and len(closing[1]) >= len(fence):
                fence = ""
            continue
        if opening := _FENCE.match(line):
            fence = opening[1]
            continue
        lines.append((number, _CODE_SPAN.sub("", line)))
    return lines


def footnote_problems(markdown: str, offset: int = 0) -> list[PageProblem]:
    """Footnotes cited without a definition, defined twice, or defined and never cited; lines count from `offset`."""
    defined: dict[str, int] = {}
    cited: dict[str, int] = {}
    problems: list[PageProblem] = []
    for number, line in _prose_lines(markdown):
        line_number = number + offset
        definition = _DEFINITION.match(line)
        if definition:
            name = definition[1]
            if name in defined:
                problems.append(
                    PageProblem(line_number, f"footnote [^{name}] is defined twice (first at line {defined[name]})")
                )
            defined.setdefault(name, line_number)
            line = line[definition.end() :]
        for reference in _REFERENCE.finditer(line):
            cited.setdefault(reference[1], line_number)
    problems += [
        PageProblem(line, f"footnote [^{name}] is cited but never defined: add a line '[^{name}]: ...' with its source")
        for name, line in cited.items()
        if name not in defined
    ]
    problems += [
        PageProblem(line, f"footnote [^{name}] is defined but never cited: cite it with [^{name}] or remove it")
        for name, line in defined.items()
        if name not in cited
    ]
    return sorted(problems, key=lambda problem: problem.line)
