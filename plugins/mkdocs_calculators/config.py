"""The plugin's options, declared once in OPTIONS: each one's name, type, default, what it does and which hosts read
it. The MkDocs plugin's configuration (CalculatorsConfig, under `plugins: - calculators:` in mkdocs.yml), the
Markdown extension's (hosts/markdown.py, `markdown_extensions: - calculators:`, for Zensical) and the command line's
reading of mkdocs.yml (cli.read_options) take them from here, and docs/own-book.md's table of the plugin's options
says the same (tests/unit/test_options.py holds it to OPTIONS, `help` word for word).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from mkdocs.config import config_options as c
from mkdocs.config.base import Config

from .sandbox.compute_process import DEFAULT_LIMIT

__all__ = ["DEFAULT_PACKAGE", "EXTENSION", "NAME", "OPTIONS", "PLUGIN", "CalculatorsConfig", "Option"]

# The book's package when the options name none (this book's; any other book names its own).
DEFAULT_PACKAGE = "calculators"
# The name the plugin and the Markdown extension go by in mkdocs.yml (their entry points in plugins/pyproject.toml).
NAME = "calculators"

PLUGIN = "plugin"  # the MkDocs plugin (hosts/plugin.py)
EXTENSION = "extension"  # the Markdown extension (hosts/markdown.py), which Zensical runs

T = TypeVar("T")


@dataclass(frozen=True)
class Option(Generic[T]):
    """One option: `types` are what a value may be (MkDocs' message names them when a value is none of them); a
    list's `types` are its items'. `help` is what docs/own-book.md's table says it does."""

    name: str
    types: tuple[type, ...]
    default: T
    help: str
    hosts: tuple[str, ...] = (PLUGIN,)

    def mkdocs(self) -> c.Type[T]:
        """The MkDocs plugin's option."""
        return c.Type(self.types if len(self.types) > 1 else self.types[0], default=self.default)

    def mkdocs_list(self: Option[tuple[str, ...]]) -> c.ListOfItems[str]:
        """The MkDocs plugin's option, for a list of texts."""
        return c.ListOfItems(c.Type(self.types[0]), default=list(self.default))

    def given(self, options: dict[str, Any] | None) -> T:
        """Its value in a host's options as mkdocs.yml writes them (none: the host is not named there)."""
        return (options or {}).get(self.name, self.default)  # type: ignore[no-any-return]


ENABLED = Option(
    "enabled",
    (bool,),
    True,
    "`false` builds the book without the plugin: blocks show as the code they are written in, and "
    "`reference/calculators.md` and `progress.md` are placeholders saying the plugin is off, so a `nav` that lists "
    "them still builds (a data table's page is not written: take it out of `nav` meanwhile)",
)
PACKAGE = Option(
    "package",
    (str,),
    DEFAULT_PACKAGE,
    "the importable package that holds your calculators",  # and keeps calckit's contract (calckit/book.py)
    (PLUGIN, EXTENSION),
)
NODE_MODULES = Option(
    "node_modules",
    (str,),
    "node_modules",
    "where `npm ci` put the pinned browser runtime, from `mkdocs.yml`'s folder",
)
SNAPSHOT = Option(
    "snapshot",
    (bool,),
    True,
    "ship a memory snapshot of Python with your package imported, and one with only the exercise runner for readers' "
    "exercise code (needs Node at build)",  # runtime/snapshot.py
)
MATH = Option(
    "math",
    (bool,),
    True,
    "typeset `$...$` and `$$...$$` formulas at build with KaTeX (found by `pymdownx.arithmatex` in generic mode, which "
    "the plugin adds if your `markdown_extensions` lack it); `false` leaves them as written",  # extras/formulas.py
)
TIME_LIMIT = Option[float](
    "time_limit",
    (int, float),
    DEFAULT_LIMIT,
    "seconds one call of your code may take (a calculator's compute, an exercise's solution), at build, under `mkdocs"
    " serve`, under `zensical build` and in the `mkdocs-calculators` command (see [Build it with "
    "Zensical](#build-it-with-zensical)), in the memory snapshot and in the reader's browser, where a reader's own "
    "code in an exercise has as long for each Run or Check; past it the build names the page, the calculator, its "
    "inputs and the line the code was on, and the browser says so beside the calculator; importing your package (and "
    "loading its data table's rows and sources) may take six times as long (at least 10 s), past which the build "
    "stops at the line the import was on",
    (PLUGIN, EXTENSION),
)
BROWSER_DEPENDENCIES = Option[tuple[str, ...]](
    "browser_dependencies",
    (str,),
    (),
    "pure-Python distributions that your package imports, shipped to the browser",  # runtime/dependencies.py
)
CACHE = Option(
    "cache",
    (bool,),
    True,
    "reuse what the last build worked out, kept in `.cache/mkdocs-calculators/` beside `mkdocs.yml`: a page's blocks "
    "are rendered again only when the page, a file its blocks read (a quiz file), a file in your package's folder, the "
    "plugin as the build runs it, a `hooks:` file, the Python or the `time_limit` changed (a `mkdocs serve` started "
    "before an edit to the plugin keeps rendering with the plugin it loaded, and the next build, which runs the edited "
    "one, renders again), and a page with a problem is rendered on every build; set `false` if your code reads files "
    "from outside its package's folder",  # extras/build_cache.py
)
LANGUAGE = Option(
    "language",
    (str,),
    "",
    "the book's language for the plugin's words, where the host's configuration cannot be read: empty (the default) "
    "takes `theme.language` from `mkdocs.yml` (or Zensical's configuration), as the plugin does under MkDocs",
    (EXTENSION,),
)
STRINGS = Option[Any](
    "strings",
    (dict, str),
    {},
    "your own words for any of the plugin's (a button, a message, an accessible name), by key: a mapping such as "
    "`{quiz.check: Valider}`, or the name of a YAML file beside `mkdocs.yml` that holds one (a language the plugin "
    "does not ship gives every key there); each key and its placeholders are checked at build (see [A book in "
    "another language](#a-book-in-another-language))",
    (PLUGIN, EXTENSION),
)
STRICT = Option(
    "strict",
    (bool,),
    True,
    "end the process with exit status 1 when a page's blocks have problems",
    (EXTENSION,),
)

# In the order MkDocs checks them (and reports their problems).
OPTIONS: tuple[Option[Any], ...] = (
    ENABLED,
    PACKAGE,
    NODE_MODULES,
    SNAPSHOT,
    MATH,
    TIME_LIMIT,
    BROWSER_DEPENDENCIES,
    CACHE,
    LANGUAGE,
    STRINGS,
    STRICT,
)


class CalculatorsConfig(Config):
    """The MkDocs plugin's options: OPTIONS for the plugin, each under its name (which tests/unit/test_options.py
    checks), so that mypy knows each one's type."""

    enabled = ENABLED.mkdocs()
    package = PACKAGE.mkdocs()
    node_modules = NODE_MODULES.mkdocs()
    snapshot = SNAPSHOT.mkdocs()
    math = MATH.mkdocs()
    time_limit = TIME_LIMIT.mkdocs()
    browser_dependencies = BROWSER_DEPENDENCIES.mkdocs_list()
    cache = CACHE.mkdocs()
    strings = STRINGS.mkdocs()
