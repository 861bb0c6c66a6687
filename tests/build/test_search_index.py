"""Search: a page's prose is indexed, and what authors wrote in its blocks; its calculators' forms and the controls of
its quizzes and exercises are not (they would crowd every result)."""

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
  - id: kernels
    kind: sort
    text: Put each kernel under its roof.
    buckets:
      - {id: compute, text: Bound by arithmetic}
      - {id: memory, text: Bound by the memory bus}
    items:
      - {text: A large-batch matmul, bucket: compute}
      - {text: An elementwise vector add, bucket: memory}
  - id: attainable
    kind: numeric
    text: "{intensity} FLOP/byte on the default chip: how many TFLOP/s?"
    inputs: {intensity: 60}
    answer: {calculator: roofline, output: attainable}
    unit: TFLOP/s
    tolerance: 2%
```

```exercise
id: attainable
title: Attainable throughput
prompt: Return the throughput that the kernel reaches under both roofs.
function: attainable(peak_tflops, bandwidth_tbs, intensity)
starter: |
  def attainable(peak_tflops, bandwidth_tbs, intensity):
      ...
solution: |
  def attainable(peak_tflops, bandwidth_tbs, intensity):
      return min(peak_tflops, bandwidth_tbs * intensity)
hints:
  - The lower of the two roofs wins.
check:
  calculator: roofline
  output: attainable
  unit: TFLOP/s
  cases: 3
```
"""

# The words of the quiz's and the exercise's controls, instructions and state (each as the English catalogue has
# it), and what they keep hidden until the reader asks: none of it is what a reader searches the book for, and a
# word such as "Check" or "Reset" would otherwise find every page with a quiz.
CHROME = [
    "Question 1 of 3",
    "Choose one answer",
    "Try again",
    "Score: 0 of 3",
    "Reset quiz",
    "Undo reset",
    "Previous",
    "Not sorted yet",
    "Pick an item",
    "Your answer",
    "Answers are checked by a script",
    "Your progress here",
    "Your code",
    "Reset my code",
    "Keep my code",
    "Hint 1",
    "The lower of the two roofs wins.",
    "Show a solution",
    "One way to write it",
    "It reads every weight",
]


def test_the_written_page_has_every_block_and_the_index_has_the_quiz(build: Build) -> None:
    """A calculator reaches the written page whole (it is kept out of the content that search parses, then put in
    its slot), while a quiz's questions are still found by search."""
    assert build.returncode == 0, build.output
    html = (build.site / "quiz/index.html").read_text(encoding="utf-8")
    assert "data-calculators-slot" not in html and "CALCBLOCK" not in html and "data-calculators-from" not in html
    assert html.count('class="quiz-actions"') == 3 and html.count('class="exercise-controls"') == 1  # whole again
    assert html.count('data-calculator="roofline"') == 1 and "Reset to defaults" in html
    assert html.index("separates memory-bound kernels") < html.index('data-calculator="roofline"')
    assert html.index('data-calculator="roofline"') < html.index("the prose goes on about arithmetic intensity")
    index = json.loads((build.site / "search/search_index.json").read_text(encoding="utf-8"))
    text = " ".join(doc["text"] for doc in index["docs"] if doc["location"].startswith("quiz/"))
    assert "Which side of the ridge point is a batch-1 decode step on?" in text
    assert "Reset to defaults" not in text


def test_the_index_has_what_a_quiz_and_an_exercise_say_and_none_of_their_controls(build: Build) -> None:
    """What the author wrote is found (questions, choices, buckets and items, the exercise's task and starter, the
    prose after them); the plugin's own words around it and what waits behind a button are not, though every one of
    them is on the written page."""
    assert build.returncode == 0, build.output
    index = json.loads((build.site / "search/search_index.json").read_text(encoding="utf-8"))
    text = " ".join(doc["text"] for doc in index["docs"] if doc["location"].startswith("quiz/"))
    authored = [
        "The memory-bound side",
        "Put each kernel under its roof.",
        "Bound by arithmetic",
        "Bound by the memory bus",
        "An elementwise vector add",
        "FLOP/byte on the default chip: how many TFLOP/s?",
        "Exercise: Attainable throughput",
        "Return the throughput that the kernel reaches under both roofs.",
        "def attainable(peak_tflops, bandwidth_tbs, intensity):",
    ]
    assert [words for words in authored if words not in text] == []
    assert [words for words in CHROME if words in text] == []
    html = (build.site / "quiz/index.html").read_text(encoding="utf-8")
    assert [words for words in CHROME if words not in html] == []
