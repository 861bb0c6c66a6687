"""Small fixture sites for the build layer: written from a dict of files, built the way a contributor builds, or
their pages rendered in this process.

A strict build goes through `tests.support.build_site` (`mkdocs build --strict` in a subprocess); a non-strict one
runs the same command without `--strict`, which would otherwise override the config's `strict: false`.

`render_fixture` gives, without a build, what a strict build's page hook would log for the same files: MkDocs reads
the pages (its order, its front matter), and the page renderer (`render_page`, which the plugin's page hook and the
Zensical extension both call) renders each as the plugin does. A located-error test checks its cases that way, a
few milliseconds each; a real build of the whole corpus as one site shows what only a build shows (it stops, and
logs those lines and no other).
"""

from __future__ import annotations

import functools
import re
import subprocess
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from mkdocs_calculators.config import DEFAULT_PACKAGE
from mkdocs_calculators.sandbox.books import load_book
from tests.support import MKDOCS, NODE_MODULES, ROOT, build_env, build_site

if TYPE_CHECKING:
    from calckit.book import Book
    from mkdocs_calculators.problems import Problem

# MkDocs writes each log record as `LEVEL   -  message`.
_ERROR_LINE = re.compile(r"^ERROR\s+-\s+(?P<message>.*?)\s*$", re.MULTILINE)
# The form an editor can jump to: `docs/page.md:12: message`.
LOCATED = re.compile(r"^docs/\S+?\.md:\d+: ")


def write_fixture(root: Path, files: Mapping[str, str], **config: Any) -> Path:
    """Write `files` (paths relative to `root`) and a fixture mkdocs.yml (`config` as `site_config` takes it) under
    `root`; the mkdocs.yml's path."""
    root.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    config_file = root / "mkdocs.yml"
    config_file.write_text(yaml.safe_dump(site_config(**config), sort_keys=False), encoding="utf-8")
    return config_file


def site_config(*, plugin: Mapping[str, Any] | None = None, **overrides: Any) -> dict[str, Any]:
    """The fixture mkdocs.yml: Material without web fonts, the plugin on the project's node_modules, without a memory
    snapshot (a test of the snapshot asks for one with `plugin={"snapshot": True}`: a package a test edits misses the
    snapshot cache, and Node then takes seconds to make one that nothing reads)."""
    return {
        "site_name": "Fixture",
        "theme": {"name": "material", "font": False},
        "plugins": [{"calculators": {"node_modules": str(NODE_MODULES), "snapshot": False, **(plugin or {})}}],
        "markdown_extensions": ["admonition", "pymdownx.superfences"],
        **overrides,
    }


@dataclass(frozen=True)
class Build:
    """What one build of a fixture site left behind: its exit code, its log and its site folder."""

    root: Path
    returncode: int
    output: str  # stdout and stderr together: MkDocs logs to stderr, click prints its abort notice to stdout

    @property
    def site(self) -> Path:
        return self.root / "site"

    def errors(self) -> list[str]:
        """Every ERROR record's message, in the order logged."""
        return [match["message"] for match in _ERROR_LINE.finditer(self.output)]

    def html(self, page: str = "index.html") -> str:
        return (self.site / page).read_text(encoding="utf-8")


def build_fixture(
    root: Path, files: Mapping[str, str], *, strict: bool = True, timeout: float | None = None, **config: Any
) -> Build:
    """Write `files` (paths relative to `root`, such as docs/index.md) and a fixture mkdocs.yml, then build.

    `config` goes to `site_config` (`plugin=` for plugin options, anything else overrides a top-level key); a build
    that runs past `timeout` seconds raises subprocess.TimeoutExpired.
    """
    config_file = write_fixture(root, files, **config) if strict else write_fixture(root, files, strict=False, **config)
    site_dir = root / "site"
    if strict:
        result = build_site(config_file, site_dir, timeout=timeout)
    else:
        result = subprocess.run(
            [*MKDOCS, "build", "--config-file", str(config_file), "--site-dir", str(site_dir)],
            capture_output=True,
            text=True,
            env=build_env(),
            cwd=root,
            check=False,
            timeout=timeout,
        )
    return Build(root, result.returncode, result.stdout + result.stderr)


@functools.cache
def _book() -> Book:
    loaded = load_book(DEFAULT_PACKAGE, ROOT, reload=False)
    assert not isinstance(loaded, str), loaded
    return loaded


def render_fixture(root: Path, files: Mapping[str, str], **config: Any) -> list[str]:
    """Every ERROR line that a strict build of `files` logs from its pages' blocks, in the build's order (see
    `render_problems`); warnings are left out, as `Build.errors` leaves them."""
    return [str(problem) for problem in render_problems(root, files, **config) if not problem.warning]


def render_problems(root: Path, files: Mapping[str, str], **config: Any) -> list[Problem]:
    """Every problem (warnings too) that a strict build of `files` logs from its pages' blocks, in the build's order,
    found in this process: the files and a fixture mkdocs.yml are written under `root` (as `build_fixture` writes
    them), MkDocs reads its pages, and each page is rendered by `render_page` for this book with what the plugin's
    page hook gives it (the page's path as shown, its file, its address, the lines of its front matter)."""
    from mkdocs.config import load_config
    from mkdocs.structure.files import get_files
    from mkdocs.structure.pages import Page

    from mkdocs_calculators.blocks import PageContext
    from mkdocs_calculators.hosts.mkdocs_site import add_arithmatex, authored_text, display_path, front_matter_lines
    from mkdocs_calculators.pages.page import render_page

    config_file = write_fixture(root, files, **config)
    mkdocs_config = load_config(str(config_file), plugins=[])
    if config.get("math", True):
        add_arithmatex(mkdocs_config)  # as the plugin's on_config does
    problems = []
    site_files = get_files(mkdocs_config)
    for file in site_files.documentation_pages():
        page = Page(None, file, mkdocs_config)
        page.read_source(mkdocs_config)
        markdown = page.markdown or ""
        text = authored_text(page, mkdocs_config, site_files)
        context = PageContext(display_path(page, mkdocs_config), _book(), file.abs_src_path, page.url, text)
        offset = front_matter_lines(page, markdown)
        problems += render_page(markdown, context, offset=offset, file_text=file.content_string).problems
    return problems


# A small DOM, enough to read back what the plugin rendered (the standard library has no HTML tree).

# Elements without an end tag.
_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


@dataclass
class Element:
    tag: str
    attrs: dict[str, str]
    parent: Element | None = None
    children: list[Element | str] = field(default_factory=list)

    def text(self) -> str:
        return "".join(child if isinstance(child, str) else child.text() for child in self.children)

    def classes(self) -> set[str]:
        return set(self.attrs.get("class", "").split())

    def iter(self) -> Iterator[Element]:
        for child in self.children:
            if isinstance(child, Element):
                yield child
                yield from child.iter()

    def find_all(self, tag: str | None = None, *, class_: str | None = None, **attrs: str) -> list[Element]:
        """Descendants with this tag, class and attribute values (`data_input=` for data-input, `for_=` for for)."""
        wanted = {name.rstrip("_").replace("_", "-"): value for name, value in attrs.items()}
        return [
            element
            for element in self.iter()
            if (tag is None or element.tag == tag)
            and (class_ is None or class_ in element.classes())
            and all(element.attrs.get(name) == value for name, value in wanted.items())
        ]

    def find(self, tag: str | None = None, *, class_: str | None = None, **attrs: str) -> Element:
        """The one descendant that matches; fails the test when there are none or several."""
        found = self.find_all(tag, class_=class_, **attrs)
        assert len(found) == 1, f"expected one <{tag or '*'}> with class={class_} {attrs}, found {len(found)}"
        return found[0]

    def ancestors(self) -> Iterator[Element]:
        node = self.parent
        while node is not None:
            yield node
            node = node.parent


class _TreeBuilder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Element("#document", {})
        self._open = self.root

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = Element(tag, {name: value or "" for name, value in attrs}, self._open)
        self._open.children.append(element)
        if tag not in _VOID:
            self._open = element

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._open.children.append(Element(tag, {name: value or "" for name, value in attrs}, self._open))

    def handle_endtag(self, tag: str) -> None:
        node: Element | None = self._open
        while node is not None and node.tag != tag:
            node = node.parent
        if node is not None and node.parent is not None:  # a stray end tag is ignored
            self._open = node.parent

    def handle_data(self, data: str) -> None:
        self._open.children.append(data)


def parse_html(html: str) -> Element:
    builder = _TreeBuilder()
    builder.feed(html)
    builder.close()
    return builder.root


def article(html: str) -> str:
    """The page body as the author's Markdown became it: Material's <article>, without the theme around it."""
    start = html.index('<article class="md-content__inner md-typeset">')
    return html[start : html.index("</article>", start)]
