"""What search reads of a block (pages/searched.py): the block without its parts marked data-search-exclude, from
which Material's search takes the same text as from the whole block."""

from __future__ import annotations

from pathlib import Path

import pytest
from material.plugins.search.plugin import Parser

from calckit.book import current
from mkdocs_calculators.blocks import PageContext
from mkdocs_calculators.pages.page import render_page
from mkdocs_calculators.pages.searched import searched_part

DOCS = Path(__file__).resolve().parents[2] / "docs"


def search_reads(html: str) -> list[tuple[str, str]]:
    """Each section's title and text, as Material's search plugin indexes `html`."""
    parser = Parser()
    parser.feed(html)
    parser.close()
    return [("".join(section.title), "".join(section.text)) for section in parser.data]


@pytest.mark.parametrize(
    ("html", "read"),
    [
        ("<p>kept</p>", "<p>kept</p>"),
        ('<p>a<input data-search-exclude name="x">b<br data-search-exclude/>c</p>', "<p>abc</p>"),
        (
            "<ul><li data-search-exclude>x</li><li>y</li>\n<li data-search-exclude>\n<b>z</b>\n</li></ul>",
            "<ul><li>y</li>\n</ul>",
        ),
        ("<template data-search-exclude><p>why</p></template><p>q</p>", "<p>q</p>"),
    ],
)
def test_the_marked_elements_go_with_all_they_hold(html: str, read: str) -> None:
    assert searched_part(html) == read
    assert search_reads(searched_part(html)) == search_reads(html)


def test_a_marked_element_goes_whole_where_material_reads_on_after_a_nested_one_of_its_tag() -> None:
    """Material's parser tells elements apart by their tag alone: it reads a marked <div> again after the first
    </div> inside it. The part leaves the whole marked element out; the plugin's own blocks mark no element that holds
    one of its own tag, so that search reads the same of them either way (the book's pages, below)."""
    html = "<div><p>kept</p><div data-search-exclude><div>in</div><p>gone</p></div><p>after</p></div>"
    assert searched_part(html) == "<div><p>kept</p><p>after</p></div>"
    assert search_reads(searched_part(html)) == [("", "<p>kept</p><p>after</p>")]
    assert search_reads(html) == [("", "<p>kept</p><p>gone</p><p>after</p>")]


def test_a_marked_element_left_open_gives_the_block_whole() -> None:
    html = "<div><p>kept</p><div data-search-exclude><p>gone</p></div>"
    assert searched_part(html + "</div>") == "<div><p>kept</p></div>"
    assert searched_part("<p>kept</p><div data-search-exclude><p>never closed</p>") == (
        "<p>kept</p><div data-search-exclude><p>never closed</p>"
    )


@pytest.mark.parametrize(
    "page", ["lessons/102-ai-accelerators.md", "lessons/roofline-quiz.md", "lessons/roofline-exercises.md"]
)
def test_search_reads_the_same_of_the_books_quizzes_and_exercises_from_their_part(page: str) -> None:
    """Every block of the page that search indexes gives search the same sections and text from the part as from
    the whole block, and a quiz's or an exercise's part is a good deal smaller."""
    context = PageContext(f"docs/{page}", current(), source=str(DOCS / page), url=page.removesuffix(".md") + "/")
    rendered = render_page((DOCS / page).read_text(encoding="utf-8"), context)
    searched = [block for block in rendered.blocks if block.searched is not None]
    assert {block.kind for block in searched} & {"quiz", "exercise"}
    for block in searched:
        assert block.searched is not None
        assert search_reads(block.searched) == search_reads(block.html), block.fence.line
        if block.kind in ("quiz", "exercise"):
            assert len(block.searched) < 0.8 * len(block.html), block.fence.line
    assert [block.searched for block in rendered.blocks if block.kind == "calculator"] == [None] * sum(
        block.kind == "calculator" for block in rendered.blocks
    )
