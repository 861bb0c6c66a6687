"""extras/math_scan.py: arithmatex's inline formulas, searched for from the first `$` or backslash, are the same
formulas as arithmatex finds by itself, on every page of the book and on texts made to trip it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from markdown import Markdown

from mkdocs_calculators.extras.math_scan import EXTENSION, STARTS, StartsAt
from tests.support import ROOT

ARITHMATEX = {"pymdownx.arithmatex": {"generic": True}}
SITE_EXTENSIONS = ["attr_list", "md_in_html", "tables", "pymdownx.superfences", "pymdownx.arithmatex"]


def html(text: str, quick: bool) -> str:
    extensions = [*SITE_EXTENSIONS, *([EXTENSION] if quick else [])]
    return Markdown(extensions=extensions, extension_configs=ARITHMATEX).convert(text)


@pytest.mark.parametrize("page", sorted((ROOT / "docs").rglob("*.md")), ids=lambda path: path.name)
def test_every_page_of_the_book_comes_out_the_same(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    assert html(text, quick=True) == html(text, quick=False)


TRICKY = [
    "Costs $5 and $6, and the ridge $P/B$ is where they meet.",
    r"An escaped \$ is not math, $x$ is; \\$y$ after an escaped backslash is.",
    r"Round: \(a + b\) and \\(not\\) and \(\frac{1}{2}\).",
    "No math at all, only words and `code with $ in it`.",
    r"$$ and \\\( and a lone $ at the end $",
    "Prices: $1,000 to $2,000 per month.",
]


@pytest.mark.parametrize("text", TRICKY)
def test_texts_made_to_trip_it_come_out_the_same(text: str) -> None:
    assert html(text, quick=True) == html(text, quick=False)


def test_the_search_starts_at_the_first_dollar_or_backslash() -> None:
    compiled = re.compile(r"(?<!\\)(\$)([^$]+)(\$)")
    quick = StartsAt(compiled)
    text = "plain words " * 50 + r"and \$ not, but $x^2$ yes"
    assert [m.span() for m in quick.finditer(text, 3)] == [m.span() for m in compiled.finditer(text, 3)]
    assert quick.search(text).span() == compiled.search(text).span()  # type: ignore[union-attr]
    assert list(quick.finditer("no formula here " * 20)) == []
    assert quick.pattern == compiled.pattern and STARTS == ("$", "\\")


def test_the_extension_wraps_arithmatexs_inline_pattern_once() -> None:
    md = Markdown(extensions=[*SITE_EXTENSIONS, EXTENSION, EXTENSION], extension_configs=ARITHMATEX)
    wrapped = md.inlinePatterns["arithmatex-inline"].compiled_re
    assert isinstance(wrapped, StartsAt) and not isinstance(wrapped.compiled, StartsAt)
    plain = Markdown(extensions=[EXTENSION])  # without arithmatex there is nothing to wrap
    assert "arithmatex-inline" not in plain.inlinePatterns
