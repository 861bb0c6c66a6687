"""The page renderer outside any host: a page's Markdown, its path and the book in; blocks and problems out."""

from __future__ import annotations

import pytest
from mkdocs.utils import get_relative_url

from calckit.book import load
from mkdocs_calculators.blocks import PageContext, kinds
from mkdocs_calculators.blocks.base import relative_url
from mkdocs_calculators.page import render_page

BOOK = load("calculators")
PAGE = PageContext("docs/lessons/x.md", BOOK, url="lessons/x/")


def test_blocks_render_without_mkdocs_each_at_its_anchor() -> None:
    """A chips table and a quiz above count for nothing in a calculator's number; the HTML replaces each fence."""
    markdown = "\n".join(
        [
            "# A page",
            "```chips\nchips: [h100-sxm]\ncolumns: [bf16]\n```",
            "```calculator\nuse: roofline\n```",
            "```quiz\nid: q\nquestions:\n  - kind: single\n    text: Which?\n    choices:\n"
            "      - text: This\n        correct: true\n      - text: That\n```",
            "```calculator\nuse: mbu\n```",
        ]
    )
    rendered = render_page(markdown, PAGE)
    assert rendered.problems == []
    assert [(block.kind, block.searchable) for block in rendered.blocks] == [
        ("table", True),
        ("calculator", False),
        ("quiz", True),
        ("calculator", False),
    ]
    html = rendered.markdown()
    assert '<section class="calc" id="calc-1" data-calculator="roofline"' in html
    assert '<section class="calc" id="calc-2" data-calculator="mbu"' in html
    assert '<div class="quiz" id="quiz-1"' in html
    assert "```" not in html


def test_problems_carry_the_path_and_the_files_line() -> None:
    """Lines count from the file's top: `offset` lines of front matter precede the Markdown."""
    rendered = render_page("# T\n\n```calculator\nuse: roofline\nintensity: -3\n```\n", PAGE, offset=3)
    assert [str(problem) for problem in rendered.problems] == [
        "docs/lessons/x.md:8: calculator 'roofline': 'intensity' must be >= 0.01 (got -3)"
    ]
    assert "This calculator block has problems" in rendered.blocks[0].html


def test_a_broken_package_is_shown_on_every_block_unread() -> None:
    rendered = render_page("```quiz\nnot: read\n```\n", PageContext("docs/x.md", None), broken="calculators: broken")
    assert rendered.problems == []
    assert "calculators: broken" in rendered.blocks[0].html


def test_every_kind_is_registered_once_by_name() -> None:
    names = [kind.name for kind in kinds()]
    assert names == ["calculator", "quiz", "exercise", "table"]


@pytest.mark.parametrize(
    ("url", "page"),
    [
        ("reference/calculators/", "lessons/x/"),
        ("reference/calculators/", ""),
        ("reference/calculators/", "."),
        ("reference/chips/", "reference/chips/"),
        ("reference/chips/", "index.html"),
        ("a/b/", "a/b/c/index.html"),
    ],
)
def test_links_to_generated_pages_are_relative_as_mkdocs_makes_them(url: str, page: str) -> None:
    assert relative_url(url, page or ".") == get_relative_url(url, page or ".")
