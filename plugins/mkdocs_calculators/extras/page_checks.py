"""Checks of a page's own Markdown that MkDocs lets pass in silence, each said as `docs/page.md:LINE: message`.

- Front matter that is not valid YAML: MkDocs then shows it as text at the top of the page, and drops the title.
- A footnote cited but never defined (Markdown prints `[^name]` as it is), or defined twice, or defined and never
  cited (the note and its source vanish from the page).

Code (fenced blocks and inline code spans) is left out: a guide that shows `[^h100]` as an example cites nothing.
"""

from __future__ import annotations

import re

import yaml

from ..pages.fences import find_fences
from ..pages.yaml_errors import describe_yaml_error
from ..problems import Problem

__all__ = ["footnote_problems", "front_matter_problem"]

_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
_DEFINITION = re.compile(r"^[ ]{0,3}\[\^([^\]\s]+)\]:")
_REFERENCE = re.compile(r"\[\^([^\]\s]+)\]")


def front_matter_problem(source: str, path: str) -> Problem | None:
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
        return Problem(path, 2 + line, f"front matter is {message}")
    except yaml.YAMLError as error:
        return Problem(path, 2, f"front matter is not valid YAML: {error}")
    if data is not None and not isinstance(data, dict):
        return Problem(path, 2, "front matter must be a mapping of keys, such as  title: My page")
    return None


def _prose_lines(markdown: str) -> list[tuple[int, str]]:
    """Each line outside fenced code, with inline code removed, numbered from 1."""
    code: set[int] = set()
    for fence in find_fences(markdown, None):
        code.update(range(fence.start, fence.end))
    lines = markdown.split("\n")
    return [(index + 1, _CODE_SPAN.sub("", line)) for index, line in enumerate(lines) if index not in code]


def footnote_problems(markdown: str, path: str, offset: int = 0) -> list[Problem]:
    """Footnotes cited without a definition, defined twice, or defined and never cited; lines count from `offset`."""
    defined: dict[str, int] = {}
    cited: dict[str, int] = {}
    problems: list[Problem] = []
    for number, line in _prose_lines(markdown):
        line_number = number + offset
        definition = _DEFINITION.match(line)
        if definition:
            name = definition[1]
            if name in defined:
                problems.append(
                    Problem(
                        path,
                        line_number,
                        f"footnote [^{name}] is defined twice (first at line {defined[name]})",
                        warning=True,
                    )
                )
            defined.setdefault(name, line_number)
            line = line[definition.end() :]
        for reference in _REFERENCE.finditer(line):
            cited.setdefault(reference[1], line_number)
    problems += [
        Problem(
            path,
            line,
            f"footnote [^{name}] is cited but never defined: add a line '[^{name}]: ...' with its source",
            True,
        )
        for name, line in cited.items()
        if name not in defined
    ]
    problems += [
        Problem(path, line, f"footnote [^{name}] is defined but never cited: cite it with [^{name}] or remove it", True)
        for name, line in defined.items()
        if name not in cited
    ]
    return sorted(problems, key=lambda problem: problem.line)
