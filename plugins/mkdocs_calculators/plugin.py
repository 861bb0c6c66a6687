"""The build hooks: check and pre-render every ```calculator block, and ship the runtime that makes it live."""

from __future__ import annotations

import importlib.util
import json
import logging
import mimetypes
import os
import re
import uuid
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import AbstractContextManager, nullcontext
from importlib import metadata
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from mkdocs.config.config_options import ExtraScriptValue
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.pages import Page
from mkdocs.utils import CountHandler

from .blocks import PageContext
from .build_cache import CACHE_DIR, BuildCache, PagePlace, code_digest, kinds_code, loaded_module, running_code
from .config import CalculatorsConfig
from .disabled import add_placeholders
from .extras.chart_check import save_valid_shapes, use_schema
from .extras.formulas import KATEX_CSS, Formulas, arithmatex_problem
from .markdown import EXTENSION_NAMES
from .page import render_page
from .pages.authored_text import AuthoredText
from .pages.reference import CALCULATORS_PAGE, HTML_CHUNK
from .pages.render import render_problems
from .pages.slips import anchor_ids
from .progress_page import PROGRESS_PAGE, BlockItem, ProgressBook, here_line, progress_page_markdown
from .runtime import ENTRY_SCRIPT, STYLESHEET, check_node_modules, write_runtime
from .sandbox.books import load_book
from .sandbox.compute_process import (
    ComputeProcess,
    await_book_code,
    launch_book_code,
    limit_problem,
    session,
    stop_book_code,
)
from .service_worker import write_service_worker
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
        self._searched: set[str] = set()  # tokens of blocks that go into the content as it is indexed
        self._items: dict[str, BlockItem] = {}  # token -> what its block adds to the reader's progress (kinds' hooks)
        self._broken = ""  # under `mkdocs serve`: why the book's package could not be loaded, shown on every block
        self._book: Book | None = None  # the book's package, as the contract reads it (calckit.book)
        self._generated_paths: tuple[str, ...] = (CALCULATORS_PAGE, PROGRESS_PAGE)  # the package's pages, as last made
        self._progress = ProgressBook("", uuid.uuid4().hex)  # the book's quizzes and exercises, for the progress page
        self._progress_url = ""  # the progress page's address in the site
        self._nav_order: list[str] = []  # pages (by source) in the nav's order
        self._formulas: Formulas | None = None  # the build's math, when the `math` option is on
        self._block_lines: dict[str, int] = {}  # placeholder token -> the file line of its block's fence
        self._code: ComputeProcess | None = None  # where the book's code runs at build, with a time limit
        self._dependencies: tuple[Any, ...] = ()  # the distributions shipped to the browser (dependencies.py)
        self._missing: tuple[str, ...] = ()  # modules the package imports that the browser lacks (imports.py)
        self._cache = BuildCache(None, "")  # what earlier builds worked out from the same code (build_cache.py)
        self._runtime_threads = ThreadPoolExecutor(1)  # where the browser's runtime is written (_write_runtime)
        self._runtime: Future[list[str]] | None = None

    def on_startup(self, *, command: str, dirty: bool) -> None:
        self._serving = command == "serve"
        if self._serving:
            _report_without_aborting()

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
        from .blocks import KindError, kinds

        try:
            kinds()  # the plugin's and the books' (entry points): a broken registration stops here, in one line
        except KindError as error:
            raise PluginError(str(error)) from None
        # The child imports the book's package while MkDocs gathers the site's files; on_files waits for it.
        self._end_build()  # a fresh child for each build of `mkdocs serve`: the package may have changed
        self._code = launch_book_code(self.config.package, float(self.config.time_limit))
        use_schema(self._node_modules(config))
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
        add_arithmatex(config)
        if self._formulas is None:  # kept across `mkdocs serve` rebuilds: typeset formulas are reused
            self._formulas = Formulas(self._node_modules(config))

    def on_env(self, env: Any, *, config: MkDocsConfig, files: Files) -> Any:
        # Every page's content has been read by now and none written yet: typeset all of the build's math at once.
        if self.config.enabled and self._formulas is not None:
            for problem in self._formulas.typeset():
                log.error(problem)
        return env

    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files | None:
        if not self.config.enabled:
            return add_placeholders(files, config)
        self._load_book(config)
        if self._book is not None:
            generated = {**generated_pages(self._book), PROGRESS_PAGE: progress_page_markdown(self._progress.token)}
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
            # Found without importing it: the package may be broken right now, and must be watched all the same.
            spec = importlib.util.find_spec(self.config.package)
            for folder in (spec.submodule_search_locations or []) if spec else []:
                server.watch(folder)
            server.watch(str(Path(__file__).parent / "assets"))
            server.watch(str(Path(__file__).parent / "blocks"))  # each kind's browser files
        return server

    def on_page_markdown(self, markdown: str, *, page: Page, config: MkDocsConfig, files: Files) -> str | None:
        if not self.config.enabled:
            return markdown
        for token in self._tokens.pop(page.file.src_uri, []):  # a page built again (mkdocs serve)
            self._blocks.pop(token, None)
            self._searched.discard(token)
            self._items.pop(token, None)
        text = _authored_text(page, config, files)
        context = PageContext(_display_path(page, config), self._book, page.file.abs_src_path, page.url, text)
        offset = _front_matter_lines(page, markdown)
        place = PagePlace(context.path, context.source, context.url, offset, page.file.content_string)
        rendered = None if self._broken else self._cache.page(markdown, place)
        if rendered is None:
            with self._running():
                rendered = render_page(markdown, context, offset=offset, file_text=place.file_text, broken=self._broken)
            if not self._broken:
                self._cache.keep_page(rendered, place, context.reads)
        for problem in rendered.problems:
            (log.warning if problem.warning else log.error)(str(problem))
        tokens: dict[int, str] = {}
        for block in rendered.blocks:
            token = tokens[id(block)] = f"CALCBLOCK{uuid.uuid4().hex}"
            self._blocks[token] = block.html
            self._block_lines[token] = block.fence.line + offset
            if block.searchable:
                self._searched.add(token)  # quizzes, exercises, tables: what they say is found by search
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
            token = f"CALCBLOCK{uuid.uuid4().hex}"
            self._blocks[token] = chunk["html"]
            self._searched.add(token)
            self._tokens[source].append(token)
            return token

        return HTML_CHUNK.sub(lift, markdown)

    def on_page_content(self, html: str, *, page: Page, config: MkDocsConfig, files: Files) -> str | None:
        # Quizzes, exercises and data tables go into the content, for search to index. A calculator stays an empty
        # slot until the page is written (on_post_page): the search plugin, which parses every page's content, then
        # skips its form, results and chart (much of a long page's HTML) unread, as it skipped them before (their
        # HTML is marked data-search-exclude), and the build takes less time.
        self._register_anchors(page, config)
        items = []  # what the page's blocks add to the reader's progress, in page order
        for token in self._tokens.get(page.file.src_uri, []):
            content = self._blocks.pop(token) if token in self._searched else _slot(token)
            if token in self._items:
                items.append(self._items.pop(token))
            html = html.replace(f"<p>{token}</p>", content).replace(token, content)
        if self.config.enabled and not self._broken:
            html = self._note_progress(html, page, items)
        if self.config.enabled and self._formulas is not None:
            self._formulas.collect(page.file.src_uri, _display_path(page, config), html, page.file.content_string)
        return html

    def _note_progress(self, html: str, page: Page, items: list[BlockItem]) -> str:
        """Remember the page's quizzes and exercises (`items`, as their kinds handed them over when they rendered) for
        the progress page, and put the page's own progress under its title."""
        from mkdocs.utils import get_relative_url

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
            output = mark_live(output)
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
        level that never returns would hang the build where no time limit can stop it). Meanwhile, on the other core,
        the package's imports that a reader's browser lacks are read from its sources."""
        root = Path(config.config_file_path).parent
        node_modules = self._node_modules(config)
        import_problems: list[str] = []

        def meanwhile(directory: Path) -> None:
            self._cache = self._build_cache(root, directory, _hooks(config), _markdown_setup(config))
            import_problems.extend(self._browser_import_problems(node_modules, directory))

        self._cache, self._runtime = BuildCache(None, ""), None
        self._code, hung = await_book_code(self._code, meanwhile)
        loaded = hung or load_book(self.config.package, root, reload=self._serving)
        self._book, self._broken = (None, loaded) if isinstance(loaded, str) else (loaded, "")
        if self._book is not None:
            self._write_runtime(config, self._book)
        if self._broken:
            if not self._serving:
                raise PluginError(self._broken)  # MkDocs prints the one line and stops: no traceback
            log.error(self._broken)  # `mkdocs serve` keeps serving, shows it on every block, and retries on an edit
        else:
            for problem in import_problems:
                log.error(problem)

    def _write_runtime(self, config: MkDocsConfig, book: Book) -> None:
        """Write what the browser needs into the site (runtime.py) on a thread of its own, while MkDocs renders the
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
        )

    def _build_cache(self, root: Path, directory: Path, hooks: list[ModuleType], markdown: str) -> BuildCache:
        """Where this build reuses what an earlier one worked out from the same code (build_cache.py)."""
        if not self.config.cache:
            return BuildCache(None, "")
        versions = [f"time limit {float(self.config.time_limit)}"]  # a lower one may stop code that finished before
        versions.append(markdown)  # the site's Markdown setup, which an author's text in a block is rendered with
        for name in self.config.browser_dependencies:
            try:
                versions.append(f"{name} {metadata.version(name)}")
            except metadata.PackageNotFoundError:
                versions.append(name)
        import calckit  # noqa: F401  (imported: running_code reads it as loaded)

        from .blocks import kinds
        from .blocks.hooks import kind_folder

        code = [running_code("calckit", __package__ or "mkdocs_calculators"), *kinds_code(kinds())]
        code += [loaded_module(hook) for hook in hooks]
        # A book's own kinds (entry points): the files of each one's folder, as its package's are.
        folders = [(directory, "*"), *((kind_folder(kind), "*") for kind in kinds() if not _plugins_own(kind))]
        return BuildCache(root / CACHE_DIR, code_digest(folders, [*code, *versions]))

    def on_shutdown(self) -> None:
        self._end_build()
        if self._serving:
            _report_as_usual()

    def _end_build(self) -> None:
        self._runtime_threads.shutdown()  # a build that stopped early leaves no half-written runtime behind it
        save_valid_shapes()
        stop_book_code(self._code)
        self._code = None

    def _browser_import_problems(self, node_modules: Path, directory: Path) -> list[str]:
        """Each import of the book's package (in `directory`) that the reader's browser cannot satisfy, as an error
        at its line; and each `browser_dependencies` entry that is not an installed distribution."""
        from .dependencies import DependencyError, dependency
        from .imports import browser_modules, import_problems

        self._missing = ()
        if not (node_modules / "pyodide" / "python_stdlib.zip").is_file():
            return []  # no runtime to read the browser's modules from: an error of its own, which says to npm ci
        shipped = []
        errors = []
        for name in self.config.browser_dependencies:
            try:
                shipped.append(dependency(name))
            except DependencyError as error:
                errors.append(str(error))
        self._dependencies = tuple(shipped)
        available = browser_modules(node_modules, [directory.name, *(t for d in shipped for t in d.top_level)])
        cached = self._cache.imports(available.key)
        if cached is None:
            cached = import_problems(directory, directory.name, available)
            self._cache.keep_imports(available.key, *cached)
        problems, missing = cached
        # Not strict (mkdocs serve), the build goes on: in the browser these are stand-ins, so that only the
        # calculators whose code uses one fail, and say so (calckit.stand_ins).
        self._missing = tuple(missing)
        return [*errors, *problems]

    def _register_anchors(self, page: Page, config: MkDocsConfig) -> None:
        """Give MkDocs' anchor validation the ids of the page's blocks (their HTML comes after it collected the
        page's), and report one that the page already has (a heading `## Calc 1` is `calc-1` too)."""
        anchors = page.present_anchor_ids
        for token in self._tokens.get(page.file.src_uri, []):
            line = self._block_lines.pop(token, 0)
            ids = anchor_ids(self._blocks.get(token, ""))
            if anchors is None or not ids:
                continue
            if ids[0] in anchors:
                log.warning(
                    f"{_display_path(page, config)}:{line}: this block's id '{ids[0]}' is also the id of a heading or "
                    f"an element of this page, so a link to #{ids[0]} may reach either: give the heading an id of "
                    "its own, such as '## Calc 1 {#first-calculation}'"
                )
            anchors.update(ids)

    def _node_modules(self, config: MkDocsConfig) -> Path:
        return Path(config.config_file_path).parent / self.config.node_modules


class _ServeReport(logging.Handler):
    """Under `mkdocs serve`, the plugin's messages go to the handlers MkDocs logs with (its console), but not to
    strict mode's count: a count would abort the rebuild, and MkDocs then serves nothing until a build passes, so
    every page request hangs ("The server will appear stuck until build errors are resolved"), whatever the mistake.
    The page shows each mistake at its block, and `mkdocs build --strict` still stops on it."""

    def emit(self, record: logging.LogRecord) -> None:
        for logger in (logging.getLogger("mkdocs"), logging.getLogger()):
            for handler in logger.handlers:
                if not isinstance(handler, CountHandler) and record.levelno >= handler.level:
                    handler.handle(record)


def _report_without_aborting() -> None:
    if not any(isinstance(handler, _ServeReport) for handler in log.handlers):
        log.addHandler(_ServeReport())
    log.propagate = False


def _report_as_usual() -> None:
    for handler in [handler for handler in log.handlers if isinstance(handler, _ServeReport)]:
        log.removeHandler(handler)
    log.propagate = True


def _hooks(config: MkDocsConfig) -> list[ModuleType]:
    """The modules of mkdocs.yml's `hooks:`, as MkDocs loaded them (a name -> module mapping at run time, though its
    type says a list)."""
    hooks: Any = config.hooks
    return list(hooks.values()) if isinstance(hooks, dict) else list(hooks)


def add_arithmatex(config: MkDocsConfig) -> None:
    """pymdownx.arithmatex in generic mode (unless the site has it), which finds the formulas formulas.py typesets."""
    if "pymdownx.arithmatex" not in config.markdown_extensions:
        config.markdown_extensions.append("pymdownx.arithmatex")
        config.mdx_configs["pymdownx.arithmatex"] = {"generic": True}


def _markdown_setup(config: MkDocsConfig) -> str:
    """The site's Markdown extensions and their options, as text that changes when they do (an option may be a
    function: its name stands for it)."""
    named = [str(extension) for extension in config.markdown_extensions]
    return "markdown " + json.dumps(
        [named, config.mdx_configs],
        sort_keys=True,
        default=lambda value: getattr(value, "__qualname__", type(value).__qualname__),
    )


def _authored_text(page: Page, config: MkDocsConfig, files: Files) -> AuthoredText:
    """The Markdown of the page's blocks: the site's extensions, and MkDocs's own rewriting of the page's links
    (`roofline.md#ridge` to `../roofline/#ridge`, a missing page reported as in the page's own text)."""

    def prepare(md: Any) -> None:
        from mkdocs.structure.pages import _RelativePathTreeprocessor  # MkDocs 1.6's, which its pages use

        _RelativePathTreeprocessor(page.file, files, config)._register(md)

    return AuthoredText(config.markdown_extensions, config.mdx_configs, prepare)


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


def _plugins_own(kind: object) -> bool:
    """Whether `kind` is one of the plugin's own (blocks.REGISTRY), not one a book registered."""
    return type(kind).__module__.startswith(f"{__package__}.blocks.")
