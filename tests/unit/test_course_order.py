"""The book reads as a course: the nav's Lessons section is the reading order, the home page lists every lesson in
that order, and each lesson opens with an "Assumes:" line that names only pages before it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"


class _Loader(yaml.SafeLoader):
    """mkdocs.yml as data: MkDocs's own tags (!ENV, !relative) read as plain values."""


_Loader.add_multi_constructor("!", lambda loader, suffix, node: None)


def course() -> list[str]:
    """The pages of the nav's Lessons section, in order, as paths under docs/."""
    config: dict[str, Any] = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=_Loader)
    (lessons,) = [entry["Lessons"] for entry in config["nav"] if isinstance(entry, dict) and "Lessons" in entry]
    return [next(iter(item.values())) for item in lessons]


COURSE = course()


def test_the_course_starts_at_lesson_102_and_keeps_chapter_27_after_the_roofline() -> None:
    """Lesson 102 assumes nothing; chapter 27 leans on the roofline, so it comes after the roofline pages."""
    assert COURSE[0] == "lessons/102-ai-accelerators.md"
    assert COURSE.index("chapters/27-asics-and-accelerators.md") > COURSE.index("lessons/roofline.md")
    assert {"lessons/parallelism.md", "lessons/inference-at-scale.md"} <= set(COURSE)


def test_the_home_page_lists_every_lesson_in_course_order() -> None:
    """Every page of the course is linked from the home page's contents, in the nav's order."""
    home = (DOCS / "index.md").read_text(encoding="utf-8")
    contents = home[home.index("## Contents") : home.index("## How the pages work")]
    linked = re.findall(r"\]\(((?:lessons|chapters)/[^)#]+\.md)\)", contents)
    missing = [page for page in COURSE if page not in linked]
    assert missing == []
    first = [page for index, page in enumerate(linked) if page in COURSE and page not in linked[:index]]
    assert first == COURSE


@pytest.mark.parametrize("page", COURSE)
def test_each_lesson_says_what_it_assumes_and_assumes_only_earlier_pages(page: str) -> None:
    """The line after the title starts with "Assumes:"; every page it links comes before this one in the course."""
    lines = (DOCS / page).read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("# ")
    note = lines[2]
    assert note.startswith("**Assumes:**"), (page, note)
    here = (DOCS / page).parent
    for target in re.findall(r"\]\(([^)#]+\.md)", note):
        assumed = (here / target).resolve().relative_to(DOCS.resolve()).as_posix()
        assert COURSE.index(assumed) < COURSE.index(page), (page, assumed)
