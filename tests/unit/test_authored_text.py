"""An author's text in a block is Markdown (pages/authored_text.py), raw HTML stays text, and a numeric question's
values
are marked where new numbers go (quiz_render._with_values)."""

from __future__ import annotations

import pytest

from calckit.quiz_checks import read_question
from calculators import CALCULATORS
from mkdocs_calculators.blocks.quiz.render import _with_values
from mkdocs_calculators.pages.authored_text import PLAIN_TEXT, AuthoredText, is_line

MATH = AuthoredText(["pymdownx.arithmatex"], {"pymdownx.arithmatex": {"generic": True}})


@pytest.mark.parametrize(
    ("source", "inline"),
    [
        ("plain words", "plain words"),
        ("a `code` span and *emphasis*", "a <code>code</code> span and <em>emphasis</em>"),
        ("[a link](https://example.org/x)", '<a href="https://example.org/x">a link</a>'),
        (
            "a < b and <T> and <script>alert(1)</script>",
            "a &lt; b and &lt;T&gt; and &lt;script&gt;alert(1)&lt;/script&gt;",
        ),
        ("[run me](javascript:alert(1)) [data](data:text/html,x)", "<a>run me</a> <a>data</a>"),
        ("x &amp; y", "x &amp; y"),
    ],
)
def test_a_line_is_the_paragraphs_content(source: str, inline: str) -> None:
    assert PLAIN_TEXT.inline(source) == inline
    assert is_line(inline)


def test_more_than_a_line_stays_blocks() -> None:
    html = PLAIN_TEXT.inline("One.\n\nTwo.")
    assert html == "<p>One.</p>\n<p>Two.</p>" and not is_line(html)
    code = PLAIN_TEXT.block("Run:\n\n```python\nx = 1\n```")
    assert code == '<p>Run:</p>\n<pre><code class="language-python">x = 1\n</code></pre>' and not is_line(code)
    assert not is_line(PLAIN_TEXT.inline("- a\n- b"))
    assert PLAIN_TEXT.block("  ") == ""


def test_raw_html_blocks_are_text_too() -> None:
    assert PLAIN_TEXT.block("<div>\nhi\n</div>") == "<p>&lt;div&gt;\nhi\n&lt;/div&gt;</p>"


def test_math_is_left_for_the_build_to_typeset() -> None:
    assert MATH.inline("at $I < I^*$") == 'at <span class="arithmatex">\\(I &lt; I^*\\)</span>'


def test_one_instance_renders_text_after_text_without_leftovers() -> None:
    text = AuthoredText(["footnotes"])
    first = text.block("One[^a].\n\n[^a]: a note")
    assert 'class="footnote"' in first
    assert text.block("Two.") == "<p>Two.</p>"


QUESTION = {
    "id": "q",
    "kind": "numeric",
    "text": "A kernel does {intensity} FLOPs per byte on a batch of {batch} sequences",
    "inputs": {"intensity": 1},
    "answer": {"calculator": "roofline", "output": "attainable"},
    "unit": "TFLOP/s",
    "tolerance": "2%",
}


def test_the_values_are_what_the_text_shows_in_order() -> None:
    """shown_values gives each placeholder's words (the noun made singular for 1), and shown_text is built of them."""
    question = read_question(
        QUESTION | {"text": "At {intensity} FLOPs per byte and {intensity} bytes, {peak_tflops} TFLOP/s"}, CALCULATORS
    )
    inputs = question.inputs_for({"intensity": 1, "peak_tflops": 197})
    assert question.shown_values(inputs) == ["1", "1 byte", "197"]
    assert question.shown_text(inputs) == "At 1 FLOPs per byte and 1 byte, 197 TFLOP/s"
    assert question.variant(7).values == tuple(question.shown_values(dict(question.variant(7).inputs)))


@pytest.mark.parametrize(
    ("html", "marked", "problem"),
    [
        (
            "At <code>{intensity}</code> and {intensity} bytes",
            'At <code><span class="quiz-value">1</span></code> and <span class="quiz-value">2 bytes</span>',
            "",
        ),
        (
            'At <span class="arithmatex">\\(I = {intensity}\\)</span>',
            'At <span class="arithmatex">\\(I = {intensity}\\)</span>',
            "{intensity} is inside a formula, which is typeset at build: write it outside the $...$",
        ),
        (
            '<a href="https://example.org/{intensity}">{intensity}</a>',
            '<a href="https://example.org/{intensity}"><span class="quiz-value">1</span></a>',
            "{intensity} is inside a link's address, where new numbers cannot go",
        ),
        ("<em>{intensity}</em> &amp;", '<em><span class="quiz-value">&lt;1&gt;</span></em> &amp;', ""),
    ],
)
def test_values_are_marked_in_text_and_refused_in_formulas_and_addresses(html: str, marked: str, problem: str) -> None:
    values = ["<1>"] if "&amp;" in html else ["1", "2 bytes"]
    assert _with_values(html, values) == (marked, problem)
