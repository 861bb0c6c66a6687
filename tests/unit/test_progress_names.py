"""The "Your progress" page names each quiz and exercise so that no two rows read the same, and a build keeps its list
for the next (pages/progress_page.py)."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

from mkdocs_calculators.extras.build_cache import BuildCache
from mkdocs_calculators.pages.progress_page import BlockItem, ProgressBook, progress_list

SHARED = "Compute-bound or memory-bandwidth-bound?"


def quiz(key: str, title: str) -> BlockItem:
    return BlockItem(kind="quiz", key=key, version="1", total=3, title=title, anchor=key.rsplit("#", 1)[1])


def link_texts(html: str) -> list[str]:
    return [
        unescape(re.sub(r"<[^>]+>", "", text))
        for text in re.findall(r"<li class=\"progress-item\".*?<a [^>]*>(.*?)</a>", html)
    ]


def test_two_quizzes_with_one_title_are_named_by_their_pages() -> None:
    book = ProgressBook("Book", "token")
    book.add("a.md", "102. AI accelerators", "../a/", "Lessons", [quiz("quiz:a.md#bound", SHARED)])
    book.add(
        "b.md",
        "Check yourself: the roofline",
        "../b/",
        "Lessons",
        [quiz("quiz:b.md#six", "The roofline in six questions"), quiz("quiz:b.md#bound", SHARED)],
    )
    assert link_texts(book.list_html(["a.md", "b.md"])) == [
        f"Quiz: {SHARED} (in \u201c102. AI accelerators\u201d)",
        "Quiz: The roofline in six questions",
        f"Quiz: {SHARED} (in \u201cCheck yourself: the roofline\u201d)",
    ]


def test_an_exercise_does_not_share_a_quizs_title() -> None:
    book = ProgressBook("Book", "token")
    exercise = BlockItem(kind="exercise", key="exercise:a.md#x", version="1", total=1, title=SHARED, anchor="x")
    book.add("a.md", "A", "../a/", "Lessons", [quiz("quiz:a.md#bound", SHARED), exercise])
    assert link_texts(book.list_html(["a.md"])) == [f"Quiz: {SHARED}", f"Exercise: {SHARED}"]


def test_the_list_is_kept_for_a_build_that_sees_the_same_blocks_in_the_same_order(tmp_path: Path) -> None:
    """progress_list reuses the list an earlier build made only when every page's title, address, section and
    blocks, the nav's order, the book and its slot are the same; anything else makes it again."""
    cache = BuildCache(tmp_path, "code")
    book = ProgressBook("Book", "token")
    book.add("a.md", "A", "../a/", "Lessons", [quiz("quiz:a.md#bound", SHARED)])
    book.add("b.md", "B", "../b/", "Lessons", [quiz("quiz:b.md#six", "Six questions")])
    made = progress_list(book, ["a.md", "b.md"], cache)
    assert made == book.list_html(["a.md", "b.md"])
    assert link_texts(made) == [f"Quiz: {SHARED}", "Quiz: Six questions"]
    cache.keep_progress_list(book.state(["a.md", "b.md"]), "kept")  # what the next build finds
    assert progress_list(book, ["a.md", "b.md"], cache) == "kept"
    assert link_texts(progress_list(book, ["b.md", "a.md"], cache)) == ["Quiz: Six questions", f"Quiz: {SHARED}"]
    book.add("b.md", "B", "../b/", "Lessons", [quiz("quiz:b.md#six", "Seven questions")])
    assert link_texts(progress_list(book, ["a.md", "b.md"], cache)) == [f"Quiz: {SHARED}", "Quiz: Seven questions"]
    assert progress_list(ProgressBook("Other", "token"), ["a.md"], cache) != "kept"
    assert BuildCache(tmp_path, "other code").progress_list(book.state(["a.md", "b.md"])) is None
