"""The book's package, imported and checked against calckit's contract, for any host (the MkDocs plugin, the
Markdown extension, the `mkdocs-calculators` command)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ..problems import located

if TYPE_CHECKING:
    from calckit.book import Book

__all__ = ["load_book"]


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
