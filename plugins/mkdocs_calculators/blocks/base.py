"""What a block kind is: one declaration that the page renderer (`pages/page.py`) loops over.

A kind, in the spirit of pymdownx's blocks, says its fence name, the prefix of its anchors, whether search indexes
it, the options an author may write, how to `read` a block into a model (or the problems in it) and how to `render`
that model. Everything a kind needs from the page comes in `Authored` (the fence, its file line, the page and the
book); nothing is read from a global.
"""

from __future__ import annotations

import posixpath
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from calckit.authored import unknown_key

from ..i18n import ENGLISH, Strings
from ..pages.authored_text import PLAIN_TEXT, AuthoredText
from ..pages.fences import Fence
from ..pages.ids import PageIds
from ..pages.yaml_source import Loaded, YamlProblem, load_yaml
from ..problems import Problem
from .hooks import Browser, Progress

if TYPE_CHECKING:
    from calckit.authored import AuthoredError, Field
    from calckit.book import Book

__all__ = [
    "Authored",
    "BlockKind",
    "Followed",
    "Named",
    "NamedKind",
    "Option",
    "PageContext",
    "Problems",
    "authored_problems",
    "list_of_text",
    "relative_url",
    "text",
]

Model = TypeVar("Model")


@dataclass(frozen=True)
class PageContext:
    """The page being rendered: where it is, and the book whose package it uses."""

    path: str  # as shown in messages: docs/lessons/roofline.md
    book: Book | None  # None only when the book's package failed to load: every block then says why, unread
    source: str | None = None  # the page's file on disk (a quiz may name a file beside it); None when generated
    url: str = ""  # the page's address in the site, `lessons/roofline/`: links to generated pages are relative to it
    text: AuthoredText = PLAIN_TEXT  # the Markdown of an author's text in a block (pages/authored_text.py)
    strings: Strings = ENGLISH  # the plugin's words for readers, in the book's language (i18n/)
    # The files that the page's blocks read (read_beside), for a host that reuses its render (extras/build_cache.py).
    reads: list[str] = field(default_factory=list, compare=False, repr=False)

    def read_beside(self, relative: PurePosixPath) -> str:
        """The text of the file at `relative` from the page's folder (OSError when the page has no file)."""
        if self.source is None:
            raise OSError(f"the page has no file to read {relative} beside")
        path = str(Path(self.source).parent / relative)
        self.reads.append(path)
        return Path(path).read_text(encoding="utf-8")

    def link(self, page: str) -> str:
        """The address of the site's page `page` (its source path, `reference/calculators.md`) from this page."""
        return relative_url(page.removesuffix(".md") + "/", self.url or ".")


@dataclass
class Authored:
    """One block as the author wrote it on a page, and what the page knows about its blocks so far."""

    fence: Fence
    line: int  # the opening fence's line in the file (front matter counted)
    page: PageContext
    anchor: str  # the anchor the block is numbered with (`calc-3`), "" for a kind without anchors
    ids: PageIds  # the page's ids: a kind claims its author's ids here, so duplicates are found
    # What is not wrong but over a budget (extras/budgets.py): said as warnings, while the block renders.
    warnings: list[Problem] = field(default_factory=list)

    @property
    def book(self) -> Book:
        if self.page.book is None:
            raise RuntimeError("a block is read only when the book's package is loaded")
        return self.page.book

    def problem(self, line: int, message: str) -> Problem:
        return Problem(self.page.path, line, message)

    def warn(self, line: int, message: str) -> None:
        self.warnings.append(Problem(self.page.path, line, message, warning=True))

    def load(self, what: str, noun: str | None = None) -> Loaded:
        """The body's YAML, with the file line of every key; Problems for a mistake in it."""
        try:
            return load_yaml(self.fence.body, self.line + 1, self.line, what, noun)
        except YamlProblem as broken:
            raise Problems([self.problem(broken.line, broken.message)]) from None


@dataclass(frozen=True)
class Followed:
    """A calculator block as the prose follows it: anchor, calculator, the inputs its author wrote; every input's value
    as its form shows it (what an adjustable input in a sentence starts from, pages/adjustables.py), and the text of
    each numeric output for them (what the hand-typed check looks for, pages/typed_check.py)."""

    anchor: str
    calculator: str
    given: Mapping[str, Any]
    inputs: Mapping[str, Any] = field(default_factory=dict)
    outputs: Mapping[str, str] = field(default_factory=dict)


class Problems(Exception):
    """Every problem found in one block; `read` raises it rather than return a half-read model."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("; ".join(str(problem) for problem in problems))
        self.problems = sorted(problems, key=lambda problem: problem.line)  # stable: one line's problems keep order


@dataclass(frozen=True)
class Option:
    """One key an author may write in a block: what it holds, and a check that returns the value read (or raises
    ValueError with the rule it breaks: `text` and `list_of_text` are the usual ones). A kind with
    `open_options` also takes keys it does not list (a calculator's inputs)."""

    holds: str
    check: Callable[[Any], Any] = lambda value: value
    required: bool = False
    default: Any = None

    @classmethod
    def table(cls, fields: Iterable[Field]) -> dict[str, Option]:
        """The options of a kind whose keys calckit reads (a quiz's, an exercise's): its table of fields, so that
        the two can never disagree."""
        return {field.name: cls(field.holds, required=field.required) for field in fields}


def text(value: Any) -> str:
    """An option's check: text ("'caption' must be text")."""
    if not isinstance(value, str):
        raise ValueError("text")
    return value


def list_of_text(value: Any, what: str = "names") -> list[str]:
    """An option's check: a list of `what`, written as a YAML list or as one line with commas."""
    if isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()]
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return value
    raise ValueError(f"a list of {what}")


class BlockKind(ABC, Generic[Model]):
    """A kind of fenced block. Subclasses set the class attributes and implement `read` and `render`."""

    name: ClassVar[str]  # the fence's info string: ```calculator
    title: ClassVar[str]  # how messages and a broken block's box name it: 'calculator block', 'quiz'
    anchor: ClassVar[str] = ""  # anchors' prefix: blocks are numbered calc-1, calc-2 among their kind; "" for none
    searchable: ClassVar[bool] = True  # whether its HTML goes into the content that search indexes
    options: ClassVar[Mapping[str, Option]] = {}  # the top-level keys of its YAML
    open_options: ClassVar[bool] = False  # takes keys beyond `options` (checked by `read`)
    browser: ClassVar[Browser | None] = None  # its script in the reader's browser, and where it mounts (hooks.py)
    progress: ClassVar[Progress | None] = None  # what its blocks add to the reader's progress (hooks.py)

    def fence_names(self, book: Book) -> frozenset[str]:
        """The info strings this kind answers to in `book` (a data table's kind adds the book's table's name)."""
        return frozenset({self.name})

    def followed(self, model: Model) -> Followed | None:
        """What a computed value in the page's prose may follow (`{value}`#ANCHOR.output``): a calculator block's
        anchor, calculator and inputs; None for a kind that computes nothing a sentence could follow."""
        return None

    def label(self, block: Authored) -> str:
        """How messages name `block`: the kind's title ('quiz'); a kind with several fence names may say which."""
        return self.title

    @abstractmethod
    def read(self, block: Authored) -> Model:
        """The block's model; Problems listing every mistake in it, each at its file line."""

    @abstractmethod
    def render(self, model: Model, block: Authored) -> str:
        """The block's HTML."""

    # Helpers for kinds whose body is a mapping of `options`.

    def mapping(self, block: Authored, loaded: Loaded, expected: str, holds: str = "") -> dict[str, Any]:
        """The body as a mapping, or Problems: an empty body says what was `expected`, a list or a value that it
        must be a mapping of what it `holds` (its options' names by default)."""
        title = self.label(block)
        if loaded.data is None:
            raise Problems([block.problem(block.line, f"{title} is empty (expected {expected})")])
        if not isinstance(loaded.data, dict):
            found = "a list" if isinstance(loaded.data, list) else "a single value"
            holds = holds or " and ".join(f"'{key}'" for key in self.options) or "options"
            raise Problems([block.problem(block.line, f"{title} must be a mapping of {holds}, not {found}")])
        return loaded.data

    def checked_options(self, block: Authored, loaded: Loaded, values: Mapping[str, Any]) -> dict[str, Any]:
        """`values` read through the kind's `options`; Problems listing every mistake (see `read_options`)."""
        read, problems = self.read_options(block, loaded, values)
        if problems:
            raise Problems(problems)
        return read

    def read_options(
        self, block: Authored, loaded: Loaded, values: Mapping[str, Any], options: Mapping[str, Option] | None = None
    ) -> tuple[dict[str, Any], list[Problem]]:
        """`values` read through `options` (the kind's own by default; a kind whose keys depend on the book passes
        its own), and the problems, each at its line: unknown keys (with the known one they are closest to), missing
        required ones, refused values (read as their default, so that a kind can go on to find more)."""
        options, title = self.options if options is None else options, self.label(block)
        problems: list[Problem] = []
        if not self.open_options:
            problems += [
                block.problem(loaded.line((key,)), f"{title}: {unknown_key(key, options, 'key')}")
                for key in values
                if key not in options
            ]
        read: dict[str, Any] = {}
        for key, option in options.items():
            if key not in values:
                if option.required:
                    problems.append(block.problem(block.line, f"{title} needs '{key}': {option.holds}"))
                read[key] = option.default
                continue
            try:
                read[key] = option.check(values[key])
            except ValueError as error:
                problems.append(block.problem(loaded.line((key,)), f"{title}: '{key}' must be {error}"))
                read[key] = option.default
        return read, problems


@dataclass(frozen=True)
class Named:
    """Where a block that an author names with its `id` is found: its anchor and the key of what the reader saved."""

    anchor: str  # its element id, `quiz-roofline-basics`: the kind's prefix and the block's id
    old_anchor: str  # the numbered anchor it had before anchors followed ids (`quiz-2`), for links made then; ""
    # when that is its anchor still (`id: 2` on the page's second quiz)
    key: str  # where the reader's progress is saved: `quiz:docs/lessons/roofline.md#roofline-basics`


def authored_problems(
    error: AuthoredError, where: str, loaded: Loaded, code_line: Callable[[int, int], int]
) -> Problems:
    """calckit's problems with an author's quiz or exercise (each with its `Where` in the data) at their file lines
    in `where` (the page, or a quiz's own file); `code_line(line, n)` is the line of a problem found at line n of the
    code whose key is on `line` (an exercise's starter or solution)."""
    problems = []
    for problem in error.problems:
        line = loaded.line(problem.where)
        if problem.code_line is not None and problem.where in loaded.lines:
            line = code_line(line, problem.code_line)
        problems.append(Problem(where, line, problem.message))
    return Problems(problems)


class NamedKind(BlockKind[Model]):
    """An authored kind whose blocks an author names with a required `id` (quizzes, exercises): the block's anchor is
    `PREFIX-ID`, so that a link to it follows the block wherever it moves on the page, and the reader's progress is
    saved under the same id. A link to the numbered anchor the block had before (`#quiz-2`, its place among its kind)
    still lands: the block carries it (`data-old-anchor`), and entry.js points the address at the new one."""

    saves: ClassVar[str]  # what is saved under the id, as the duplicate's message says it: 'saves progress'

    def named(self, block: Authored, ident: str, where: str, line: int) -> Named:
        """Claim the anchor of the block whose `id` is `ident` (at `line` of the file `where`: a quiz's own file, or
        the page); Problems when another block of the page has that id."""
        anchor = f"{self.anchor}-{ident}"
        if block.ids.claim(anchor, block.line) is not None:
            message = f"duplicate {self.title} id '{ident}' on this page (each {self.title} {self.saves} under its id)"
            raise Problems([Problem(where, line, message)])
        old = block.anchor if block.anchor != anchor else ""
        return Named(anchor, old, f"{self.name}:{block.page.path}#{ident}")


def relative_url(url: str, other: str) -> str:
    """`url` (a site address) relative to the page at `other`, as MkDocs's `get_relative_url` makes it (kept here so
    that the renderer runs outside MkDocs)."""
    if other != ".":
        head, tail = posixpath.split(other)
        other = head if "." in tail else other
    relative = posixpath.relpath("/" + url, "/" + other)
    return relative + "/" if url.endswith("/") else relative
