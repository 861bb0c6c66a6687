"""The plugin's fence finder: which blocks it takes, where they start, what their bodies are."""

from __future__ import annotations

from mkdocs_calculators.fences import find_fences, replace_fences

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
