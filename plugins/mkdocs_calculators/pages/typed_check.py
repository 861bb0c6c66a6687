"""The hand-typed check: a number that the prose beside a calculator types by hand, where the calculator computes it.

A sentence next to a calculator block that says "20.6%" while the block shows 20.6% for its author's inputs is right
until the calculator, the chip database or the block changes; the value role ({value}`#calc-explorer.compute_share`)
would stay right. So every text line of the block's section (between the headings around it), outside fenced code,
code spans, roles and lines of raw HTML (a generated reference page's tables), is searched for the text of each
numeric output of the block ("20.6%", "1,979 W", as the calculator writes it, a line break or any space standing for
its space; not a bare one-digit number, which any sentence may count with), and each one found is a warning, which
stops a strict build:

    docs/x.md:12: "20.6%" is typed by hand; calculator #calc-explorer outputs it as 'compute_share'
    (write {value}`#calc-explorer.compute_share`)

A figure that is genuinely not the calculator's (a vendor's, a paper's) is marked {typed}`20.6%`: written as it is,
and left alone here.
"""

from __future__ import annotations

import bisect
import re
from typing import TYPE_CHECKING

from ..problems import Problem
from .roles import SCAN

if TYPE_CHECKING:
    from ..blocks.base import Followed
    from .fences import Fence

__all__ = ["typed_problems"]

_BARE_DIGIT = re.compile(r"^\d$")
_HEADING = re.compile(r"^ {0,3}#{1,6}(?:[ \t]|$)")
# What is not the prose's text: a link's address or a footnote's label, an HTML tag or comment, an attribute list.
_NOT_TEXT = re.compile(r"\]\([^)\n]*\)|\[\^[^\]\n]*\]|<!--.*?-->|<[^>\n]*>|\{[:#.][^}\n]*\}", re.DOTALL)


def typed_problems(
    markdown: str, path: str, fences: list[Fence], blocks: list[tuple[Fence, Followed]], offset: int
) -> list[Problem]:
    """Each number typed by hand in the section of a calculator block (`blocks`: each with what it outputs) that the
    block outputs, as a warning at its line; `fences` are every fenced block of the page, `offset` the lines above
    `markdown` in its file (front matter)."""
    lines = markdown.split("\n")
    inside = {index for fence in fences for index in range(fence.start, min(fence.end + 1, len(lines)))}
    headings = [index for index, line in enumerate(lines) if index not in inside and _HEADING.match(line)]
    found: dict[tuple[int, int], Problem] = {}  # by where in the page: two blocks of a section say it once
    for fence, source in blocks:
        if not source.outputs:
            continue
        above = bisect.bisect_left(headings, fence.start)
        first = headings[above - 1] + 1 if above else 0
        last = headings[above] if above < len(headings) else len(lines)
        text, starts = _prose(lines, first, last, inside)
        for key, shown in source.outputs.items():
            if _BARE_DIGIT.match(shown):  # "1", "8": any sentence counts with those, and says "one" for the result
                continue
            for match in _pattern(shown).finditer(text):
                line = first + bisect.bisect_right(starts, match.start()) - 1
                message = (
                    f"\"{shown}\" is typed by hand; calculator #{source.anchor} outputs it as '{key}' "
                    f"(write {{value}}`#{source.anchor}.{key}`)"
                )
                found.setdefault(
                    (line, match.start() - starts[line - first]),
                    Problem(path, line + offset + 1, message, warning=True),
                )
    return [found[where] for where in sorted(found)]


def _prose(lines: list[str], first: int, last: int, inside: set[int]) -> tuple[str, list[int]]:
    """Lines `first` to `last` (not included) as one text, every character that is not prose (fenced code, headings,
    lines of raw HTML, code spans, roles, links' addresses, tags) made a space, so that each keeps its place; and
    where each line starts."""
    kept: list[str] = []
    starts: list[int] = []
    at = 0
    for index in range(first, last):
        line = lines[index]
        if index in inside or _HEADING.match(line) or line.lstrip().startswith("<"):
            line = " " * len(line)
        else:
            line = SCAN.sub(lambda match: " " * len(match[0]), line)
            line = _NOT_TEXT.sub(lambda match: " " * len(match[0]), line)
        starts.append(at)
        kept.append(line)
        at += len(line) + 1
    return "\n".join(kept), starts


def _pattern(shown: str) -> re.Pattern[str]:
    """The output's text as a number of the prose: not inside a longer number or word, any space its space."""
    body = r"\s+".join(re.escape(part) for part in shown.split())
    return re.compile(rf"(?<![\w.,]){body}(?![\w%]|[.,]\d)")
