"""R6: HTML in an author's block reaches the page as text, even in the problem box of a non-strict build."""

from __future__ import annotations

import pytest

from calculators import CALCULATORS
from tests.build.sites import Build, article, build_fixture, parse_html

PAGE = """# Hostile blocks

```calculator
use: "<script>alert(1)</script>"
```

```calculator
use: roofline
intensity: <img src=x onerror=alert(1)>
```
"""
KNOWN = ", ".join(sorted(CALCULATORS))
MESSAGES = [
    f"docs/index.md:4: unknown calculator '<script>alert(1)</script>' (expected one of: {KNOWN})",
    "docs/index.md:9: calculator 'roofline': 'intensity' must be a number (got '<img src=x onerror=alert(1)>')",
]


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Build:
    return build_fixture(tmp_path_factory.mktemp("hostile"), {"docs/index.md": PAGE}, strict=False)


def test_non_strict_build_logs_the_problems_and_goes_on(hostile: Build) -> None:
    """Without strict mode the problems are still logged, and the page is still written."""
    assert hostile.returncode == 0, hostile.output
    assert hostile.errors() == MESSAGES
    assert (hostile.site / "index.html").is_file()


def test_problem_boxes_show_the_messages_as_text(hostile: Build) -> None:
    """Each broken block becomes a problem box whose items read exactly as the logged messages, markup included."""
    boxes = parse_html(article(hostile.html())).find_all("div", class_="calc-broken")
    assert [[item.text() for item in box.find_all("li")] for box in boxes] == [[message] for message in MESSAGES]


@pytest.mark.parametrize(
    ("tag", "raw", "escaped"),
    [
        ("script", "<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;"),
        ("img", "<img src=x onerror=alert(1)>", "&lt;img src=x onerror=alert(1)&gt;"),
    ],
)
def test_author_markup_is_escaped_in_the_page_body(tag: str, raw: str, escaped: str, hostile: Build) -> None:
    """The author's markup appears in the page body only escaped: no <script> or <img> element comes from it."""
    body = article(hostile.html())
    assert raw not in body
    assert escaped in body
    assert parse_html(body).find_all(tag) == []
