"""What a site's search reads of a block: its HTML without the elements marked `data-search-exclude`.

A quiz's or an exercise's controls, status lines and hidden answers are marked so (blocks/quiz/render.py): search
skips them, but its parser still reads every tag of them, and on a page with twenty questions they are most of the
page's tags. A host that can put the whole block back after search has read the page (hosts/plugin.py) hands search
this part alone. Its text for search is the same; only what search skips unread is gone.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

__all__ = ["searched_part"]

_NEWLINE = re.compile("\n")
# Elements without an end tag: a marked one is cut alone.
_VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
)


class _Cutter(HTMLParser):
    """The spans of `html` (start, end) that the elements marked data-search-exclude take, outermost only."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=False)
        self._html = html
        self._line_starts = [0, *(newline.end() for newline in _NEWLINE.finditer(html))]  # for getpos's lines
        self.cuts: list[tuple[int, int]] = []
        self._start = -1  # where the marked element being cut starts; -1 outside one
        self._depth = 0  # elements open inside it, itself included
        self.balanced = True

    def _here(self) -> int:
        line, column = self.getpos()
        return self._line_starts[line - 1] + column

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self._start >= 0:
            self._depth += tag not in _VOID
            return
        if not any(name == "data-search-exclude" for name, _ in attrs):
            return
        start = self._here()
        if tag in _VOID:
            self.cuts.append((start, start + len(self.get_starttag_text() or "")))
        else:
            self._start, self._depth = start, 1

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self._start < 0 and any(name == "data-search-exclude" for name, _ in attrs):
            start = self._here()
            self.cuts.append((start, start + len(self.get_starttag_text() or "")))

    def handle_endtag(self, tag: str) -> None:
        if self._start < 0 or tag in _VOID:
            return
        self._depth -= 1
        if self._depth == 0:
            self.cuts.append((self._start, self._html.index(">", self._here()) + 1))
            self._start = -1

    def close(self) -> None:
        super().close()
        self.balanced = self._start < 0


def searched_part(html: str) -> str:
    """`html` without each element marked data-search-exclude (its tags and all it holds). HTML whose marked elements
    do not close is given whole: search then skips them itself."""
    if "data-search-exclude" not in html:
        return html
    cutter = _Cutter(html)
    cutter.feed(html)
    cutter.close()
    if not cutter.balanced:
        return html
    kept, at = [], 0
    for start, end in cutter.cuts:
        kept.append(html[at:start])
        at = end
    kept.append(html[at:])
    return "".join(kept)
