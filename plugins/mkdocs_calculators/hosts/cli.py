"""`mkdocs-calculators`: what the MkDocs plugin does around a build, for a host that runs no MkDocs plugins (Zensical).

    mkdocs-calculators pages [--config mkdocs.yml]        before the build: the reference pages, into the docs folder
    mkdocs-calculators ship site/ [--config mkdocs.yml]   after it: the runtime, the wheels, the snapshot, sw.js

Both read the book's options from the configuration: the `calculators` plugin's entry (package, node_modules,
snapshot, time_limit), or else the `calculators` Markdown extension's (package, time_limit). They call the same
functions as the plugin's hooks (ship.py), so a book built by Zensical and shipped is the book `mkdocs build` writes.
Both import the book's package as the plugin does: first in a process of its own that is ended past the time limit
(sandbox/compute_process.py), so that a module whose import never returns cannot hang the command.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from html import unescape
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..config import BROWSER_DEPENDENCIES, LANGUAGE, NAME, NODE_MODULES, PACKAGE, SNAPSHOT, STRINGS, TIME_LIMIT
from ..i18n import ENGLISH, SOURCE, Strings
from ..i18n.overrides import StringsProblemError, book_strings
from ..pages.progress_page import PROGRESS_PAGE
from ..sandbox.books import load_book
from ..sandbox.compute_process import limit_problem, session, start_book_code, stop_book_code
from .markdown import EXTENSION_NAMES
from .ship import BuiltPage, fill_progress, finish_pages, generated_pages, ship, write_pages

if TYPE_CHECKING:
    from calckit.book import Book

__all__ = ["BookOptions", "main", "read_options"]


class UsageError(Exception):
    """Something the command cannot do as asked: said in one line, exit status 1."""


@dataclass(frozen=True)
class BookOptions:
    root: Path  # the configuration's folder: paths in it are relative to this
    docs_dir: Path
    package: str
    node_modules: Path
    snapshot: bool
    time_limit: float  # seconds for one call of the book's code, here and in the reader's browser (the option)
    browser_dependencies: tuple[str, ...]  # distributions shipped to the browser beside the book (the plugin's option)
    site_name: str = ""
    nav: tuple[tuple[str, str, str], ...] = ()  # the nav's pages: (source, title or "", its section's title)
    strings: Strings = ENGLISH  # the plugin's words in the book's language (theme.language), the author's on top


def _entries(value: Any) -> dict[str, dict[str, Any]]:
    """A plugins or markdown_extensions list (or mapping) as {name: options}."""
    if isinstance(value, dict):
        return {str(name): dict(options or {}) for name, options in value.items()}
    entries: dict[str, dict[str, Any]] = {}
    for item in value or []:
        name, options = next(iter(item.items())) if isinstance(item, dict) else (item, {})
        entries[str(name)] = dict(options or {})
    return entries


def read_options(config_file: Path) -> BookOptions:
    """The book's options as the configuration gives them to the plugin (or to the extension)."""
    from mkdocs.utils.yaml import yaml_load

    if not config_file.is_file():
        raise UsageError(f"{config_file}: no such configuration file (give one with --config)")
    with config_file.open(encoding="utf-8") as source:
        config = yaml_load(source) or {}
    plugin = _entries(config.get("plugins")).get(NAME)
    extensions = _entries(config.get("markdown_extensions"))
    extension = next((extensions[name] for name in EXTENSION_NAMES if name in extensions), None)
    if plugin is None and extension is None:
        raise UsageError(
            f"{config_file}: names neither the `calculators` plugin nor the `calculators` Markdown extension"
        )
    package = (plugin or {}).get(PACKAGE.name) or (extension or {}).get(PACKAGE.name) or PACKAGE.default
    if plugin and extension and extension.get(PACKAGE.name, package) != PACKAGE.given(plugin):
        raise UsageError(
            f"{config_file}: the `{NAME}` plugin names the package '{PACKAGE.given(plugin)}' "
            f"and the extension '{PACKAGE.given(extension)}': give both the same"
        )
    # Zensical's build runs the extension with its own; the snapshot and the browser run with this one.
    limits = [TIME_LIMIT.given(entry) for entry in (plugin, extension) if entry is not None]
    problem = next(filter(None, map(limit_problem, limits)), "")
    if problem:
        raise UsageError(f"{config_file}: {problem}")
    if len(set(limits)) > 1:
        raise UsageError(
            f"{config_file}: the `{NAME}` plugin's time_limit is {limits[0]:g} and the extension's {limits[1]:g} "
            f"({TIME_LIMIT.default:g} where none is given): give both the same"
        )
    limit = limits[0]
    root = config_file.resolve().parent
    strings = _strings(config_file, config, plugin, extension)
    return BookOptions(
        root=root,
        docs_dir=root / str(config.get("docs_dir", "docs")),
        package=str(package),
        node_modules=root / str(NODE_MODULES.given(plugin)),
        snapshot=bool(SNAPSHOT.given(plugin)),
        time_limit=float(limit),
        browser_dependencies=tuple(str(name) for name in BROWSER_DEPENDENCIES.given(plugin)),
        site_name=str(config.get("site_name", "")),
        nav=tuple(_nav_pages(config.get("nav"), strings("progress.section.book"))),
        strings=strings,
    )


def _strings(config_file: Path, config: dict[str, Any], plugin: Any, extension: Any) -> Strings:
    """The book's words: the theme's language (or the extension's `language`), the plugin's `strings` option (or
    the extension's) on top, checked as the plugin checks them."""
    theme = config.get("theme")
    language = LANGUAGE.given(extension) or (theme.get("language") if isinstance(theme, dict) else "") or SOURCE
    given, where = STRINGS.given(plugin), ("plugins", NAME, "strings")
    if not given and extension:
        name = next((name for name in EXTENSION_NAMES if name in _entries(config.get("markdown_extensions"))), NAME)
        given, where = STRINGS.given(extension), ("markdown_extensions", name, "strings")
    try:
        return book_strings(str(language), given, config_file, where)
    except StringsProblemError as error:
        raise UsageError(str(error)) from None


def _nav_pages(entries: Any, section: str) -> Iterator[tuple[str, str, str]]:
    """The pages of a nav as mkdocs.yml writes it, in order: (source, title or "", the title of the section it is in,
    `section` at the top, as the plugin's progress page names a page outside any section)."""
    for entry in entries if isinstance(entries, list) else []:
        title, value = next(iter(entry.items())) if isinstance(entry, dict) and len(entry) == 1 else ("", entry)
        if isinstance(value, list):
            yield from _nav_pages(value, str(title))
        elif isinstance(value, str) and value.endswith(".md") and "://" not in value:
            yield value, str(title or ""), section


@contextmanager
def _book(options: BookOptions) -> Iterator[Book]:
    """The book's package, imported (and its code run) as the plugin does it: within its time limit."""
    code, hung = start_book_code(options.package, options.time_limit)
    try:
        loaded = hung or load_book(options.package, options.root, reload=False)
        if isinstance(loaded, str):
            raise UsageError(loaded)
        with session(loaded, code).active():
            yield loaded
    finally:
        stop_book_code(code)


def _page_html(site_dir: Path, source: str) -> list[Path]:
    """Where a host writes the page built from `source` (reference/x.md), with and without directory URLs."""
    stem = source.removesuffix(".md")
    return [site_dir / stem / "index.html", site_dir / f"{stem}.html"]


def _built(site_dir: Path, source: str) -> Path | None:
    """The page built from `source`: `index.md` files are their folder's index.html."""
    stem = source.removesuffix(".md")
    folder = stem.removesuffix("index").rstrip("/") if stem == "index" or stem.endswith("/index") else None
    candidates = [site_dir / folder / "index.html"] if folder is not None else _page_html(site_dir, source)
    return next((path for path in candidates if path.is_file()), None)


_BROKEN = re.compile(r'<div class="calc-broken\b.*?</div>', re.S)
_MESSAGE = re.compile(r"<li><code>(.*?)</code></li>", re.S)


def _problems_shown(site_dir: Path) -> list[str]:
    """The messages of every block a page shows as broken (render.render_problems): a host that caches pages (Zensical)
    prints a page's problems only when it renders the page, so the built site is where they are sure to be found."""
    return [
        unescape(message)
        for page in sorted(site_dir.rglob("*.html"))
        for box in _BROKEN.findall(page.read_text(encoding="utf-8"))
        for message in _MESSAGE.findall(box)
    ]


def pages(options: BookOptions) -> None:
    with _book(options) as book:
        for path in write_pages(options.docs_dir, book, options.strings):
            print(f"calculators: wrote {path.relative_to(options.root).as_posix()}")


def ship_site(site_dir: Path, options: BookOptions) -> None:
    if not (site_dir / "index.html").is_file():
        raise UsageError(f"{site_dir}: no built site here (no index.html): build first, then ship")
    with _book(options) as book:
        _ship_book(site_dir, options, book)


def _fill_progress(site_dir: Path, options: BookOptions) -> None:
    """The progress page's list, from the built pages: the nav's first, in its order, then every other page of the
    docs folder (as the plugin lists a page outside the nav)."""
    progress = _built(site_dir, PROGRESS_PAGE)
    if progress is None:
        return  # checked before: the generated pages were built
    listed = {source for source, _, _ in options.nav}
    others = sorted(
        path.relative_to(options.docs_dir).as_posix()
        for path in options.docs_dir.rglob("*.md")
        if path.relative_to(options.docs_dir).as_posix() not in listed
    )
    pages = [
        BuiltPage(html, title, section)
        for source, title, section in [
            *options.nav,
            *((source, "", options.strings("progress.section.book")) for source in others),
        ]
        if (html := _built(site_dir, source)) is not None
    ]
    fill_progress(site_dir, progress, options.site_name, pages, options.strings)


def _ship_book(site_dir: Path, options: BookOptions, book: Book) -> None:
    from mkdocs.exceptions import PluginError

    from ..runtime.dependencies import DependencyError, dependency
    from ..runtime.site import check_node_modules

    docs = options.docs_dir.relative_to(options.root).as_posix()
    for source, text in generated_pages(book, options.strings).items():
        written = options.docs_dir / source
        if not written.is_file() or not written.read_text(encoding="utf-8").endswith(text):
            raise UsageError(
                f"{docs}/{source}: missing or out of date: run `mkdocs-calculators pages` before the build, then "
                "build again"
            )
        if not any(html.is_file() for html in _page_html(site_dir, source)):
            raise UsageError(f"{docs}/{source} was not built into {site_dir}: build again, then ship")
    shown = _problems_shown(site_dir)
    if shown:
        listed = "\n".join(f"  {message}" for message in shown)
        raise UsageError(
            f"{site_dir} shows {len(shown)} problem(s) in its blocks, so it is not shipped:\n{listed}\nmend them and "
            "build again (`zensical build --clean`: a cached page is not checked again)"
        )
    _fill_progress(site_dir, options)
    try:
        check_node_modules(options.node_modules)
        finish_pages(site_dir)
        dependencies = tuple(dependency(name) for name in options.browser_dependencies)
        wheels = ship(
            site_dir,
            options.node_modules,
            book,
            snapshot=options.snapshot,
            time_limit=options.time_limit,
            dependencies=dependencies,
            strings=options.strings,
        )
    except (PluginError, DependencyError) as error:
        raise UsageError(str(error)) from None
    print(f"calculators: shipped {', '.join(wheels)} and the runtime into {site_dir}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="mkdocs-calculators", description=__doc__.split("\n\n")[0])
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--config", "-f", type=Path, default=Path("mkdocs.yml"), help="default: mkdocs.yml")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser(
        "pages", parents=[common], help="write the generated reference pages into the docs folder (before a build)"
    )
    shipping = commands.add_parser(
        "ship", parents=[common], help="write the runtime and the service worker into a built site"
    )
    shipping.add_argument("site_dir", type=Path, help="the built site, e.g. site/")
    args = parser.parse_args(argv)
    try:
        options = read_options(args.config)
        if args.command == "pages":
            pages(options)
        else:
            ship_site(args.site_dir, options)
    except (UsageError, ValueError) as error:
        print(f"mkdocs-calculators: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
