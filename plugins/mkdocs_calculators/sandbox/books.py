"""The book's package, imported and checked against calckit's contract, for any host (the MkDocs plugin, the
Markdown extension, the `mkdocs-calculators` command)."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from ..problems import located

if TYPE_CHECKING:
    from calckit.book import Book
    from calckit.spec import Calculator

    from ..extras.build_cache import BuildCache
    from .compute_process import ComputeProcess

__all__ = ["book_to_ship", "deferred_book", "load_book"]


def load_book(package: str, root: Path, *, reload: bool) -> Book | str:
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
        loaded = book.load(package)  # the host holds it (calckit.session): calckit keeps none of its own
        if loaded.table:
            check_table(loaded.table)
    except (book.ContractError, TableError) as error:
        return f"calculators: {error}"
    except Exception as error:
        return located(error, root)
    return _table_name_problem(loaded, root) or loaded


def book_to_ship(
    package: str, root: Path, code: ComputeProcess | None, hung: str, cache: BuildCache, *, reload: bool
) -> tuple[Book | str, Book | None]:
    """What a build ships of the book's package (or one located line saying why it does not load: `hung` when the
    child `code` did not import it within its time limit), and the package imported here. When the child has imported
    it and the build cache kept the version of the same files, the package is not imported here (deferred_book): a
    build that renders nothing of it again needs no more of it, and the host imports it (load_book) only for what it
    renders again."""
    if hung:
        return hung, None
    version = cache.book_version()
    if code is not None and not code.import_raised and version:
        return deferred_book(package, code.directory, version), None
    loaded = load_book(package, root, reload=reload)
    if isinstance(loaded, str):
        return loaded, None
    cache.keep_book_version(loaded.version)  # the next build of the same files defers the import
    return loaded, loaded


def deferred_book(package: str, directory: Path, version: str) -> Book:
    """The book as the runtime that a build ships reads it (its package's name, folder and version), without importing
    the package: for a build that renders nothing of it again, whose build cache kept the version that the same files
    had. Its calculators are imported from the package only if asked for (as the memory snapshot's report of one that
    hung does); its data table, which the runtime does not read, is left out."""
    from calckit.book import Book

    return Book(package, version, directory, _ImportedWhenRead(package), None)


class _ImportedWhenRead(Mapping[str, "Calculator"]):
    """The package's CALCULATORS, imported the first time they are read."""

    def __init__(self, package: str) -> None:
        self._package = package
        self._calculators: Mapping[str, Calculator] | None = None

    def _read(self) -> Mapping[str, Calculator]:
        if self._calculators is None:
            from calckit.book import load

            self._calculators = load(self._package).calculators
        return self._calculators

    def __getitem__(self, name: str) -> Calculator:
        return self._read()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._read())

    def __len__(self) -> int:
        return len(self._read())


def _table_name_problem(loaded: Book, root: Path) -> str:
    """A data table named like one of the plugin's block kinds (```table, or a kind added since): its block and the
    kind's would answer to one fence, and one would silently win. Said at the table's declaration."""
    from calckit.declared import place_text

    from ..blocks import kinds

    table = loaded.table
    clashing = [kind for kind in kinds() if table is not None and kind.name == table.name]
    if table is None or not clashing:
        return ""
    place = f"{place_text(table.declared_at, root)}: " if table.declared_at[0] else "calculators: "
    owner = _owner(clashing[0])
    return (
        f"{place}the data table is named '{table.name}', which is {owner} ```{table.name} block: give the table a "
        "name of its own"
    )


def _owner(kind: object) -> str:
    """Whose kind `kind` is, as a message says it: the plugin's own, or one a book registered (blocks.ENTRY_POINTS)."""
    module = type(kind).__module__
    plugin = (__package__ or "").partition(".")[0]  # mkdocs_calculators
    return "the plugin's own" if module.startswith(f"{plugin}.blocks.") else f"the registered kind's ({module})"
