"""The plugin's options, as written under `plugins: - calculators:` in mkdocs.yml."""

from __future__ import annotations

from mkdocs.config import config_options as c
from mkdocs.config.base import Config


class CalculatorsConfig(Config):
    enabled = c.Type(bool, default=True)
    # The importable package that holds the book's calculators, which keeps calckit's contract (calckit/book.py).
    package = c.Type(str, default="calculators")
    # Where `npm ci` put the pinned browser runtime (Pyodide, Vega), relative to mkdocs.yml.
    node_modules = c.Type(str, default="node_modules")
    # Ship a memory snapshot of Python with the calculators imported (made with Node at build; see snapshot.py).
    snapshot = c.Type(bool, default=True)
    # Typeset `$...$` and `$$...$$` at build with KaTeX (pymdownx.arithmatex finds them; formulas.py).
    math = c.Type(bool, default=True)
