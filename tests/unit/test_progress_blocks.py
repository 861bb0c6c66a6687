"""The quizzes and exercises that the progress views list: as their kinds hand them over when they render, and read
back from their rendered HTML (pages/progress_page.py) for a page another host built."""

from __future__ import annotations

from calckit.book import load
from mkdocs_calculators.blocks import PageContext
from mkdocs_calculators.i18n import ENGLISH, strings_for
from mkdocs_calculators.pages.page import render_page
from mkdocs_calculators.pages.progress_page import BlockItem, blocks_in

BOOK = load("calculators")
QUIZ = (
    "```quiz\nid: {id}\ntitle: {title}\nquestions:\n"
    "  - kind: single\n    text: Which?\n    choices:\n      - text: This\n        correct: true\n      - text: That\n"
    "  - kind: single\n    text: And?\n    choices:\n"
    "      - text: Right\n        correct: true\n      - text: Wrong\n```\n"
)
EXERCISE = """```exercise
id: attainable
title: Attainable throughput
prompt: Return the attainable throughput in TFLOP/s.
function: attainable(peak_tflops, bandwidth_tbs, intensity)
starter: |
  def attainable(peak_tflops, bandwidth_tbs, intensity):
      ...
solution: |
  def attainable(peak_tflops, bandwidth_tbs, intensity):
      return min(peak_tflops, bandwidth_tbs * intensity)
check:
  calculator: roofline
  output: attainable
  unit: TFLOP/s
  cases: 3
```
"""


def page_blocks(markdown: str) -> tuple[str, str]:
    """The HTML of the page's blocks alone, and of the whole page with them; what the blocks handed over as they
    rendered is what their HTML says."""
    rendered = render_page(markdown, PageContext("docs/x.md", BOOK, url="x/"))
    assert rendered.problems == []
    blocks = "".join(block.html for block in rendered.blocks)
    assert [block.progress for block in rendered.blocks if block.progress is not None] == blocks_in(blocks, ENGLISH)
    return blocks, rendered.markdown()


def test_each_quiz_and_exercise_with_its_title_and_size() -> None:
    markdown = "\n".join(
        [
            "# Page",
            QUIZ.format(id="first", title="The `roofline` in two questions"),
            "```calculator\nuse: roofline\n```\n",
            EXERCISE,
            QUIZ.format(id="second", title="Second"),
        ]
    )
    blocks, page = page_blocks(markdown)
    items = blocks_in(blocks, ENGLISH)
    assert [(item.kind, item.key, item.total, item.title, item.anchor) for item in items] == [
        ("quiz", "quiz:docs/x.md#first", 2, "The `roofline` in two questions", "quiz-first"),
        ("exercise", "exercise:docs/x.md#attainable", 1, "Attainable throughput", "exercise-attainable"),
        ("quiz", "quiz:docs/x.md#second", 2, "Second", "quiz-second"),
    ]
    assert all(len(item.version) == 12 for item in items)
    assert blocks_in(page, ENGLISH) == items  # the whole page's content says the same


def test_a_page_without_them_has_none() -> None:
    blocks, page = page_blocks("# Page\n\n```calculator\nuse: roofline\n```\n")
    assert blocks_in(blocks, ENGLISH) == blocks_in(page, ENGLISH) == []


def test_a_block_whose_title_is_missing_keeps_its_other_fields() -> None:
    html = (
        '<div class="quiz" id="quiz-q" aria-labelledby="nowhere" data-quiz-key="quiz:docs/x.md#q" '
        'data-quiz-version="v1">'
    )
    assert blocks_in(html, ENGLISH) == [BlockItem("quiz", "quiz:docs/x.md#q", "v1", 0, "", "quiz-q")]


def test_a_page_in_another_language_is_read_back_in_its_words() -> None:
    """A page another host built in French names its exercise "Exercice : ..." (the catalogue's words): read back with
    the book's strings, its title is the author's alone, as the progress page lists it."""
    french = strings_for("fr")
    rendered = render_page(EXERCISE, PageContext("docs/x.md", BOOK, url="x/", strings=french))
    blocks = "".join(block.html for block in rendered.blocks)
    assert "Exercice\u00a0: Attainable throughput" in blocks and ">Vérifier</button>" in blocks
    assert [item.title for item in blocks_in(blocks, french)] == ["Attainable throughput"]
    assert [block.progress for block in rendered.blocks] == blocks_in(blocks, french)
