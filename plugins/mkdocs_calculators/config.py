"""The plugin's options, as written under `plugins: - calculators:` in mkdocs.yml."""

from __future__ import annotations

from mkdocs.config import config_options as c
from mkdocs.config.base import Config

from .compute_process import DEFAULT_LIMIT

# The book's package when the options name none (this book's; any other book names its own).
DEFAULT_PACKAGE = "calculators"
# The name the plugin and the Markdown extension go by in mkdocs.yml (their entry points in plugins/pyproject.toml).
NAME = "calculators"


class CalculatorsConfig(Config):
    enabled = c.Type(bool, default=True)
    # The importable package that holds the book's calculators, which keeps calckit's contract (calckit/book.py).
    package = c.Type(str, default=DEFAULT_PACKAGE)
    # Where `npm ci` put the pinned browser runtime (Pyodide, Vega), relative to mkdocs.yml.
    node_modules = c.Type(str, default="node_modules")
    # Ship a memory snapshot of Python with the calculators imported (made with Node at build; see snapshot.py).
    snapshot = c.Type(bool, default=True)
    # Typeset `$...$` and `$$...$$` at build with KaTeX (pymdownx.arithmatex finds them; formulas.py).
    math = c.Type(bool, default=True)
    # Seconds that the book's code may take for one call (a calculator's compute, an exercise's solution checked on
    # its cases), at build, under `mkdocs serve`, in the memory snapshot and in the reader's browser, where a reader's
    # own code in an exercise has as long for each Run or Check. Past it, the build says which calculator, on which
    # inputs and at which line; the browser says so beside the calculator, or the exercise.
    time_limit = c.Type((int, float), default=DEFAULT_LIMIT)
    # Pure-Python distributions installed here that the book's package imports, shipped to the browser in a wheel of
    # their own (dependencies.py); the browser has the standard library, calckit and the book's package otherwise.
    browser_dependencies = c.ListOfItems(c.Type(str), default=[])
    # Reuse what an earlier build worked out from the same code and pages: each page's rendered blocks, the import
    # check (kept in .cache/mkdocs-calculators/ beside mkdocs.yml; build_cache.py says what a result depends on).
    # Turn it off for a book whose code reads files from outside its package folder.
    cache = c.Type(bool, default=True)
