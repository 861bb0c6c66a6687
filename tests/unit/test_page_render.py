"""The page renderer outside any host: a page's Markdown, its path and the book in; blocks and problems out."""

from __future__ import annotations

import re

import pytest
from mkdocs.utils import get_relative_url

from calckit.book import load
from mkdocs_calculators.blocks import PageContext, kinds
from mkdocs_calculators.blocks.base import relative_url
from mkdocs_calculators.pages.page import render_page

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
    # What search reads: a table whole, a quiz without its controls, no calculator.
    assert [(block.kind, block.searched is not None) for block in rendered.blocks] == [
        ("table", True),
        ("calculator", False),
        ("quiz", True),
        ("calculator", False),
    ]
    table, quiz = rendered.blocks[0], rendered.blocks[2]
    assert table.searched == table.html
    assert quiz.searched is not None and "Which?" in quiz.searched and "Check" not in quiz.searched
    html = rendered.markdown()
    assert '<section class="calc" id="calc-1" data-calculator="roofline"' in html
    assert '<section class="calc" id="calc-2" data-calculator="mbu"' in html
    assert '<div class="quiz" id="quiz-q" role="group" aria-labelledby="quiz-q-title" data-old-anchor="quiz-1" ' in html
    assert "```" not in html


QUIZ = (
    "```quiz\nid: {}\nquestions:\n  - kind: single\n    text: Which?\n    choices:\n"
    "      - text: This\n        correct: true\n      - text: That\n```"
)
EXERCISE = (
    "```exercise\nid: {}\ntitle: Attainable\nprompt: Return it.\nfunction: attainable(peak_tflops, bandwidth_tbs, "
    "intensity)\nstarter: |\n  def attainable(peak_tflops, bandwidth_tbs, intensity):\n      ...\nsolution: |\n"
    "  def attainable(peak_tflops, bandwidth_tbs, intensity):\n"
    "      return min(peak_tflops, bandwidth_tbs * intensity)\n"
    "check:\n"
    "  calculator: roofline\n  output: attainable\n  unit: TFLOP/s\n  cases: 2\n```"
)


def _roots(html: str, kind: str) -> list[tuple[str, str | None]]:
    """(id, data-old-anchor) of each quiz's or exercise's own element, in page order."""
    roots = []
    for tag in re.findall(rf'<div class="{kind}" ([^>]*)>', html):
        old = re.search(r'data-old-anchor="([^"]*)"', tag)
        roots.append((re.findall(r'(?:^| )id="([^"]*)"', tag)[0], old[1] if old else None))
    return roots


def test_quizzes_and_exercises_are_anchored_by_their_ids_and_keep_their_old_numbers() -> None:
    """A quiz is #quiz-ID and an exercise #exercise-ID, wherever they stand; each carries the numbered anchor it had
    before (its place among its kind, a broken one counted), for entry.js to send old links on; a block whose id
    makes that very anchor carries none."""
    markdown = "\n".join(
        [
            "# A page",
            QUIZ.format("basics"),
            EXERCISE.format("roof"),
            "```calculator\nuse: roofline\n```",
            "```quiz\nid: broken\n```",  # no questions: a problem, but it keeps its number (quiz-2)
            QUIZ.format("3"),  # the third quiz: quiz-3 both ways
            QUIZ.format("wrap-up"),
            EXERCISE.format("1"),  # the second exercise, whose id makes the first one's old anchor
        ]
    )
    rendered = render_page(markdown, PAGE)
    assert [problem.message for problem in rendered.problems] == [
        "quiz has no 'questions' (expected a list of questions)"
    ]
    html = rendered.markdown()
    assert _roots(html, "quiz") == [("quiz-basics", "quiz-1"), ("quiz-3", None), ("quiz-wrap-up", "quiz-4")]
    assert _roots(html, "exercise") == [("exercise-roof", "exercise-1"), ("exercise-1", "exercise-2")]
    assert 'id="calc-1"' in html  # a calculator keeps its number
    assert 'id="quiz-basics-title"' in html and 'id="quiz-basics-q1"' in html  # its parts hang on its anchor
    assert 'id="quiz-1' not in html and 'id="quiz-2' not in html  # no numbered quiz anchor is left


@pytest.mark.parametrize("block", [QUIZ, EXERCISE])
def test_two_blocks_of_a_kind_with_one_id_stop_at_the_second(block: str) -> None:
    rendered = render_page("\n".join(["# A page", block.format("same"), "", block.format("same")]), PAGE)
    kind = block.removeprefix("```").split("\n")[0]
    saves = "saves progress" if kind == "quiz" else "saves the reader's code"
    assert [str(problem) for problem in rendered.problems] == [
        f"docs/lessons/x.md:{4 + block.count(chr(10)) + 1}: duplicate {kind} id 'same' on this page (each {kind} "
        f"{saves} under its id)"
    ]
    assert f'id="{kind}-same"' in rendered.blocks[0].html
    assert "has problems" in rendered.blocks[1].html


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


@pytest.mark.parametrize("ids", [("basics", "basics-q1"), ("basics-q1", "basics")])
def test_a_quiz_whose_anchor_is_another_quizs_part_stops_at_the_second(ids: tuple[str, str]) -> None:
    """The quiz `basics` has a question `quiz-basics-q1`, which is the anchor of the quiz `basics-q1`: in either
    order, the second of them is a problem, so that no id is on the page twice."""
    rendered = render_page("\n".join(["# A page", QUIZ.format(ids[0]), QUIZ.format(ids[1])]), PAGE)
    second = 3 + QUIZ.count("\n")
    assert [str(problem) for problem in rendered.problems] == [
        f"docs/lessons/x.md:{second}: quiz: its element id 'quiz-basics-q1' is one that the block at line 2 has "
        "already (ids are made from the blocks' 'id's): give one of them another 'id'"
    ]
    assert 'id="quiz-basics-q1"' in rendered.blocks[0].html
    assert "has problems" in rendered.blocks[1].html
