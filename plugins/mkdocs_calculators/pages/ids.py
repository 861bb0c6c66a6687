"""Block ids on a page: what a block's anchor (`#calc-3`), its shared-link keys (`?calc-3.intensity=50`) and the
reader's saved inputs hang on, so that they must not move when an author edits the page around the block.

A block is numbered among the page's blocks of its own kind: the third calculator is `calc-3` whatever quizzes, tables
or exercises stand above it, and a block that fails to build keeps its number. An author who wants an id that survives
inserting a calculator above it too gives one (`id: h100-decode` makes `calc-h100-decode`). A quiz or an exercise has a
required id, which is its anchor (`quiz-roofline-check`); its number is kept only as the anchor that links made before
then name it by (blocks/base.py, NamedKind). Two blocks of a page with one id are a build error at the second one's
line.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter

__all__ = ["ID_RULE", "PageIds", "check_id"]

# Letters of any alphabet are welcome: `id: résistance` is the anchor `#calc-résistance`, which the browser sends
# percent-encoded (`#calc-r%C3%A9sistance`) and finds again decoded, and the shared-link key `?calc-résistance.volts=9`,
# which URLSearchParams decodes. Written composed (NFC), so that two ways of typing 'é' are one id.
_ID = re.compile(r"^[^\W_][\w-]*$")
ID_RULE = "letters (of any alphabet), digits, '-' and '_', starting with a letter or digit, such as 'h100-decode'"


def check_id(raw: object) -> str | None:
    """The id an author wrote (text, or a whole number), or None when it does not fit ID_RULE."""
    if isinstance(raw, bool) or not isinstance(raw, str | int):
        return None
    text = unicodedata.normalize("NFC", str(raw))
    return text if _ID.match(text) else None


class PageIds:
    """The ids handed out on one page, by kind."""

    def __init__(self) -> None:
        self._counts: Counter[str] = Counter()
        self._taken: dict[str, int] = {}  # anchor -> the file line of the block that has it

    def number(self, prefix: str) -> str:
        """The next block of this kind's numbered anchor, `calc-3`; called once per block, in page order."""
        self._counts[prefix] += 1
        return f"{prefix}-{self._counts[prefix]}"

    def claim(self, anchor: str, line: int) -> int | None:
        """Take `anchor` for the block at file line `line`; the line of the block that has it already, if one does."""
        first = self._taken.setdefault(anchor, line)
        return None if first == line else first
