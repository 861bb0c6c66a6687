"""A lesson's text as a reader reads it, for tests that check a sentence quotes the figure a calculator computes.

The tests build each expected phrase from the calculator's value, so a change in the calculators or the chip database
fails the test of every sentence that quotes the old figure, with the phrase the page should now contain. A figure
that the page computes itself ({value}`...`, pages/values.py) is read as the build writes it.
"""

from __future__ import annotations

import re
from functools import cache
from html import unescape
from pathlib import Path

from calckit.book import current
from mkdocs_calculators.blocks import PageContext
from mkdocs_calculators.pages.page import render_page

DOCS = Path(__file__).resolve().parents[2] / "docs"


def as_read(source: str, page: str) -> str:
    """`source`, the Markdown of docs/`page`, as a reader reads it: its computed values written as the build writes
    them, their elements' tags taken away, and each run of whitespace (line breaks and a list's indent included) made
    one space, so that a sentence reads whole."""
    context = PageContext(f"docs/{page}", current(), source=str(DOCS / page), url=page.removesuffix(".md") + "/")
    rendered = render_page(source, context)
    assert rendered.problems == [], rendered.problems
    # A value's text has Markdown's syntax characters as references ("&#36;0.74"): read as the reader sees them.
    read = re.sub(r"<data [^>]*>([^<]*)</data>", lambda value: unescape(value[1]), rendered.markdown())
    return " ".join(read.split())


@cache
def page_source(page: str) -> str:
    """The page's Markdown with each run of whitespace (line breaks and a list's indent included) made one space."""
    return re.sub(r"\s+", " ", (DOCS / page).read_text(encoding="utf-8"))


@cache
def page_text(page: str) -> str:
    """The page docs/`page` as a reader reads it (as_read)."""
    return as_read((DOCS / page).read_text(encoding="utf-8"), page)


def assert_says(page: str, *phrases: str) -> None:
    """Each phrase is in the page as read, or in its Markdown: a calculator block's own lines (`params_b: 70.6`)."""
    for phrase in phrases:
        said = re.sub(r"\s+", " ", phrase)
        assert said in page_text(page) or said in page_source(page), f"docs/{page} should say: {phrase!r}"
