"""pymdownx.arithmatex's inline formulas, found without trying its pattern at every character of the book.

Python-Markdown looks for each inline pattern in every run of text of every page. Arithmatex's patterns open with a
lookbehind (a formula's `$` or `\\(` must not be escaped), so the regular expression engine cannot skip ahead to a
likely start: it tries every branch at every character. That was 58-60 ms of each build of this book (3,297
searches), a sixth of what the plugin adds to it. Every one of those patterns starts a match with `$` or a backslash,
so a search may begin at the first of them instead, found by `str.find`: same matches, the same lookbehinds (they
read the text before the start), and no work on a run of text that has neither.

The plugin appends this extension after arithmatex (hosts/mkdocs_site.py, add_arithmatex).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from typing import Any

from markdown import Extension, Markdown

__all__ = ["EXTENSION", "QuickInlineMath", "StartsAt", "makeExtension"]

EXTENSION = "mkdocs_calculators.extras.math_scan"
ARITHMATEX_INLINE = "arithmatex-inline"  # the name arithmatex registers its inline pattern under
STARTS = ("$", "\\")  # every inline pattern of arithmatex's starts a match with one of these


class StartsAt:
    """A compiled pattern whose matches all start with one of `starts`: its searches begin at the first of them."""

    def __init__(self, compiled: re.Pattern[str], starts: tuple[str, ...] = STARTS) -> None:
        self.compiled = compiled
        self.starts = starts

    def _first(self, string: str, pos: int) -> int:
        found = [at for at in (string.find(start, pos) for start in self.starts) if at >= 0]
        return min(found) if found else -1

    def finditer(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> Iterator[re.Match[str]]:
        first = self._first(string, pos)
        return iter(()) if first < 0 else self.compiled.finditer(string, first, endpos)

    def search(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        first = self._first(string, pos)
        return None if first < 0 else self.compiled.search(string, first, endpos)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.compiled, name)  # match, pattern, groups...: the pattern's own


class QuickInlineMath(Extension):
    def extendMarkdown(self, md: Markdown) -> None:
        md.registerExtension(self)
        if ARITHMATEX_INLINE in md.inlinePatterns:
            pattern = md.inlinePatterns[ARITHMATEX_INLINE]
            if not isinstance(pattern.compiled_re, StartsAt):
                pattern.compiled_re = StartsAt(pattern.compiled_re)


def makeExtension(**kwargs: Any) -> QuickInlineMath:
    return QuickInlineMath(**kwargs)
