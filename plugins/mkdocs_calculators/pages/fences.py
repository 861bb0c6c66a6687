"""Finding the plugin's fenced blocks in a page's Markdown, with the line each starts on; and every fenced block, for
the page checks that must leave code alone (`page_checks`): one scanner, so that both agree on where code is.

The plugin does this itself rather than through superfences, which swallows exceptions raised in a formatter. The
rule is CommonMark's: a fence closes only at a line of the same mark (backtick or tilde), at least as many of them,
and nothing else; so a fence inside another fenced block (a Markdown example in a guide, four backticks around three)
is left alone, and a ````` ````quiz ````` block may hold ```` ```python ```` fences in its explanations.

A block opened with three backticks cannot: the inner ```` ```python ```` line would be a fence of its own. One of
the plugin's blocks that meets a fence with an info string and as many marks before its closing line ends there,
unclosed, and the author is told which at the block's own line: a block left open (the next block follows), or,
when that fence is indented under the block's keys, fenced code inside its text, which needs a longer outer fence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Fence", "find_fences", "replace_fences", "unclosed_message"]

_OPEN = re.compile(r"^(?P<indent>[ \t]*)(?P<marks>`{3,}|~{3,})[ \t]*(?P<info>[^\n`]*?)[ \t]*$")


@dataclass(frozen=True)
class Fence:
    kind: str  # the first word of the info string: 'calculator', 'quiz'
    line: int  # 1-based line of the opening fence, in the text that was searched
    body: str  # the lines between the fences, the fence's indentation removed
    start: int  # index of the opening line
    end: int  # index one past the closing line (or of the last line when the fence is not closed)
    indent: str
    closed: bool
    marks: str = "```"  # the opening fence's backticks or tildes, which its closing line must repeat
    # When the block ended unclosed at a fence indented under it (code in a quiz's explanation): that line's index,
    # and its opening (```python).
    inner: tuple[int, str] | None = None


def find_fences(text: str, kinds: frozenset[str] | None) -> list[Fence]:
    """Every fenced block whose info string starts with one of `kinds` (every fenced block for None), in order."""
    lines = text.split("\n")
    found: list[Fence] = []
    index = 0
    while index < len(lines):
        opening = _OPEN.match(lines[index])
        if not opening:
            index += 1
            continue
        marks = opening["marks"]
        closing = re.compile(rf"^[ \t]*{re.escape(marks[0])}{{{len(marks)},}}[ \t]*$")
        kind = opening["info"].split(" ")[0].strip()
        indent = opening["indent"]
        end = index + 1
        inner: tuple[int, str] | None = None
        while end < len(lines) and not closing.match(lines[end]):
            if _wanted(kind, kinds) and (other := _opens_another(lines[end], marks)):
                inner = (end, other["marks"] + other["info"]) if len(other["indent"]) > len(indent) else None
                break
            end += 1
        closed = end < len(lines) and closing.match(lines[end]) is not None
        if _wanted(kind, kinds):
            body = [
                line[len(indent) :] if line.startswith(indent) else line.lstrip() for line in lines[index + 1 : end]
            ]
            stop = end + 1 if closed else end
            found.append(
                Fence(kind, index + 1, "\n".join(body), index, min(stop, len(lines)), indent, closed, marks, inner)
            )
        index = end + 1 if closed or not _wanted(kind, kinds) else end
    return found


def _wanted(kind: str, kinds: frozenset[str] | None) -> bool:
    return kinds is None or kind in kinds


def _opens_another(line: str, marks: str) -> re.Match[str] | None:
    """A fence with an info string that `marks` could not hold as content: a new block, or fenced code that needs a
    longer fence around it; either way, ours cannot go on past it."""
    opening = _OPEN.match(line)
    if opening and opening["info"] and opening["marks"][0] == marks[0] and len(opening["marks"]) >= len(marks):
        return opening
    return None


def unclosed_message(fence: Fence, line: int) -> str:
    """What an author reads for a block that was opened at file line `line` and never closed."""
    if fence.inner is not None:
        index, inner = fence.inner
        longer = fence.marks[0] * (len(inner) - len(inner.lstrip(fence.marks[0])) + 1)
        return (
            f"the {fence.marks}{fence.kind} block opened at line {line} holds a fence, {inner} at line "
            f"{line + index - fence.start}, which would close it: open the block with {longer}{fence.kind} and close "
            f"it with {longer}, more {_mark_name(longer)} than any fence inside it"
        )
    return f"the {fence.marks}{fence.kind} block opened at line {line} is not closed: add a {fence.marks} line after it"


def _mark_name(marks: str) -> str:
    return "backticks" if marks[0] == "`" else "tildes"


def replace_fences(text: str, replacements: list[tuple[Fence, str]]) -> str:
    """`text` with each fence's lines replaced by its text, indented like the fence."""
    lines = text.split("\n")
    for fence, replacement in sorted(replacements, key=lambda pair: pair[0].start, reverse=True):
        lines[fence.start : fence.end] = [fence.indent + replacement]
    return "\n".join(lines)
