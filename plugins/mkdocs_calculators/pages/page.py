"""One page's blocks rendered, outside any host: a page's Markdown, where it is and the book in, and each block's
HTML and every problem out.

The MkDocs plugin calls `render_page` from its page hook; a Python-Markdown extension can call it the same way, so
that MkDocs and Zensical run the very same code. Page checks (front matter, footnotes) come with it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from html import unescape
from typing import Any

from calckit.running import CodeFailure

from ..blocks import Authored, BlockKind, PageContext, Problems, kinds
from ..blocks.base import Followed
from ..extras.budgets import over_page_budget
from ..extras.page_checks import footnote_problems, front_matter_problem
from ..problems import Problem
from ..sandbox.compute_process import failure_message
from .fences import Fence, find_fences, replace_fences, unclosed_message
from .ids import PageIds
from .progress_page import BlockItem
from .render import render_problems
from .roles import inline_text
from .searched import searched_part
from .slips import anchor_ids, fence_name_slips
from .typed_check import typed_problems
from .values import RenderedValue, render_values

__all__ = ["RenderedBlock", "RenderedPage", "render_page"]


@dataclass(frozen=True)
class RenderedBlock:
    fence: Fence
    kind: str  # the kind's name: 'calculator'
    html: str  # the block's HTML, or the box that lists its problems
    # What the site's search reads of it (searched.py: its HTML without the parts marked data-search-exclude); None
    # for a block that search does not index (a calculator: its form is not prose).
    searched: str | None
    # What it adds to the reader's progress, from its kind's progress hook (blocks/hooks.py), None for a kind without
    # one or a block with a problem: the host lists it on the progress page without reading the HTML again.
    progress: BlockItem | None = None


@dataclass
class RenderedPage:
    source: str  # the Markdown that was rendered
    blocks: list[RenderedBlock] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)  # in page order; warnings included
    values: list[RenderedValue] = field(default_factory=list)  # the numbers its prose computes (pages/values.py)

    def markdown(self, place: Callable[[RenderedBlock], str] = lambda block: block.html) -> str:
        """The page's Markdown with each block's fence replaced by `place(block)` (its HTML, or a host's token), and
        each computed value by its HTML (on one line, outside every fence: no block's lines move)."""
        lines = self.source.split("\n")
        for value in sorted(self.values, key=lambda value: (value.line, value.start), reverse=True):
            text = lines[value.line]
            lines[value.line] = text[: value.start] + value.html + text[value.end :]
        return replace_fences("\n".join(lines), [(block.fence, place(block)) for block in self.blocks])


def render_page(
    markdown: str, page: PageContext, *, offset: int = 0, file_text: str | None = None, broken: str = ""
) -> RenderedPage:
    """Every block of `markdown` rendered for `page`, and every problem in the page.

    `offset` is how many lines precede `markdown` in its file (front matter), so that lines count from the file's
    top; `file_text` is the whole file, whose front matter is checked. `broken` is why the book's package could not be
    loaded (under `mkdocs serve`): every block then shows it instead.
    """
    rendered = RenderedPage(markdown)
    by_name: dict[str, BlockKind[Any]] = {}
    for kind in kinds():
        by_name |= dict.fromkeys(kind.fence_names(page.book) if page.book else {kind.name}, kind)
    # A fence whose name is one letter off a kind's (```calculater) would show as code, silently: a warning.
    rendered.problems += [
        Problem(page.path, line, message, warning=True)
        for line, message in fence_name_slips(markdown, frozenset(by_name), offset)
    ]
    front_matter = front_matter_problem(file_text, page.path) if file_text is not None else None
    rendered.problems += ([front_matter] if front_matter else []) + footnote_problems(markdown, page.path, offset)
    followed: dict[str, Followed] = {}  # what a value in the prose may follow, by its block's anchor
    beside: list[tuple[Fence, Followed]] = []  # and where each is, for the hand-typed check
    ids = PageIds()  # anchors, numbered per kind: a block added above one of another kind leaves it be
    elements: dict[str, int] = {}  # every element id in the blocks so far -> the line of the block that has it
    for fence in find_fences(markdown, frozenset(by_name)):
        kind = by_name[fence.kind]
        line = fence.line + offset
        # Every block takes its number, a broken one too, so that mending it moves no other.
        block = Authored(fence, line, page, ids.number(kind.anchor) if kind.anchor else "", ids)
        made, model = _render(kind, block, rendered.problems, broken)
        html = _unique_elements(kind, block, made, elements, rendered.problems)
        if html is not made:  # a block shown as its problem adds nothing to the reader's progress, nor to the prose
            model = None
        item = kind.progress.item(model, block) if model is not None and kind.progress else None
        if model is not None and (source := kind.followed(model)) is not None:
            followed[source.anchor] = source
            beside.append((fence, source))
        rendered.problems += block.warnings
        searched = searched_part(html) if kind.searchable else None
        rendered.blocks.append(RenderedBlock(fence, kind.name, html, searched, item))
    if over := over_page_budget((block.fence.line + offset, block.html) for block in rendered.blocks):
        rendered.problems.append(Problem(page.path, *over, warning=True))
    every_fence = find_fences(markdown, None)
    rendered.values, problems = render_values(markdown, page, every_fence, offset, followed)
    rendered.values = [_in_language(value, page) for value in rendered.values]
    problems += typed_problems(markdown, page.path, every_fence, beside, offset)
    rendered.problems = sorted([*rendered.problems, *problems], key=lambda problem: problem.line)
    return rendered


_VALUE_TEXT = re.compile(r"(<data [^>]*>)([^<]*)(</data>)")


def _in_language(value: RenderedValue, page: PageContext) -> RenderedValue:
    """The value's figure as the book's language writes numbers (calculator.js writes a followed one's so too)."""
    html = _VALUE_TEXT.sub(
        lambda shown: shown[1] + inline_text(page.strings.number(unescape(shown[2]))) + shown[3], value.html
    )
    return value if html == value.html else replace(value, html=html)


def _unique_elements(
    kind: BlockKind[Any], block: Authored, html: str, elements: dict[str, int], problems: list[Problem]
) -> str:
    """`html`, or the box saying which of its element ids an earlier block of the page has already: an author's ids
    make anchors (`quiz-basics`) and their parts' ids (`quiz-basics-q1`), so that a quiz with the id `basics-q1`
    would share one with the quiz `basics`, and a link or a label would reach either."""
    own = anchor_ids(html)
    for element in own:
        if (first := elements.get(element)) is not None:
            problem = block.problem(
                block.line,
                f"{kind.title}: its element id '{element}' is one that the block at line {first} has already (ids "
                "are made from the blocks' 'id's): give one of them another 'id'",
            )
            problems.append(problem)
            return render_problems([str(problem)], kind.title)
    elements.update(dict.fromkeys(own, block.line))
    return html


def _render(kind: BlockKind[Any], block: Authored, problems: list[Problem], broken: str) -> tuple[str, Any]:
    """The block's HTML, and its model (None when it has problems)."""
    if broken:
        return render_problems([broken], f"{block.fence.kind} block"), None
    if not block.fence.closed:
        problem = block.problem(block.line, unclosed_message(block.fence, block.line))
        problems.append(problem)
        return render_problems([str(problem)], f"{block.fence.kind} block"), None
    try:
        model = kind.read(block)
    except Problems as found:
        problems += found.problems
        return render_problems([str(problem) for problem in found.problems], kind.title), None
    except CodeFailure as failure:  # the book's code, run for a quiz's answer or an exercise's cases or solution
        problem = block.problem(block.line, failure_message(failure, kind.name, block.page.book))
        problems.append(problem)
        return render_problems([str(problem)], kind.title), None
    return kind.render(model, block), model
