"""What the MkDocs plugin reads of MkDocs and its site: where a page is and how many lines its front matter takes,
the site's Markdown setup (for an author's text in a block, and as part of the build cache's key), its `hooks:`, the
slot a calculator waits in while search reads the page, and how `mkdocs serve` reports a problem without aborting.
"""

from __future__ import annotations

import json
import logging
import os
import re
from pathlib import Path
from types import ModuleType
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page
from mkdocs.utils import CountHandler

from ..config import NAME
from ..i18n import SOURCE, Strings
from ..i18n.overrides import StringsProblemError, book_strings, untranslated
from ..pages.authored_text import AuthoredText
from ..pages.slips import anchor_ids

__all__ = [
    "TOKEN_PREFIX",
    "add_arithmatex",
    "authored_text",
    "display_path",
    "fill_slots",
    "front_matter_lines",
    "markdown_setup",
    "plugins_own",
    "put_in_place",
    "register_anchors",
    "report_as_usual",
    "report_without_aborting",
    "searched_slot",
    "site_hooks",
    "slot",
    "theme_strings",
]

# Under `mkdocs.` so that strict mode counts the errors and stops the build (the plugin's logger).
log = logging.getLogger("mkdocs.plugins.calculators")


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


def report_without_aborting() -> None:
    if not any(isinstance(handler, _ServeReport) for handler in log.handlers):
        log.addHandler(_ServeReport())
    log.propagate = False


def report_as_usual() -> None:
    for handler in [handler for handler in log.handlers if isinstance(handler, _ServeReport)]:
        log.removeHandler(handler)
    log.propagate = True


def site_hooks(config: MkDocsConfig) -> list[ModuleType]:
    """The modules of mkdocs.yml's `hooks:`, as MkDocs loaded them (a name -> module mapping at run time, though its
    type says a list)."""
    hooks: Any = config.hooks
    return list(hooks.values()) if isinstance(hooks, dict) else list(hooks)


def watch_sources(server: Any, package: str) -> None:
    """Have `mkdocs serve` rebuild on an edit of the book's package (found without importing it: it may be broken
    right now, and must be watched all the same) or of the plugin's browser files (each kind's in its folder)."""
    import importlib.util

    spec = importlib.util.find_spec(package)
    for folder in (spec.submodule_search_locations or []) if spec else []:
        server.watch(folder)
    server.watch(str(Path(__file__).parents[1] / "assets"))
    server.watch(str(Path(__file__).parents[1] / "blocks"))


def add_arithmatex(config: MkDocsConfig) -> None:
    """pymdownx.arithmatex in generic mode (unless the site has it): it finds what extras/formulas.py typesets; then,
    after it, what makes its search for inline formulas quicker (extras/math_scan.py). PluginError when the site's
    own arithmatex is set up so that the formulas cannot be typeset (extras/formulas.py, arithmatex_problem)."""
    from mkdocs.exceptions import PluginError

    from ..extras.formulas import arithmatex_problem
    from ..extras.math_scan import EXTENSION

    problem = arithmatex_problem(config.markdown_extensions, config.mdx_configs)
    if problem:
        raise PluginError(problem)

    if "pymdownx.arithmatex" not in config.markdown_extensions:
        config.markdown_extensions.append("pymdownx.arithmatex")
        config.mdx_configs["pymdownx.arithmatex"] = {"generic": True}
    if EXTENSION not in config.markdown_extensions:
        config.markdown_extensions.append(EXTENSION)


def markdown_setup(config: MkDocsConfig) -> str:
    """The site's Markdown extensions and their options, as text that changes when they do (an option may be a
    function: its name stands for it)."""
    named = [str(extension) for extension in config.markdown_extensions]
    return "markdown " + json.dumps(
        [named, config.mdx_configs],
        sort_keys=True,
        default=lambda value: getattr(value, "__qualname__", type(value).__qualname__),
    )


def authored_text(page: Page, config: MkDocsConfig, files: Files) -> AuthoredText:
    """The Markdown of the page's blocks: the site's extensions, and MkDocs's own rewriting of the page's links
    (`roofline.md#ridge` to `../roofline/#ridge`, a missing page reported as in the page's own text)."""

    def prepare(md: Any) -> None:
        from mkdocs.structure.pages import _RelativePathTreeprocessor  # MkDocs 1.6's, which its pages use

        _RelativePathTreeprocessor(page.file, files, config)._register(md)

    return AuthoredText(config.markdown_extensions, config.mdx_configs, prepare)


def slot(token: str) -> str:
    """Where a block's HTML goes in the written page (without its token, which the slot must not contain)."""
    return f'<div data-search-exclude data-calculators-slot="{token.removeprefix(TOKEN_PREFIX)}"></div>'


def searched_slot(token: str, part: str) -> str:
    """Where a block's HTML goes in the written page, holding until then `part`, what search reads of it
    (pages/searched.py), between two empty marks that search reads nothing of."""
    mark = token.removeprefix(TOKEN_PREFIX)
    return f'<i hidden data-calculators-from="{mark}"></i>{part}<i hidden data-calculators-to="{mark}"></i>'


TOKEN_PREFIX = "CALCBLOCK"  # then 32 hex digits: a block's place in the page's Markdown, until its HTML is put there
_TOKEN = re.compile(rf"<p>({TOKEN_PREFIX}[0-9a-f]{{32}})</p>|({TOKEN_PREFIX}[0-9a-f]{{32}})")
_SLOT = re.compile(
    r'<div data-search-exclude data-calculators-slot="([0-9a-f]{32})"></div>'
    r'|<i hidden data-calculators-from="([0-9a-f]{32})"></i>.*?<i hidden data-calculators-to="\2"></i>',
    re.DOTALL,
)


def put_in_place(html: str, contents: dict[str, str]) -> str:
    """`html` with each token of `contents` replaced by its content (a paragraph of its own, as Markdown makes of a
    block's token, replaced whole), in one pass over a page that may be 150 kB with a hundred blocks."""

    def put(match: re.Match[str]) -> str:
        token = match[1] or match[2]
        return contents.get(token, match[0])

    return _TOKEN.sub(put, html) if contents else html


def fill_slots(output: str, blocks: dict[str, str]) -> tuple[str, list[str]]:
    """The written page with each block's slot (`slot`, or `searched_slot` with what search read in it) holding its
    HTML (`blocks`, by token), in one pass; and the tokens whose slot was not found."""
    found: set[str] = set()

    def fill(match: re.Match[str]) -> str:
        token = TOKEN_PREFIX + (match[1] or match[2])
        if token not in blocks:
            return match[0]
        found.add(token)
        return blocks[token]

    filled = _SLOT.sub(fill, output) if blocks else output
    return filled, [token for token in blocks if token not in found]


def display_path(page: Page, config: MkDocsConfig) -> str:
    """The page's source as a person finds it from the project's root: docs/lessons/roofline.md."""
    root = Path(config.config_file_path).parent
    source = page.file.abs_src_path
    if source is None:
        return page.file.src_uri
    return Path(os.path.relpath(source, root)).as_posix()


def front_matter_lines(page: Page, markdown: str) -> int:
    """How many lines the front matter takes, so block lines count from the top of the file."""
    source = page.file.content_string
    if markdown and source.endswith(markdown):
        return source[: len(source) - len(markdown)].count("\n")
    return 0


def plugins_own(kind: object) -> bool:
    """Whether `kind` is one of the plugin's own (blocks.REGISTRY), not one a book registered."""
    plugin = (__package__ or "").partition(".")[0]  # mkdocs_calculators
    return type(kind).__module__.startswith(f"{plugin}.blocks.")


def theme_strings(config: MkDocsConfig, given: Any) -> Strings:
    """The plugin's words in the theme's language (Material's `theme.language`), the `strings` option (`given`) on
    top; PluginError listing each mistake in them at its line of mkdocs.yml."""
    from mkdocs.exceptions import PluginError

    language = str(config.theme.get("language") or SOURCE)
    where = ("plugins", NAME, "strings")
    try:
        strings = book_strings(language, given, Path(config.config_file_path or "mkdocs.yml"), where)
    except StringsProblemError as error:
        raise PluginError(str(error)) from None
    left = untranslated(strings)
    if left:
        log.info(
            "calculators: the plugin has no strings in '%s' and the `strings` option gives %d of %d: the rest are in "
            "English",
            language,
            len(strings.table) - len(left),
            len(strings.table),
        )
    return strings


def register_anchors(page: Page, where: str, blocks: list[tuple[int, str]]) -> None:
    """Give MkDocs' anchor validation the ids of the page's blocks (each its line and HTML: their HTML comes after it
    collected the page's), and report one that the page already has (a heading `## Calc 1` is `calc-1` too)."""
    anchors = page.present_anchor_ids
    for line, html in blocks:
        ids = anchor_ids(html)
        if anchors is None or not ids:
            continue
        if ids[0] in anchors:
            log.warning(
                f"{where}:{line}: this block's id '{ids[0]}' is also the id of a heading or an element of this page, "
                f"so a link to #{ids[0]} may reach either: give the heading an id of its own, such as "
                "'## Calc 1 {#first-calculation}'"
            )
        anchors.update(ids)
