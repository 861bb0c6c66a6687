"""A lesson's text, for tests that check a sentence quotes the figure a calculator computes.

The tests build each expected phrase from the calculator's value, so a change in the calculators or the chip database
fails the test of every sentence that quotes the old figure, with the phrase the page should now contain.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

DOCS = Path(__file__).resolve().parents[2] / "docs"


@cache
def page_text(page: str) -> str:
    """The page's Markdown with each run of whitespace (line breaks and a list's indent included) made one space."""
    return re.sub(r"\s+", " ", (DOCS / page).read_text(encoding="utf-8"))


def assert_says(page: str, *phrases: str) -> None:
    text = page_text(page)
    for phrase in phrases:
        assert re.sub(r"\s+", " ", phrase) in text, f"docs/{page} should say: {phrase!r}"
