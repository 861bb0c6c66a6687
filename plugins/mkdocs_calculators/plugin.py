"""The build hooks: check and pre-render every ```calculator block, and ship the runtime that makes it live."""

from __future__ import annotations

import importlib
import importlib.util
import logging
import mimetypes
import os
import re
import sys
import uuid
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mkdocs.config.config_options import ExtraScriptValue
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

from .blocks import PageContext
from .config import CalculatorsConfig
from .formulas import KATEX_CSS, Formulas, arithmatex_problem
from .page import render_page
from .problems import located
from .progress_page import PROGRESS_PAGE, ProgressBook, blocks_in, here_line, progress_page_markdown
from .runtime import ENTRY_SCRIPT, LIVE_MARK, STYLESHEET, check_node_modules, write_runtime
from .service_worker import write_service_worker

if TYPE_CHECKING:
    from calckit.book import Book

# Not get_plugin_logger: its prefix would break the `docs/page.md:LINE: message` form that editors can jump to.
# Under `mkdocs.` so that strict mode counts the errors and stops the build.
log = logging.getLogger("mkdocs.plugins.calculators")

_HEAD = re.compile(r"<head\b[^>]*>", re.IGNORECASE)


class CalculatorsPlugin(BasePlugin[CalculatorsConfig]):
    def __init__(self) -> None:
        self._serving = False
        self._blocks: dict[str, str] = {}  # placeholder token -> the block's HTML, until its page is written
        self._tokens: dict[str, list[str]] = {}  # page (its source path) -> the tokens of its blocks
        self._searched: set[str] = set()  # tokens of blocks that go into the content as it is indexed
        self._broken = ""  # under `mkdocs serve`: why the book's package could not be loaded, shown on every block
        self._book: Book | None = None  # the book's package, as the contract reads it (calckit.book)
        self._progress = ProgressBook("", uuid.uuid4().hex)  # the book's quizzes and exercises, for the progress page
        self._progress_url = ""  # the progress page's address in the site
        self._nav_order: list[str] = []  # pages (by source) in the nav's order
        self._formulas: Formulas | None = None  # the build's math, when the `math` option is on

    def on_startup(self, *, command: str, dirty: bool) -> None:
        self._serving = command == "serve"

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig | None:
        if not self.config.enabled:
            return config
        loaded = _load_package(self.config.package, Path(config.config_file_path).parent, reload=self._serving)
        self._book, self._broken = (None, loaded) if isinstance(loaded, str) else (loaded, "")
        if self._broken:
            if not self._serving:
                raise PluginError(self._broken)  # MkDocs prints the one line and stops: no traceback
            log.error(self._broken)  # `mkdocs serve` keeps serving, shows it on every block, and retries on an edit
        # Module scripts and wasm need their proper types from `mkdocs serve` and the test server.
        mimetypes.add_type("text/javascript", ".mjs")
        mimetypes.add_type("application/wasm", ".wasm")
        check_node_modules(self._node_modules(config))
        if "attr_list" not in config.markdown_extensions:
            # The reference page gives each calculator's heading its name as its id (`{#roofline}`): links go there.
            config.markdown_extensions.append("attr_list")
        self._progress.book = config.site_name
        if self.config.math:
            self._use_math(config)
        script = ExtraScriptValue(ENTRY_SCRIPT)
        script.defer = True  # a classic script, so that it runs from file:// too; after Material's document$
        config.extra_javascript.append(script)
        config.extra_css.append(STYLESHEET)
        return config

    def _use_math(self, config: MkDocsConfig) -> None:
        """Formulas are found by pymdownx.arithmatex in generic mode (added if the site has not), typeset by us."""
        problem = arithmatex_problem(config.markdown_extensions, config.mdx_configs)
        if problem:
            raise PluginError(problem)
        if "pymdownx.arithmatex" not in config.markdown_extensions:
            config.markdown_extensions.append("pymdownx.arithmatex")
            config.mdx_configs["pymdownx.arithmatex"] = {"generic": True}
        if self._formulas is None:  # kept across `mkdocs serve` rebuilds: typeset formulas are reused
            self._formulas = Formulas(self._node_modules(config))

    def on_env(self, env: Any, *, config: MkDocsConfig, files: Files) -> Any:
        # Every page's content has been read by now and none written yet: typeset all of the build's math at once.
        if self.config.enabled and self._formulas is not None:
            for problem in self._formulas.typeset():
                log.error(problem)
        return env

    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files | None:
        if not self.config.enabled or self._book is None:
            return files
        from .reference import CALCULATORS_PAGE, calculators_page, table_page, table_page_path

        files.append(File.generated(config, CALCULATORS_PAGE, content=calculators_page(self._book)))
        progress = File.generated(config, PROGRESS_PAGE, content=progress_page_markdown(self._progress.token))
        files.append(progress)
        self._progress_url = progress.url
        table = self._book.table
        if table:
            files.append(File.generated(config, table_page_path(table), content=table_page(table)))
        return files

    def on_nav(self, nav: Any, *, config: MkDocsConfig, files: Files) -> Any:
        self._nav_order = [page.file.src_uri for page in nav.pages]
        return nav

    def on_serve(self, server: Any, *, config: MkDocsConfig, builder: Any) -> Any:
        if self.config.enabled:
            # Found without importing it: the package may be broken right now, and must be watched all the same.
            spec = importlib.util.find_spec(self.config.package)
            for folder in (spec.submodule_search_locations or []) if spec else []:
                server.watch(folder)
            server.watch(str(Path(__file__).parent / "assets"))
        return server

    def on_page_markdown(self, markdown: str, *, page: Page, config: MkDocsConfig, files: Files) -> str | None:
        if not self.config.enabled:
            return markdown
        for token in self._tokens.pop(page.file.src_uri, []):  # a page built again (mkdocs serve)
            self._blocks.pop(token, None)
            self._searched.discard(token)
        context = PageContext(_display_path(page, config), self._book, page.file.abs_src_path, page.url)
        rendered = render_page(
            markdown,
            context,
            offset=_front_matter_lines(page, markdown),
            file_text=page.file.content_string,
            broken=self._broken,
        )
        for problem in rendered.problems:
            (log.warning if problem.warning else log.error)(str(problem))
        tokens: dict[int, str] = {}
        for block in rendered.blocks:
            token = tokens[id(block)] = f"CALCBLOCK{uuid.uuid4().hex}"
            self._blocks[token] = block.html
            if block.searchable:
                self._searched.add(token)  # quizzes, exercises, tables: what they say is found by search
        self._tokens[page.file.src_uri] = list(tokens.values())
        return rendered.markdown(lambda block: tokens[id(block)])

    def on_page_content(self, html: str, *, page: Page, config: MkDocsConfig, files: Files) -> str | None:
        # Quizzes, exercises and data tables go into the content, for search to index. A calculator stays an empty
        # slot until the page is written (on_post_page): the search plugin, which parses every page's content, then
        # skips its form, results and chart (much of a long page's HTML) unread, as it skipped them before (their
        # HTML is marked data-search-exclude), and the build takes less time.
        for token in self._tokens.get(page.file.src_uri, []):
            content = self._blocks.pop(token) if token in self._searched else _slot(token)
            html = html.replace(f"<p>{token}</p>", content).replace(token, content)
        if self.config.enabled and not self._broken:
            html = self._note_progress(html, page)
        if self.config.enabled and self._formulas is not None:
            self._formulas.collect(page.file.src_uri, _display_path(page, config), html, page.file.content_string)
        return html

    def _note_progress(self, html: str, page: Page) -> str:
        """Remember the page's quizzes and exercises for the progress page, and put its own progress under its title."""
        from mkdocs.utils import get_relative_url

        items = blocks_in(html)
        url = get_relative_url(page.url or ".", self._progress_url)
        section = page.parent.title if page.parent is not None else "The book"
        self._progress.add(page.file.src_uri, page.title or page.file.src_uri, url, section, items)
        if not items:
            return html
        line = here_line(items, get_relative_url(self._progress_url, page.url or "."))
        end = html.find("</h1>")
        return html[: end + 5] + line + html[end + 5 :] if end >= 0 else line + html

    def on_post_page(self, output: str, *, page: Page, config: MkDocsConfig) -> str | None:
        if self.config.enabled:
            # First in the head (a theme's <head> may carry attributes): no stylesheet for the script to wait for.
            output = _HEAD.sub(lambda head: head[0] + LIVE_MARK, output, count=1)
            if page.file.src_uri == PROGRESS_PAGE and not self._broken:
                # Every page's content has been read by now (MkDocs reads them all before it writes any).
                output = output.replace(self._progress.slot(), self._progress.list_html(self._nav_order))
            if self._formulas is not None:
                from mkdocs.utils import get_relative_url

                stylesheet = get_relative_url(KATEX_CSS, page.url or ".")
                output = self._formulas.page_html(page.file.src_uri, output, stylesheet)
        for token in self._tokens.pop(page.file.src_uri, []):
            if token in self._searched:
                self._searched.discard(token)
                continue
            block = self._blocks.pop(token)
            if _slot(token) not in output:
                log.error(f"{_display_path(page, config)}: a calculators block was lost (another plugin rewrote it)")
            output = output.replace(_slot(token), block)
        return output

    def on_post_build(self, *, config: MkDocsConfig) -> None:
        if self.config.enabled and self._book is not None:
            site_dir = Path(config.site_dir)
            node_modules = self._node_modules(config)
            write_runtime(site_dir, node_modules, self._book, snapshot=self.config.snapshot, serving=self._serving)
            if self._formulas is not None:
                self._formulas.write_assets(site_dir)
            write_service_worker(site_dir, serving=self._serving)
            if not self._serving and config.site_url:
                # Instant navigation follows only links to site_url's address: served anywhere else, every click
                # reloads the page and restarts Python. Say where this build belongs.
                log.info("calculators: built for %s (serve it there, e.g. `make preview`)", config.site_url)

    def _node_modules(self, config: MkDocsConfig) -> Path:
        return Path(config.config_file_path).parent / self.config.node_modules


def _slot(token: str) -> str:
    """Where a block's HTML goes in the written page (without its token, which the slot must not contain)."""
    return f'<div data-search-exclude data-calculators-slot="{token.removeprefix("CALCBLOCK")}"></div>'


def _display_path(page: Page, config: MkDocsConfig) -> str:
    """The page's source as a person finds it from the project's root: docs/lessons/roofline.md."""
    root = Path(config.config_file_path).parent
    source = page.file.abs_src_path
    if source is None:
        return page.file.src_uri
    return Path(os.path.relpath(source, root)).as_posix()


def _front_matter_lines(page: Page, markdown: str) -> int:
    """How many lines the front matter takes, so block lines count from the top of the file."""
    source = page.file.content_string
    if markdown and source.endswith(markdown):
        return source[: len(source) - len(markdown)].count("\n")
    return 0


def _load_package(package: str, root: Path, *, reload: bool) -> Book | str:
    """The book's package, checked against the contract (calckit.book) with its table loaded; or one located line
    saying why that failed. `reload` drops the package's modules imported before, as `mkdocs serve` must to pick up
    edits.
    """
    from calckit import book
    from calckit.table import TableError, check_table

    if reload:
        for name in [name for name in sys.modules if name == package or name.startswith(f"{package}.")]:
            del sys.modules[name]
    try:
        if importlib.util.find_spec(package) is None:
            return (
                f"calculators: the plugin's option 'package' names '{package}', which Python cannot import (is it "
                "installed, e.g. `pip install -e .`, or is the name misspelt?)"
            )
        # Also the book that calckit's quiz and exercise readers find calculators in, until they are handed it.
        loaded = book.use(package)
        if loaded.table:
            check_table(loaded.table)
    except (book.ContractError, TableError) as error:
        return f"calculators: {error}"
    except Exception as error:
        return located(error, root)
    return loaded
