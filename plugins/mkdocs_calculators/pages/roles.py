"""The roles an author writes in a page's prose, as MyST writes them, and what they share: where they are in a line
(outside code spans), the error that says what is wrong with one, and "did you mean".

    {value}`roofline.ridge chip=h100-sxm`   a number a calculator computes (values.py)
    {input}`#calc-1.intensity`              an input of a calculator block of the page, adjustable (adjustables.py)
    {typed}`1,979 W`                        a figure typed on purpose, quoted from a source (typed_check.py)
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from difflib import get_close_matches
from html import escape
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Mapping

    from ..blocks.base import Followed

__all__ = ["ROLES", "Refused", "block_named", "did_you_mean", "has_role", "inline_text", "roles"]

ROLES = ("value", "input", "typed")
# A code span (skipped: a role shown as code stays code) or a role: {value}`...`
SCAN = re.compile(r"(?P<ticks>`+)[^\n]*?(?P=ticks)|\{(?P<role>value|input|typed)\}`(?P<spec>[^`\n]+)`")


# A role's element goes into the page's Markdown before it is converted (page.py): in its text, what Markdown and its
# extensions read as syntax is written as a character reference, so that "$0.74" starts no formula (arithmatex pairs
# dollars across a paragraph) and "*" or "_" no emphasis.
_MARKDOWN = str.maketrans({char: f"&#{ord(char)};" for char in "$*_`\\~^[]{}|"})


def inline_text(text: str) -> str:
    """`text` as the HTML text of a role's element, safe from Markdown and its extensions."""
    return escape(text).translate(_MARKDOWN)


class Refused(ValueError):
    """What is wrong with one role, as its message says it."""


def has_role(text: str) -> bool:
    """Whether a line may hold a role (a quick test before the scan)."""
    return any(f"{{{role}}}`" in text for role in ROLES)


def roles(text: str) -> Iterator[tuple[int, int, str, str]]:
    """Each role in one line outside code spans: where it starts and ends, which role, and what it says."""
    for match in SCAN.finditer(text):
        if match["spec"] is not None:
            yield match.start(), match.end(), match["role"], match["spec"].strip()


def did_you_mean(word: str, known: Any, otherwise: str = "") -> str:
    close = get_close_matches(word, list(known), n=1)
    return f" (did you mean '{close[0]}'?)" if close else otherwise


def block_named(name: str, followed: Mapping[str, Followed]) -> Followed:
    """The calculator block of the page that `#calc-ID` names, or Refused saying which there are."""
    source = followed.get(name.removeprefix("#"))
    if source is None:
        known = ", ".join(f"#{anchor}" for anchor in followed) or "none"
        hint = did_you_mean(name.removeprefix("#"), followed)
        raise Refused(f"no calculator on this page is {name}{hint} (its calculators: {known})")
    return source
