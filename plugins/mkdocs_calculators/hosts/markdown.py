"""The blocks as a Python-Markdown extension (`calculators`), for hosts that run Markdown extensions but not MkDocs
plugins: Zensical. It calls the very function the MkDocs plugin's page hook calls (`page.render_page`), so both hosts
check the same things and say `docs/page.md:LINE: message` the same way.

    markdown_extensions:
      - calculators:
          package: circuits     # the book's package, as the plugin's option of that name
          time_limit: 5         # seconds for one call of the book's code, as the plugin's option of that name
          strings: {}           # the author's words for the plugin's, as the plugin's option of that name

The plugin's words are in the book's language: `theme.language` (Zensical's configuration, else mkdocs.yml's), or
the extension's `language` where it is given.

Which page is rendered comes from the host: under Zensical from its context preprocessor (the page's path in the
docs folder, its address, its metadata); a host that says nothing gets `<markdown>` as the path, lines counted from
the text's top. The book's code runs as under the plugin: imported, and each compute run, in a process of its own
ended past the time limit (sandbox/compute_process.py), so that code that never returns cannot hang the host. Under
MkDocs the plugin drops this extension from the list and renders the blocks itself with the
same function (its hook also knows the page), so a `mkdocs.yml` that names both builds with either host.

Problems: each is said as `path:LINE: message` (logged under `mkdocs.plugins.calculators` where logging has a
handler, else printed to stderr: Zensical 0.0.65 configures none), and the page shows it in place of the block. An
exception would not do: Zensical 0.0.65 then prints a Python traceback and writes no page at all. So, with `strict:
true` (the default), the process ends with exit status 1 once the host is done, if any page rendered last still has
a problem, after one line counting them (`zensical build` itself reports success before that).
"""

from __future__ import annotations

import atexit
import logging
import os
import sys
import threading
from contextlib import nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Any

from markdown import Extension, Markdown
from markdown.preprocessors import Preprocessor

from ..blocks import PageContext
from ..config import EXTENSION, NAME, OPTIONS
from ..i18n import SOURCE, Strings
from ..i18n.overrides import StringsProblemError, book_strings
from ..pages.authored_text import AuthoredText
from ..pages.page import render_page
from ..sandbox.books import load_book
from ..sandbox.compute_process import limit_problem, session, start_book_code, stop_book_code

if TYPE_CHECKING:
    from calckit.session import Session

__all__ = ["CalculatorsExtension", "HostPage", "host_page", "makeExtension"]

EXTENSION_NAMES = (NAME, "mkdocs_calculators.hosts.markdown")  # how mkdocs.yml may name this extension
log = logging.getLogger("mkdocs.plugins.calculators")


# Pages whose last rendering had problems (path -> how many), across the process: a page rendered again replaces
# its count, so that under `zensical serve` a mended page stops counting.
_failing: dict[str, int] = {}
_exit_registered = False


def _fail_at_exit() -> None:
    """At the process's end: if a page still has problems, say so and end with exit status 1."""
    count = sum(_failing.values())
    if not count:
        return
    pages = len([path for path, problems in _failing.items() if problems])
    summary = f"calculators: {count} problem(s) in {pages} page(s) (listed above): the build failed"
    print(f"ERROR    -  {summary}", file=sys.stderr)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(1)  # the host's own exit status says success; the book did not build as written


def _record(path: str, errors: int, *, strict: bool) -> None:
    global _exit_registered
    _failing[path] = errors
    if errors and strict and not _exit_registered:
        atexit.register(_fail_at_exit)
        _exit_registered = True


class HostPage:
    """What the host says about the page it renders: where it is for messages, its file, its address."""

    def __init__(self, display_path: str, file: Path | None, url: str) -> None:
        self.display_path = display_path  # docs/index.md, as the author finds it from the project's root
        self.file = file
        self.url = url


def host_page(md: Markdown) -> HostPage:
    """The page `md` renders, as its host tells it (Zensical's context preprocessor), or an unnamed one."""
    try:
        from zensical.config import get_config
        from zensical.extensions.context import ContextPreprocessor
    except ImportError:
        return HostPage("<markdown>", None, "")
    context = ContextPreprocessor.from_markdown(md)
    if context is None:
        return HostPage("<markdown>", None, "")
    config = get_config()
    root = Path(config.get("root_dir", ".")).resolve()
    file = (root / config.get("docs_dir", "docs") / context.page.path).resolve()
    try:
        shown = file.relative_to(root).as_posix()
    except ValueError:
        shown = file.as_posix()
    return HostPage(shown, file, context.page.url or "")


_sessions: dict[tuple[str, str, object], Session | str] = {}  # the book and its code for (package, root, time limit)
_loading = threading.Lock()  # a host may render pages on several threads


def _session(package: str, root: Path, limit: object) -> Session | str:
    """The book's package with the process that runs its code (with `limit` seconds for each call), or one line
    saying why it could not be loaded; loaded once per process, after that process has imported it in time."""
    with _loading:
        key = (package, str(root), limit)
        if key not in _sessions:
            _sessions[key] = limit_problem(limit) or _start_and_load(package, root, float(limit))  # type: ignore[arg-type]
        return _sessions[key]


def _start_and_load(package: str, root: Path, limit: float) -> Session | str:
    code, hung = start_book_code(package, limit)
    if code is not None:
        atexit.register(stop_book_code, code)
    loaded = hung or load_book(package, root, reload=False)
    return loaded if isinstance(loaded, str) else session(loaded, code)


def _theme_language(root: Path) -> str:
    """The book's `theme.language`: Zensical's configuration's, else that of the mkdocs.yml in `root`."""
    try:
        from zensical.config import get_config

        theme = get_config().get("theme") or {}
    except Exception:
        theme = {}
    if not (isinstance(theme, dict) and theme.get("language")) and (root / "mkdocs.yml").is_file():
        from mkdocs.utils.yaml import yaml_load

        try:
            with (root / "mkdocs.yml").open(encoding="utf-8") as source:
                theme = (yaml_load(source) or {}).get("theme") or {}
        except Exception:
            theme = {}
    return str(theme.get("language") or SOURCE) if isinstance(theme, dict) else SOURCE


_strings: dict[tuple[str, str, str], Strings | str] = {}  # the book's words for (root, language option, strings option)


def _book_strings(root: Path, language: str, given: object) -> Strings | str:
    """The plugin's words in the book's language with the author's `strings`, or their problems (one line each)."""
    key = (str(root), language, repr(given))
    with _loading:
        if key not in _strings:
            where = ("markdown_extensions", NAME, "strings")
            try:
                _strings[key] = book_strings(language or _theme_language(root), given, root / "mkdocs.yml", where)
            except StringsProblemError as error:
                _strings[key] = str(error)
        return _strings[key]


class _BlocksPreprocessor(Preprocessor):
    def __init__(self, md: Markdown, package: str, strict: bool, limit: object, words: tuple[str, object]) -> None:
        super().__init__(md)
        self.package = package
        self.strict = strict
        self.limit = limit
        self.words = words  # the `language` and `strings` options
        self._text: AuthoredText | None = None

    def text(self) -> AuthoredText:
        """The Markdown of an author's text in a block: each extension of the page's own Markdown made afresh from its
        options (an extension's instance holds on to the Markdown it extended), this one left out."""
        if self._text is None:
            fresh = []
            for extension in self.md.registeredExtensions:
                if isinstance(extension, CalculatorsExtension):
                    continue
                try:
                    fresh.append(type(extension)(**extension.getConfigs()))
                except (TypeError, ValueError, KeyError):  # one that cannot be made again from its options: left out
                    continue
            self._text = AuthoredText(fresh)
        return self._text

    def run(self, lines: list[str]) -> list[str]:
        page = host_page(self.md)
        root = Path.cwd() if page.file is None else _project_root(page.file)
        loaded = _session(self.package, root, self.limit)
        book, broken = (None, loaded) if isinstance(loaded, str) else (loaded.book, "")
        strings = _book_strings(root, *self.words)
        if isinstance(strings, str):
            book, broken, strings = None, broken or strings, Strings(SOURCE)
        markdown = "\n".join(lines)
        file_text = page.file.read_text(encoding="utf-8") if page.file and page.file.is_file() else None
        with nullcontext() if isinstance(loaded, str) else loaded.active():
            rendered = render_page(
                markdown,
                PageContext(
                    page.display_path, book, str(page.file) if page.file else None, page.url, self.text(), strings
                ),
                offset=_lines_before(markdown, file_text),
                file_text=file_text,
                broken=broken,
            )
        # Warnings count too: a strict MkDocs build refuses them as well.
        problems = [*(str(problem) for problem in rendered.problems), *([broken] if broken else [])]
        for problem in rendered.problems:
            _say(str(problem), warning=problem.warning)
        if broken:
            _say(broken, warning=False)
        _record(page.display_path, len(problems), strict=self.strict)
        return rendered.markdown(lambda block: self.md.htmlStash.store(block.html)).split("\n")


def _say(message: str, *, warning: bool) -> None:
    if log.hasHandlers():
        (log.warning if warning else log.error)(message)
    else:  # as MkDocs prints it: an editor jumps to the `path:LINE:` after the level
        print(("WARNING  -  " if warning else "ERROR    -  ") + message, file=sys.stderr, flush=True)


def _project_root(file: Path) -> Path:
    """The folder whose mkdocs.yml (or zensical.toml) holds the page's docs folder, where the book is found from."""
    for folder in file.parents:
        if (folder / "mkdocs.yml").is_file() or (folder / "zensical.toml").is_file():
            return folder
    return Path.cwd()


def _lines_before(markdown: str, file_text: str | None) -> int:
    """How many lines of the file precede `markdown` (its front matter, which the host stripped)."""
    if not file_text or not markdown.strip():
        return 0
    body = markdown.strip("\n")
    text = file_text.replace("\r\n", "\n").rstrip()
    at = text.rfind(body.rstrip())
    return text[:at].count("\n") if at >= 0 else 0


class CalculatorsExtension(Extension):
    def __init__(self, **kwargs: Any) -> None:
        self.config = {option.name: [option.default, option.help] for option in OPTIONS if EXTENSION in option.hosts}
        super().__init__(**kwargs)

    def extendMarkdown(self, md: Markdown) -> None:
        # After whitespace is normalised (30), before any fence is read (fenced_code and superfences: 25).
        preprocessor = _BlocksPreprocessor(
            md,
            str(self.getConfig("package")),
            bool(self.getConfig("strict")),
            self.getConfig("time_limit"),
            (str(self.getConfig("language") or ""), self.getConfig("strings")),
        )
        md.preprocessors.register(preprocessor, NAME, 29)
        # The reference page gives each calculator's heading its name as its id (`{#ohms-law}`).
        md.registerExtensions(["attr_list"], {})


def makeExtension(**kwargs: Any) -> CalculatorsExtension:
    return CalculatorsExtension(**kwargs)
