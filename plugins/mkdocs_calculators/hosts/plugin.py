"""The build hooks: check and pre-render every ```calculator block, and ship the runtime that makes it live."""

from __future__ import annotations

import logging
import mimetypes
import re
import uuid
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mkdocs.config.config_options import ExtraScriptValue
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.pages import Page

from ..blocks import PageContext
from ..config import CalculatorsConfig
from ..extras.build_cache import BuildCache, PagePlace, book_cache
from ..extras.chart_check import save_valid_shapes, use_schema
from ..extras.formulas import KATEX_CSS, Formulas
from ..i18n import ENGLISH
from ..pages.page import render_page
from ..pages.progress_page import PROGRESS_PAGE, BlockItem, ProgressBook, here_line, progress_list, under_title
from ..pages.reference import CALCULATORS_PAGE, HTML_CHUNK
from ..pages.render import render_problems
from ..runtime.imports import browser_import_check
from ..runtime.service_worker import write_service_worker
from ..runtime.site import ENTRY_SCRIPT, STYLESHEET, check_node_modules, write_runtime
from ..sandbox.books import book_to_ship, load_book
from ..sandbox.compute_process import (
    ComputeProcess,
    await_book_code,
    launch_book_code,
    limit_problem,
    session,
    stop_book_code,
)
from .disabled import add_placeholders
from .markdown import EXTENSION_NAMES
from .mkdocs_site import (
    TOKEN_PREFIX,
    add_arithmatex,
    authored_text,
    display_path,
    fill_slots,
    front_matter_lines,
    markdown_setup,
    put_in_place,
    register_anchors,
    report_as_usual,
    report_without_aborting,
    searched_slot,
    site_hooks,
    slot,
    theme_strings,
    watch_sources,
)
from .ship import GENERATED_MARK, generated_pages, mark_live

if TYPE_CHECKING:
    from calckit.book import Book

# Not get_plugin_logger: its prefix would break the `docs/page.md:LINE: message` form that editors can jump to.
# Under `mkdocs.` so that strict mode counts the errors and stops the build.
log = logging.getLogger("mkdocs.plugins.calculators")


class CalculatorsPlugin(BasePlugin[CalculatorsConfig]):
    def __init__(self) -> None:
        self._serving = False
        self._blocks: dict[str, str] = {}  # placeholder token -> the block's HTML, until its page is written
        self._tokens: dict[str, list[str]] = {}  # page (its source path) -> the tokens of its blocks
        # Tokens of the blocks that search reads -> the part it reads, put in their place in the content until the page
        # is written (pages/searched.py), or None for a block that goes into the content whole.
        self._searched: dict[str, str | None] = {}
        self._items: dict[str, BlockItem] = {}  # token -> what its block adds to the reader's progress (kinds' hooks)
        self._broken = ""  # under `mkdocs serve`: why the book's package could not be loaded, shown on every block
        self._book: Book | None = None  # the book's package, as the contract reads it (calckit.book), once imported
        self._shipped: Book | None = None  # the book as the runtime ships it (imported, or sandbox.books.deferred_book)
        self._root = Path()  # the project's folder (mkdocs.yml's)
        self._generated_paths: tuple[str, ...] = (CALCULATORS_PAGE, PROGRESS_PAGE)  # the package's pages, as last made
        # The book's quizzes and exercises, for the progress page. Its slot's token is the same at every build, so
        # that the page, with nothing else to render, comes from the build cache as the other pages do.
        self._progress = ProgressBook("", "built")
        self._progress_url = ""  # the progress page's address in the site
        self._nav_order: list[str] = []  # pages (by source) in the nav's order
        self._formulas: Formulas | None = None  # the build's math, when the `math` option is on
        self._block_lines: dict[str, int] = {}  # placeholder token -> the file line of its block's fence
        self._code: ComputeProcess | None = None  # where the book's code runs at build, with a time limit
        self._dependencies: tuple[Any, ...] = ()  # the distributions shipped to the browser (runtime/dependencies.py)
        self._missing: tuple[str, ...] = ()  # modules the package imports that the browser lacks (runtime/imports.py)
        self._cache = BuildCache(None, "")  # what earlier builds worked out from the same code (extras/build_cache.py)
        self._runtime_threads = ThreadPoolExecutor(1)  # where the browser's runtime is written (_write_runtime)
        self._runtime: Future[list[str]] | None = None
        self._strings = ENGLISH  # the plugin's words for readers in the book's language, with the author's (i18n/)

    def on_startup(self, *, command: str, dirty: bool) -> None:
        self._serving = command == "serve"
        if self._serving:
            report_without_aborting()
            # Module scripts and wasm need their proper types from `mkdocs serve`'s server, in this process (a build
            # leaves them alone: reading the system's types took 5 ms of every build).
            mimetypes.add_type("text/javascript", ".mjs")
            mimetypes.add_type("application/wasm", ".wasm")

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig | None:
        # The same mkdocs.yml may name the `calculators` extension for Zensical: here the page hook renders the blocks
        # (with the same function, page.render_page), since it knows the page, so the extension must not run
        # again (nor run at all with the plugin disabled).
        config.markdown_extensions[:] = [name for name in config.markdown_extensions if name not in EXTENSION_NAMES]
        if not self.config.enabled:
            return config
        problem = limit_problem(self.config.time_limit)
        if problem:
            raise PluginError(problem)
        from ..blocks import KindError, kinds

        try:
            kinds()  # the plugin's and the books' (entry points): a broken registration stops here, in one line
        except KindError as error:
            raise PluginError(str(error)) from None
        # The child imports the book's package while MkDocs gathers the site's files; on_files waits for it.
        self._end_build()  # a fresh child for each build of `mkdocs serve`: the package may have changed
        self._code = launch_book_code(self.config.package, float(self.config.time_limit))
        use_schema(self._node_modules(config))
        check_node_modules(self._node_modules(config))
        self._strings = theme_strings(config, self.config.strings)
        self._progress.strings = self._strings
        if "attr_list" not in config.markdown_extensions:
            # The reference page gives each calculator's heading its name as its id (`{#roofline}`): links go there.
            config.markdown_extensions.append("attr_list")
        self._progress.book = config.site_name
        if self.config.math:  # formulas found by pymdownx.arithmatex, typeset by us (kept across `mkdocs serve` builds)
            add_arithmatex(config)
            self._formulas = self._formulas or Formulas(self._node_modules(config))
        script = ExtraScriptValue(ENTRY_SCRIPT)
        script.defer = True  # a classic script, so that it runs from file:// too; after Material's document$
        config.extra_javascript.append(script)
        config.extra_css.append(STYLESHEET)
        return config

    def on_env(self, env: Any, *, config: MkDocsConfig, files: Files) -> Any:
        # Every page's content has been read by now and none written yet: typeset all of the build's math at once.
        if self.config.enabled and self._formulas is not None:
            for problem in self._formulas.typeset():
                log.error(problem)
        return env

    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files | None:
        if not self.config.enabled:
            return add_placeholders(files, config, theme_strings(config, self.config.strings))
        self._load_book(config)
        if self._shipped is not None:
            generated = self._cache.generated_pages(self._progress.token)
            if generated is None:
                generated = generated_pages(self._whole_book(), self._strings, self._progress.token)
                self._cache.keep_generated_pages(self._progress.token, generated)
            self._generated_paths = tuple(generated)
        elif self._broken:
            # Only under `mkdocs serve` (a build stops in _load_book): the pages the package makes say why they are not
            # made, so that the nav's links to them answer and MkDocs has no missing page to stop the rebuild on.
            broken = f"# Not made: the book's package does not load\n\n{render_problems([self._broken], 'package')}\n"
            generated = dict.fromkeys(self._generated_paths, broken)
        else:
            return files
        for path, content in generated.items():
            own = files.get_file_from_path(path)
            if own is not None and own.content_string.startswith(GENERATED_MARK):
                files.remove(own)  # written by `mkdocs-calculators pages`, for Zensical: the plugin's own replaces it
            elif own is not None and own.generated_by is None:
                # The author's page would be replaced, said only at INFO level with a traceback: keep theirs, and say.
                log.error(
                    f"{Path(config.docs_dir).name}/{path}: this page is where the plugin writes its generated "
                    f"reference ({path}, from the package '{self.config.package}'): move your page, and link to the "
                    "generated one"
                )
                continue
            # The progress page is linked from every page with a quiz or an exercise: a book's nav need not list it
            # (a strict build would stop on a page missing from nav), though it may.
            inclusion = InclusionLevel.NOT_IN_NAV if path == PROGRESS_PAGE else InclusionLevel.UNDEFINED
            file = File.generated(config, path, content=content, inclusion=inclusion)
            files.append(file)
            if path == PROGRESS_PAGE:
                self._progress_url = file.url
        return files

    def on_nav(self, nav: Any, *, config: MkDocsConfig, files: Files) -> Any:
        self._nav_order = [page.file.src_uri for page in nav.pages]
        return nav

    def on_serve(self, server: Any, *, config: MkDocsConfig, builder: Any) -> Any:
        if self.config.enabled:
            watch_sources(server, self.config.package)
        return server

    def on_page_markdown(self, markdown: str, *, page: Page, config: MkDocsConfig, files: Files) -> str | None:
        if not self.config.enabled:
            return markdown
        for token in self._tokens.pop(page.file.src_uri, []):  # a page built again (mkdocs serve)
            self._blocks.pop(token, None)
            self._searched.pop(token, None)
            self._items.pop(token, None)
        offset = front_matter_lines(page, markdown)
        where = display_path(page, config)
        place = PagePlace(where, page.file.abs_src_path, page.url, offset, page.file.content_string)
        rendered = None if self._broken else self._cache.page(markdown, place)
        if rendered is None:
            text = authored_text(page, config, files)
            book = None if self._broken else self._whole_book()
            context = PageContext(where, book, place.source, place.url, text, self._strings)
            with self._running():
                rendered = render_page(markdown, context, offset=offset, file_text=place.file_text, broken=self._broken)
            if not self._broken:
                self._cache.keep_page(rendered, place, context.reads)
        for problem in rendered.problems:
            (log.warning if problem.warning else log.error)(str(problem))
        tokens: dict[int, str] = {}
        for block in rendered.blocks:
            token = tokens[id(block)] = f"{TOKEN_PREFIX}{uuid.uuid4().hex}"
            self._blocks[token] = block.html
            self._block_lines[token] = block.fence.line + offset
            if block.searched is not None:  # quizzes, exercises, tables: what they say is found by search
                self._searched[token] = None if block.searched == block.html else block.searched
            if block.progress is not None:
                self._items[token] = block.progress
        self._tokens[page.file.src_uri] = list(tokens.values())
        return self._lift_html(rendered.markdown(lambda block: tokens[id(block)]), page.file.src_uri)

    def _running(self) -> AbstractContextManager[object]:
        """The book's code run in its compute process, with its time limit, for the work inside the block (and
        nothing else: calckit.session)."""
        return nullcontext() if self._book is None else session(self._book, self._code).active()

    def _lift_html(self, markdown: str, source: str) -> str:
        """Each HTML chunk of a generated reference page (reference.HTML_CHUNK) out of the Markdown, put back into the
        content as a searchable block is (on_page_content)."""

        def lift(chunk: re.Match[str]) -> str:
            token = f"{TOKEN_PREFIX}{uuid.uuid4().hex}"
            self._blocks[token] = chunk["html"]
            self._searched[token] = None
            self._tokens[source].append(token)
            return token

        return HTML_CHUNK.sub(lift, markdown)

    def on_page_content(self, html: str, *, page: Page, config: MkDocsConfig, files: Files) -> str | None:
        # Quizzes, exercises and data tables go into the content, for search to index, as the part of them it reads
        # (without their controls, marked data-search-exclude). A calculator stays an empty slot. Each is put back
        # whole when the page is written (on_post_page): the search plugin, which parses every page's content, then
        # no longer reads what it skips (much of a long page's HTML), and the build takes less time.
        tokens = self._tokens.get(page.file.src_uri, [])
        blocks = [(self._block_lines.pop(token, 0), self._blocks.get(token, "")) for token in tokens]
        register_anchors(page, display_path(page, config), blocks)
        items = []  # what the page's blocks add to the reader's progress, in page order
        contents, whole = {}, {}
        for token in tokens:
            if token not in self._searched:
                contents[token] = whole[token] = slot(token)  # a calculator
            else:
                part, whole[token] = self._searched[token], self._blocks[token]
                contents[token] = whole[token] if part is None else searched_slot(token, part)
            if token in self._items:
                items.append(self._items.pop(token))
        placed = put_in_place(html, contents)
        if self.config.enabled and self._formulas is not None:  # every formula of the page, in the page's order
            where, full = display_path(page, config), placed if whole == contents else put_in_place(html, whole)
            self._formulas.collect(page.file.src_uri, where, full, lambda: page.file.content_string)
        return self._note_progress(placed, page, items) if self.config.enabled and not self._broken else placed

    def _note_progress(self, html: str, page: Page, items: list[BlockItem]) -> str:
        """Remember the page's quizzes and exercises (`items`, as their kinds handed them over when they rendered) for
        the progress page, and put the page's own progress under its title."""
        from mkdocs.utils import get_relative_url

        url = get_relative_url(page.url or ".", self._progress_url)
        section = page.parent.title if page.parent is not None else self._strings("progress.section.book")
        self._progress.add(page.file.src_uri, page.title or page.file.src_uri, url, section, items)
        if not items:
            return html
        return under_title(html, here_line(items, get_relative_url(self._progress_url, page.url or "."), self._strings))

    def on_post_page(self, output: str, *, page: Page, config: MkDocsConfig) -> str | None:
        blocks = {}  # the blocks in a slot: each calculator, and each block that what search reads stood in for
        for token in self._tokens.pop(page.file.src_uri, []):
            block = self._blocks.pop(token)
            if token not in self._searched or self._searched.pop(token) is not None:
                blocks[token] = block
        output, lost = fill_slots(output, blocks)  # before the formulas are typeset: a question's are in its block
        for _ in lost:
            log.error(f"{display_path(page, config)}: a calculators block was lost (another plugin rewrote it)")
        if self.config.enabled:
            output = mark_live(output)
            if page.file.src_uri == PROGRESS_PAGE and not self._broken:
                # Every page's content has been read by now (MkDocs reads them all before it writes any).
                listed = progress_list(self._progress, self._nav_order, self._cache)
                output = output.replace(self._progress.slot(), listed)
            if self._formulas is not None:
                from mkdocs.utils import get_relative_url

                stylesheet = get_relative_url(KATEX_CSS, page.url or ".")
                output = self._formulas.page_html(page.file.src_uri, output, stylesheet)
        return output

    def on_post_build(self, *, config: MkDocsConfig) -> None:
        if self.config.enabled and self._shipped is not None:
            site_dir = Path(config.site_dir)
            if self._formulas is not None:
                self._formulas.write_assets(site_dir)  # before the service worker, whose manifest lists them
            if self._runtime is not None:
                self._runtime.result()  # raises what writing it raised
            write_service_worker(site_dir, serving=self._serving)  # last: its manifest hashes every file written
            if not self._serving and config.site_url:
                # Instant navigation follows only links to site_url's address: served anywhere else, every click
                # reloads the page and restarts Python. Say where this build belongs.
                log.info(
                    "calculators: built for %s (serve it at that address: instant navigation needs it)", config.site_url
                )

    def _load_book(self, config: MkDocsConfig) -> None:
        """Wait for the child's import of the book's package, then import it here (only then: code at a module's top
        level that never returns would hang the build where no time limit can stop it), unless the build cache kept
        its version for the same files (sandbox.books.book_to_ship: then only what is rendered again imports it here,
        _whole_book). Meanwhile, on the other core, the package's imports that a reader's browser lacks are read."""
        root = self._root = Path(config.config_file_path).parent
        node_modules = self._node_modules(config)
        import_problems: list[str] = []

        def meanwhile(directory: Path) -> None:
            versions = [f"time limit {float(self.config.time_limit)}", markdown_setup(config), self._strings.digest()]
            if self.config.cache:
                self._cache = book_cache(
                    root, directory, site_hooks(config), versions, self.config.browser_dependencies
                )
            checked = browser_import_check(node_modules, directory, self.config.browser_dependencies, self._cache)
            self._dependencies, self._missing = checked.dependencies, checked.missing
            import_problems.extend(checked.problems)

        self._cache, self._runtime = BuildCache(None, ""), None
        self._code, hung = await_book_code(self._code, meanwhile)
        book, self._book = book_to_ship(self.config.package, root, self._code, hung, self._cache, reload=self._serving)
        self._broken, self._shipped = (book, None) if isinstance(book, str) else ("", book)
        if self._shipped is not None:
            self._write_runtime(config, self._shipped)
        if self._broken:
            if not self._serving:
                raise PluginError(self._broken)  # MkDocs prints the one line and stops: no traceback
            log.error(self._broken)  # `mkdocs serve` keeps serving, shows it on every block, and retries on an edit
        else:
            for problem in import_problems:
                log.error(problem)

    def _whole_book(self) -> Book:
        """The book's package imported here, for a page or the package's pages rendered again (not while broken)."""
        if self._book is None:
            loaded = load_book(self.config.package, self._root, reload=self._serving)
            if isinstance(loaded, str):
                raise PluginError(loaded)
            self._book = loaded
        return self._book

    def _write_runtime(self, config: MkDocsConfig, book: Book) -> None:
        """Write what the browser needs into the site (runtime/site.py) on a thread of its own, while MkDocs renders the
        pages: most of it is copying files and compressing wheels, which leave the interpreter to the pages, and it
        needs nothing from them. MkDocs has emptied the site's folder by now (on_files comes after)."""
        self._runtime_threads.shutdown()  # one of an earlier build of `mkdocs serve`, finished by now
        self._runtime_threads = ThreadPoolExecutor(1, thread_name_prefix="calculators-runtime")
        self._runtime = self._runtime_threads.submit(
            write_runtime,
            Path(config.site_dir),
            self._node_modules(config),
            book,
            snapshot=self.config.snapshot,
            serving=self._serving,
            time_limit=float(self.config.time_limit),
            dependencies=self._dependencies,
            missing=self._missing,
            strings=self._strings,
        )

    def on_shutdown(self) -> None:
        self._end_build()
        if self._serving:
            report_as_usual()

    def _end_build(self) -> None:
        self._runtime_threads.shutdown()  # a build that stopped early leaves no half-written runtime behind it
        save_valid_shapes()
        stop_book_code(self._code)
        self._code = None

    def _node_modules(self, config: MkDocsConfig) -> Path:
        return Path(config.config_file_path).parent / self.config.node_modules
