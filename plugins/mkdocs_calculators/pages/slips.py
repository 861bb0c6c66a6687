"""Slips that would otherwise pass in silence: a fence named almost like a block kind, an author's page where the
plugin writes a generated one, a block's id that a heading of the page also has.

- ```` ```calcualtor ````, ```` ```Calculator ```` or ```` ```quizz ```` renders as code showing the YAML: a warning
  at its line says "did you mean ```calculator?" (strict builds stop on it).
- The ids of the plugin's blocks (`calc-1`, `quiz-roofline-check`, ...) are added to the page's anchors, so that
  MkDocs' `validation: anchors` knows them (the blocks' HTML goes in after MkDocs collected the anchors), and one that a
  heading or other element of the page also has is reported: a link to it would reach either.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable

from .fences import find_fences

__all__ = ["anchor_ids", "fence_name_slips"]

_ID = re.compile(r"""\sid=["']([^"']+)["']""")


def fence_name_slips(markdown: str, kinds: Iterable[str], offset: int = 0) -> list[tuple[int, str]]:
    """(file line, message) for each fence whose name is close to, but not, one of `kinds`. The fences are the ones
    the page renderer finds (`fences.find_fences`), so both agree on where a fence ends: fences inside another (an
    example in a guide) are content and left alone, and a block left open ends at the next fence that opens."""
    known = sorted(set(kinds))
    slips: list[tuple[int, str]] = []
    for fence in find_fences(markdown, None):
        name = fence.kind.lstrip("{").lstrip(".")
        if not name or name in known:
            continue
        close = [kind for kind in known if kind == name.lower()] or difflib.get_close_matches(
            name.lower(), known, n=1, cutoff=0.8
        )
        if close:
            slips.append(
                (
                    fence.line + offset,
                    f"a fence named '{name}' is shown as code: did you mean {fence.marks}{close[0]}? (block names are "
                    f"lower case: {', '.join(known)})",
                )
            )
    return slips


def anchor_ids(html: str) -> list[str]:
    """Every id in a block's HTML, its own first."""
    return _ID.findall(html)
