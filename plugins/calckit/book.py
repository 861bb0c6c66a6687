"""The contract between the plugin and a book's package, and the book that calckit's functions work for.

A book's package is any importable package whose `__init__` provides:

    CALCULATORS: Mapping[str, Calculator]   every calculator of the book, by its name (required)
    __version__: str                        the package's version (required: the browser's wheel carries it)
    TABLE: DataTable                        a data table for table blocks and a reference page (optional)

The plugin's `package` option names it in mkdocs.yml. The build and the browser's worker call `use(name)` once;
every function of calckit (a calculator block's run, a quiz's numeric answer, an exercise's check) then finds
calculators through `calculator(name)`. This book's `calculators` package is the first to implement the contract;
`docs/own-book.md` starts another from an empty folder.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from .names import refuse_shared_names
from .spec import Calculator
from .table import DataTable

__all__ = ["Book", "ContractError", "calculator", "current", "in_use", "load", "use"]


class ContractError(TypeError):
    """A package that does not provide what the contract asks, said in one line naming the package and the name."""


@dataclass(frozen=True)
class Book:
    package: str  # its import name
    version: str
    directory: Path  # the package's folder: the browser's wheel ships every file in it
    calculators: Mapping[str, Calculator]
    table: DataTable | None

    def calculator(self, name: str) -> Calculator:
        """The calculator called `name`; KeyError naming the known ones otherwise."""
        try:
            return self.calculators[name]
        except KeyError:
            known = ", ".join(sorted(self.calculators))
            raise KeyError(f"unknown calculator '{name}' (expected one of: {known})") from None


def load(package: str) -> Book:
    """Import `package` and check that it keeps the contract; ContractError says what it lacks.

    A package that cannot be imported raises what Python raised (ModuleNotFoundError for a wrong name), so that the
    caller can say where a broken one failed.
    """
    module = importlib.import_module(package)
    where = f"package '{package}'"
    if not hasattr(module, "__path__") or not getattr(module, "__file__", None):
        raise ContractError(f"{where} is a single module: a book's calculators must be a package (a folder)")
    calculators = getattr(module, "CALCULATORS", None)
    if not isinstance(calculators, Mapping) or not calculators:
        raise ContractError(
            f"{where} has no CALCULATORS in its __init__.py (expected a dict of Calculator by name, such as "
            "`CALCULATORS = {ohms_law.name: ohms_law}`)"
        )
    refuse_shared_names(_declared_in(package))
    for name, value in calculators.items():
        if not isinstance(value, Calculator):
            raise ContractError(f"{where}: CALCULATORS['{name}'] is a {type(value).__name__}, not a Calculator")
        if value.name != name:
            raise ContractError(
                f"{where}: CALCULATORS['{name}'] is the calculator named '{value.name}' (key each calculator by its "
                "own name: {calculator.name: calculator})"
            )
    version = getattr(module, "__version__", None)
    if not isinstance(version, str) or not version:
        raise ContractError(f"{where} has no __version__ in its __init__.py (expected text such as '0.1.0')")
    table = getattr(module, "TABLE", None)
    if table is not None and not isinstance(table, DataTable):
        raise ContractError(f"{where}: TABLE is a {type(table).__name__}, not a calckit.table.DataTable")
    return Book(package, version, Path(str(module.__file__)).parent, calculators, table)


def _declared_in(package: str) -> list[Calculator]:
    """Every calculator that a module of `package` holds at its top level under a public name, each once, in the order
    they were declared: two of one name are a mistake even when `CALCULATORS` (a dict written by hand) kept only
    one."""
    modules = [module for name, module in list(sys.modules.items()) if name.partition(".")[0] == package]
    order = {
        str(Path(str(module.__file__)).resolve()): index
        for index, module in enumerate(modules)
        if getattr(module, "__file__", None)
    }
    found = {id(each): each for each in _module_calculators(modules)}
    return sorted(found.values(), key=lambda each: (order.get(each.declared_at[0], len(order)), each.declared_at))


def _module_calculators(modules: list[ModuleType]) -> Iterator[Calculator]:
    for module in modules:
        # A private one (`_BASE`, a template that public ones are made from) may share a name with what it makes.
        yield from (
            value for key, value in vars(module).items() if isinstance(value, Calculator) and not key.startswith("_")
        )


_current: Book | None = None


def use(package: str) -> Book:
    """Load `package` and make it the book that calckit's functions work for."""
    global _current
    _current = load(package)
    return _current


def in_use() -> bool:
    return _current is not None


def current() -> Book:
    if _current is None:
        raise RuntimeError("no book is in use: call calckit.book.use('your_package') first")
    return _current


def calculator(name: str) -> Calculator:
    """The current book's calculator called `name`; KeyError naming the known ones otherwise."""
    return current().calculator(name)
