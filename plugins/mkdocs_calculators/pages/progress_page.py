"""A reader's progress across the book: the "Your progress" page, listing every quiz and exercise by chapter, and the
line under each page's title that says how far this reader got on that page's own.

What is listed comes from the kinds: a kind with a progress hook (`Progress`, blocks/hooks.py: quizzes and exercises)
hands over each of its blocks' item as the block renders, and the plugin gives them here page by page. The build
knows what there is; only the reader's browser knows what they did, so the HTML written here names each block (its
storage key, version and size) and `assets/progress-view.js` fills in the state from localStorage
(`assets/progress.js`). A page that another host built (Zensical) is read back from its HTML (`blocks_in`), by the
attributes the hook names: `data-NAME-key` for each such kind, and the id of its title.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import asdict, dataclass
from html import escape
from html.parser import HTMLParser
from typing import TYPE_CHECKING, Literal, cast

from ..i18n import ENGLISH

if TYPE_CHECKING:
    from calckit.contracts import ProgressItemData

    from ..blocks.hooks import Progress
    from ..extras.build_cache import BuildCache
    from ..i18n import Strings

__all__ = ["PROGRESS_PAGE", "BlockItem", "ProgressBook", "blocks_in", "progress_hooks", "progress_page_markdown"]

PROGRESS_PAGE = "progress.md"
_SLOT = '<div data-progress-list-slot="{}"></div>'


@dataclass(frozen=True)
class BlockItem:
    """One block (a quiz, an exercise) as the progress views need it."""

    kind: str  # its kind's name: "quiz", "exercise"
    key: str  # its storage key from the build: quiz:docs/page.md#id
    version: str  # changes when the block does (saved progress for another version no longer counts)
    total: int  # questions in a quiz, 1 for an exercise
    title: str
    anchor: str  # the block's element id in its page

    def data(self) -> ProgressItemData:
        kind = cast('Literal["quiz", "exercise"]', self.kind)
        return {"kind": kind, "key": self.key, "version": self.version, "total": self.total}


class _BlockFinder(HTMLParser):
    """The blocks of the kinds with a progress hook in a page's HTML, with their titles' text."""

    def __init__(self, hooks: dict[str, Progress]) -> None:
        self.hooks = hooks
        super().__init__(convert_charrefs=True)
        self.found: list[dict[str, str | int]] = []
        self._titles: dict[str, dict[str, str | int]] = {}  # title element id -> the block waiting for its text
        self._reading: dict[str, str | int] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        for kind, hook in self.hooks.items():
            if f"data-{kind}-key" in values:
                item: dict[str, str | int] = {
                    "kind": kind,
                    "key": values[f"data-{kind}-key"],
                    "version": values.get(f"data-{kind}-version", ""),
                    "anchor": values.get("id", ""),
                    "title": "",
                    "total": hook.total_from_tag(values),
                }
                self.found.append(item)
                self._titles[values.get("aria-labelledby", "")] = item
        if values.get("id") in self._titles:
            self._reading = self._titles.pop(values["id"])

    def waiting(self) -> list[str]:
        """The ids of the titles whose text is still to be read."""
        return [title for title in self._titles if title]

    def forget_titles(self) -> None:
        self._titles.clear()

    def handle_data(self, data: str) -> None:
        if self._reading is not None:
            self._reading["title"] = str(self._reading["title"]) + data

    def handle_endtag(self, tag: str) -> None:
        self._reading = None


def progress_hooks() -> dict[str, Progress]:
    """The registered kinds that add to the reader's progress, by name, in the registry's order."""
    from ..blocks import kinds

    return {kind.name: kind.progress for kind in kinds() if kind.progress is not None}


def blocks_in(html: str, s: Strings) -> list[BlockItem]:
    """Every block of a kind with a progress hook in `html` (a page that another host built), in order.

    Only each block's own tag and its title's element are parsed (the title follows the tag): parsing every tag of a
    page for them would be one of the larger costs of shipping it. `s`: the words the titles were written in."""
    hooks = progress_hooks()
    if not hooks:
        return []
    # A block's own tag (attribute values are escaped: no `>` inside them).
    names = "|".join(re.escape(name) for name in hooks)
    finder = _BlockFinder(hooks)
    for tag in re.finditer(rf"<[a-zA-Z][^>]*\sdata-(?:{names})-key=[^>]*>", html):
        finder.feed(tag.group())
        for title in finder.waiting():
            at = html.find(f'id="{escape(title)}"', tag.end())
            if at >= 0:  # the title's element, up to its first end tag (where the finder stops reading)
                closing = html.find("</", at)
                finder.feed(html[html.rfind("<", 0, at) : html.find(">", closing) + 1 if closing >= 0 else len(html)])
        finder.forget_titles()  # a block's title is looked for only after its own tag
    finder.close()
    return [
        BlockItem(
            kind=str(item["kind"]),
            key=str(item["key"]),
            version=str(item["version"]),
            total=int(item["total"]),
            title=" ".join(str(item["title"]).split()).removeprefix(_title_prefix(hooks[str(item["kind"])], s)),
            anchor=str(item["anchor"]),
        )
        for item in finder.found
    ]


def _title_prefix(hook: Progress, s: Strings) -> str:
    """What a kind's title's element says before the block's title, in the book's language."""
    prefix = s(hook.title_key).partition("{title}")[0] if hook.title_key else hook.title_prefix
    return re.sub(r"\s+", " ", prefix)  # as the title's text is read: every run of white space one space


def kind_name(kind: str, s: Strings) -> str:
    """A kind as a sentence names it ("quiz"), in the book's language."""
    hook = progress_hooks().get(kind)
    return s(hook.name_key) if hook and hook.name_key else kind


def here_line(items: list[BlockItem], progress_url: str, s: Strings) -> str:
    """The line under a page's title: this reader's state on the page's quizzes and exercises, filled in by script.

    It is written as progress-view.js words it for a reader who has not started any of them, so that for a new
    reader filling it changes nothing: a shorter stand-in grew by a line or two on a phone once filled, and pushed
    the page down (a layout shift of 0.04 on the parallelism lesson).
    """
    data = escape(json.dumps([item.data() | {"title": item.title} for item in items]))
    return (
        f'<p class="progress-here" data-progress-here="{data}" data-search-exclude hidden>'
        f'<span class="progress-here-label">{s.html("progress.here.label")}</span> '
        f'<span class="progress-here-state">{escape(_not_started(items, s))}</span> '
        f'<a href="{escape(progress_url)}">{s.html("progress.here.all")}</a></p>'
    )


def under_title(html: str, line: str) -> str:
    """A page's content with `line` (here_line's) under its title."""
    end = html.find("</h1>")
    return html[: end + 5] + line + html[end + 5 :] if end >= 0 else line + html


def _not_started(items: list[BlockItem], s: Strings) -> str:
    """progress-view.js's words for these blocks when none is started."""
    state = s("progress.here.none")
    if len(items) == 1:
        return s("progress.here.end", list=s("progress.here.one", kind=kind_name(items[0].kind, s), state=state))
    parts = [s("progress.here.many", kind=kind_name(item.kind, s), title=item.title, state=state) for item in items]
    return s("progress.here.end", list=s("progress.here.separator").join(parts))


def progress_page_markdown(token: str, s: Strings) -> str:
    """The generated page; the list goes into its slot once every page has been read (ProgressBook.list_html)."""
    return f"""# {s.html("progress.title")}

{s.html("progress.intro")}

{_SLOT.format(token)}
"""


@dataclass
class _Page:
    title: str
    url: str  # from the progress page
    section: str
    items: list[BlockItem]


class ProgressBook:
    """What the build saw of the book's quizzes and exercises, page by page, for the progress page."""

    def __init__(self, book: str, token: str, strings: Strings = ENGLISH) -> None:
        self.book = book  # the book's name, written into exports: a file from another book is refused
        self.token = token
        self.strings = strings  # the plugin's words, in the book's language
        self._pages: dict[str, _Page] = {}

    def slot(self) -> str:
        return _SLOT.format(self.token)

    def add(self, source: str, title: str, url: str, section: str, items: list[BlockItem]) -> None:
        if items:
            self._pages[source] = _Page(title, url, section, items)
        else:
            self._pages.pop(source, None)

    def state(self, order: list[str]) -> str:
        """What list_html makes the list from, besides the code and the strings: a build cache's key for it."""
        pages = {
            source: [page.title, page.url, page.section, [asdict(item) for item in page.items]]
            for source, page in self._pages.items()
        }
        return json.dumps([self.book, self.token, order, pages], sort_keys=True)

    def list_html(self, order: list[str]) -> str:
        """The page's body: the controls and every block by chapter, pages in `order` (the nav's, by source)."""
        rank = {source: index for index, source in enumerate(order)}
        pages = sorted(self._pages.items(), key=lambda pair: (rank.get(pair[0], len(rank)), pair[0]))
        sections: dict[str, list[_Page]] = {}
        for _, page in pages:
            sections.setdefault(page.section, []).append(page)
        titles = Counter((item.kind, item.title) for _, page in pages for item in page.items)
        shared = {title for title, times in titles.items() if times > 1}
        body = "".join(
            f'<section class="progress-section"><h2>{escape(section)}</h2>'
            + "".join(_page_html(page, shared, self.strings) for page in members)
            + "</section>"
            for section, members in sections.items()
        )
        count = sum(len(page.items) for _, page in pages)
        data = escape(json.dumps({"book": self.book}))
        s = self.strings
        empty = f"<p>{s.html('progress.empty')}</p>"
        return (
            f'<div class="progress-book" data-progress-book="{data}">'
            f'<p class="progress-summary" role="status">{s.html("progress.file")}</p>'
            '<div class="progress-actions" hidden>'
            f'<button type="button" class="md-button progress-export">{s.html("progress.export")}</button>'
            f'<label class="md-button progress-import-label">{s.html("progress.import")}'
            '<input type="file" class="progress-import" accept=".json,application/json"></label>'
            f'<button type="button" class="md-button progress-reset">{s.html("progress.reset")}</button>'
            "</div>"
            '<p class="progress-message" role="status" aria-live="polite"></p>'
            '<p class="progress-undo" hidden><button type="button" class="md-button progress-undo-button">'
            f"{s.html('progress.undo')}</button></p>"
            f"{body or empty}"
            f'<p class="progress-count">{escape(s.plural("progress.count", count))}</p>'
            "</div>"
        )


def progress_list(book: ProgressBook, order: list[str], cache: BuildCache) -> str:
    """book.list_html(order), kept in `cache` for the next build: made again, it loads the language's plural rules
    (Babel's whole locale data, 15 ms of a build) for its one count."""
    state = book.state(order)
    html = cache.progress_list(state)
    if html is None:
        html = book.list_html(order)
        cache.keep_progress_list(state, html)
    return html


def _page_html(page: _Page, shared: set[tuple[str, str]], s: Strings) -> str:
    """A page's heading and its blocks; a block whose kind and title another block of the book shares is named with
    its page too, so that no two rows (nor two links, as a screen reader lists them) read the same."""
    labels = {name: s(hook.label_key) if hook.label_key else hook.label for name, hook in progress_hooks().items()}
    rows = "".join(
        f'<li class="progress-item" data-progress-item="{escape(json.dumps(item.data()))}">'
        f'<a href="{escape(page.url)}#{escape(item.anchor)}">'
        + s.html("progress.row", kind=labels.get(item.kind, item.kind.capitalize()), title=item.title)
        + (
            f'<span class="progress-page-name">{s.html("progress.row.page", page=page.title)}</span>'
            if (item.kind, item.title) in shared
            else ""
        )
        + "</a> "
        f'<span class="progress-state" data-state="none">{s.html("progress.state.none")}</span></li>'
        for item in page.items
    )
    return f'<h3><a href="{escape(page.url)}">{escape(page.title)}</a></h3><ul class="progress-list">{rows}</ul>'
