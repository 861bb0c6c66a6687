"""Search: a page's prose is indexed, its calculators' forms are not (they would crowd every result)."""

from __future__ import annotations

import json

import pytest

from tests.build.sites import Build, build_fixture
from tests.support import NODE_MODULES

PAGE = """# Rooflines

The ridge point separates memory-bound kernels from compute-bound ones.

```calculator
use: roofline
```

After the calculator, the prose goes on about arithmetic intensity.
"""


@pytest.fixture(scope="module")
def build(tmp_path_factory: pytest.TempPathFactory) -> Build:
    """One strict build, with MkDocs' search plugin, of a page with a calculator (index.md) and of the same page with
    a quiz after it (quiz.md)."""
    plugins = ["search", {"calculators": {"node_modules": str(NODE_MODULES), "snapshot": False}}]
    files = {"docs/index.md": PAGE, "docs/quiz.md": PAGE + QUIZ}
    return build_fixture(tmp_path_factory.mktemp("search"), files, plugins=plugins)


def test_forms_stay_out_of_the_index_and_prose_stays_in(build: Build) -> None:
    assert build.returncode == 0, build.output
    index = json.loads((build.site / "search/search_index.json").read_text(encoding="utf-8"))
    text = " ".join(doc["text"] for doc in index["docs"] if doc["location"] == "" or doc["location"].startswith("#"))
    assert "separates memory-bound kernels" in text
    assert "the prose goes on about arithmetic intensity" in text  # the exclusion ends with the calculator
    assert "Reset to defaults" not in text and "Peak compute" not in text


QUIZ = """
```quiz
id: intensity-check
questions:
  - id: ridge
    kind: single
    text: Which side of the ridge point is a batch-1 decode step on?
    choices:
      - text: The memory-bound side
        correct: true
        explanation: It reads every weight for about one FLOP per byte.
      - text: The compute-bound side
        explanation: That needs hundreds of FLOPs per byte.
```
"""


def test_the_written_page_has_every_block_and_the_index_has_the_quiz(build: Build) -> None:
    """A calculator reaches the written page whole (it is kept out of the content that search parses, then put in
    its slot), while a quiz's questions are still found by search."""
    assert build.returncode == 0, build.output
    html = (build.site / "quiz/index.html").read_text(encoding="utf-8")
    assert "data-calculators-slot" not in html and "CALCBLOCK" not in html
    assert html.count('data-calculator="roofline"') == 1 and "Reset to defaults" in html
    assert html.index("separates memory-bound kernels") < html.index('data-calculator="roofline"')
    assert html.index('data-calculator="roofline"') < html.index("the prose goes on about arithmetic intensity")
    index = json.loads((build.site / "search/search_index.json").read_text(encoding="utf-8"))
    text = " ".join(doc["text"] for doc in index["docs"])
    assert "Which side of the ridge point is a batch-1 decode step on?" in text
    assert "Reset to defaults" not in text
