"""The plugin's fence finder: which blocks it takes, where they start, what their bodies are."""

from __future__ import annotations

from calckit.book import load
from mkdocs_calculators.blocks import PageContext
from mkdocs_calculators.pages.fences import find_fences, replace_fences, unclosed_message
from mkdocs_calculators.pages.page import render_page
from mkdocs_calculators.pages.slips import fence_name_slips

KINDS = frozenset({"calculator", "quiz"})


def test_finds_blocks_with_their_lines_and_bodies() -> None:
    text = "# Title\n\n```calculator\nuse: roofline\n```\n\ntext\n\n~~~~ quiz\nq: 1\n~~~~\n"
    fences = find_fences(text, KINDS)
    assert [(f.kind, f.line, f.body, f.closed) for f in fences] == [
        ("calculator", 3, "use: roofline", True),
        ("quiz", 9, "q: 1", True),
    ]


def test_other_fences_and_fences_inside_them_are_left_alone() -> None:
    """A guide that shows a calculator block inside a Markdown example must not get a calculator."""
    text = "````markdown\n```calculator\nuse: roofline\n```\n````\n\n```python\nx = 1\n```\n"
    assert find_fences(text, KINDS) == []


def test_indented_fence_loses_its_indent_and_keeps_it_in_the_replacement() -> None:
    text = "!!! note\n\n    ```calculator\n    use: roofline\n      # nested\n    ```\n"
    (fence,) = find_fences(text, KINDS)
    assert (fence.line, fence.indent, fence.body) == (3, "    ", "use: roofline\n  # nested")
    assert replace_fences(text, [(fence, "TOKEN")]) == "!!! note\n\n    TOKEN\n"


def test_unclosed_fence_runs_to_the_end() -> None:
    (fence,) = find_fences("```calculator\nuse: roofline\n", KINDS)
    assert not fence.closed and fence.body == "use: roofline\n"


def test_a_shorter_closing_fence_does_not_close() -> None:
    (fence,) = find_fences("````calculator\nuse: roofline\n```\n````\n", KINDS)
    assert fence.closed and fence.body == "use: roofline\n```"


def test_replacement_keeps_surrounding_lines() -> None:
    text = "a\n```calculator\nuse: roofline\n```\nb\n```calculator\nuse: roofline\n```\nc"
    fences = find_fences(text, KINDS)
    assert replace_fences(text, [(fences[0], "ONE"), (fences[1], "TWO")]) == "a\nONE\nb\nTWO\nc"


# A quiz whose explanation holds fenced code, as an author writes it (the code indented under `explanation: |`).
QUIZ_WITH_CODE = """id: q
questions:
  - kind: single
    text: Which?
    explanation: |
      Run this:

      ```python
      x = 1
      ```
    choices:
      - text: This
        correct: true
      - text: That
"""


def test_a_longer_outer_fence_holds_fenced_code_as_its_text() -> None:
    """CommonMark's rule: ```` closes only at ```` or longer, so the ``` lines inside are the quiz's own text."""
    markdown = f"# T\n\n````quiz\n{QUIZ_WITH_CODE}````\n\nafter\n"
    (fence,) = find_fences(markdown, KINDS)
    assert fence.closed and fence.inner is None
    assert "      ```python\n      x = 1\n      ```\n" in fence.body and fence.body.endswith("- text: That")
    rendered = render_page(markdown, PageContext("docs/x.md", load("calculators"), url="x/"))
    assert rendered.problems == []
    assert [block.kind for block in rendered.blocks] == ["quiz"]
    # The explanation, as Markdown: a paragraph and a code block, waiting in its template for a Check.
    explanation = '<p>Run this:</p>\n<pre><code class="language-python">x = 1\n</code></pre>'
    assert f'<template class="quiz-explanation" data-search-exclude>{explanation}</template>' in rendered.markdown()


def test_fenced_code_inside_a_three_backtick_block_says_to_use_a_longer_fence() -> None:
    """An author who fenced the quiz with three backticks reads how to fix it, not that the quiz was never closed."""
    markdown = f"# T\n\n```quiz\n{QUIZ_WITH_CODE}```\n\nafter\n"
    (fence,) = find_fences(markdown, KINDS)
    assert not fence.closed
    assert unclosed_message(fence, 3) == (
        "the ```quiz block opened at line 3 holds a fence, ```python at line 11, which would close it: open the "
        "block with ````quiz and close it with ````, more backticks than any fence inside it"
    )
    rendered = render_page(markdown, PageContext("docs/x.md", load("calculators"), url="x/"))
    assert [str(problem) for problem in rendered.problems] == [f"docs/x.md:3: {unclosed_message(fence, 3)}"]


def test_a_block_left_open_before_the_next_is_still_said_to_be_not_closed() -> None:
    (fence, after) = find_fences("```calculator\nuse: roofline\n\n```quiz\nid: q\n```\n", KINDS)
    assert (fence.closed, fence.inner, after.kind, after.closed) == (False, None, "quiz", True)
    assert unclosed_message(fence, 1) == (
        "the ```calculator block opened at line 1 is not closed: add a ``` line after it"
    )


def test_the_slip_check_finds_fences_where_the_renderer_does() -> None:
    """A ```calculator left open, then a ```quizz: the renderer ends the calculator at the ```quizz line, and the slip
    check (which once read the ```quizz as the calculator's text) warns about that fence."""
    markdown = "# T\n\n```calculator\nuse: roofline\n\n```quizz\nid: q\n```\n"
    assert fence_name_slips(markdown, ["calculator", "quiz"], offset=2) == [
        (
            8,
            "a fence named 'quizz' is shown as code: did you mean ```quiz? (block names are lower case: calculator, "
            "quiz)",
        )
    ]
    # Inside a longer fence, a fence of three is an example, and left alone by both.
    example = "````markdown\n```quizz\nid: q\n```\n````\n"
    assert fence_name_slips(example, ["quiz"]) == [] and find_fences(example, KINDS) == []
