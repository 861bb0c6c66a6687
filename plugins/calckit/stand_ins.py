"""Stand-ins for modules the reader's browser lacks, so that one calculator's import of one cannot stop the others.

A strict build refuses a book's package that imports a module the browser lacks
(`mkdocs_calculators/runtime/imports.py`, `calculators/x.py:LINE: ModuleNotFoundError: No module named 'attrs'`).
`mkdocs serve`, and a build that is not strict, say so and go on; the package's `__init__` imports every module, so
in the browser that one import would fail the whole package, and every calculator of the page with it. The worker
therefore imports the package with `use_with_stand_ins`, naming the modules the build found missing:

- while the package is imported, each of them is a stand-in, and so is whatever is taken from one, called on one,
  decorated by one or based on one: the package's other modules import as usual;
- once it is imported, using a stand-in raises the ModuleNotFoundError that the import would have, so a calculator
  whose code uses the module says so beside it, and the page's others compute.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys
from collections.abc import Iterable
from types import ModuleType
from typing import Any

from . import book

__all__ = ["use_with_stand_ins"]

_importing = False  # True while the book's package is imported: stand-ins then stand in rather than raise


def _missing(module: str) -> ModuleNotFoundError:
    return ModuleNotFoundError(f"No module named '{module}'", name=module)


class StandIn:
    """What a name of the missing module `module` stands for (`attrs.define`, `attrs.define(...)`, a class)."""

    def __init__(self, module: str) -> None:
        object.__setattr__(self, "_module", module)

    def _stand_in(self) -> StandIn:
        if not _importing:
            raise _missing(object.__getattribute__(self, "_module"))
        return self

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return self._stand_in()

    def __call__(self, *args: object, **kwargs: object) -> Any:
        return self._stand_in()

    def __getitem__(self, key: object) -> Any:
        return self._stand_in()

    def __mro_entries__(self, bases: tuple[object, ...]) -> tuple[type, ...]:
        self._stand_in()
        return ()  # a class based on a stand-in is a plain class


class _Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds each missing module (and its submodules), last of all finders, as a module of stand-ins."""

    def __init__(self, missing: frozenset[str]) -> None:
        self.missing = missing

    def find_spec(self, fullname: str, path: object = None, target: object = None) -> importlib.machinery.ModuleSpec:
        if fullname.split(".")[0] not in self.missing:
            return None  # type: ignore[return-value]
        return importlib.machinery.ModuleSpec(fullname, self, is_package=True)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return None

    def exec_module(self, module: ModuleType) -> None:
        root = module.__name__.split(".")[0]
        module.__path__ = []

        def __getattr__(name: str) -> Any:  # the module's own (PEP 562)
            if name.startswith("__"):
                raise AttributeError(name)
            return StandIn(root)._stand_in()

        module.__getattr__ = __getattr__  # type: ignore[method-assign]


def use_with_stand_ins(package: str, missing: Iterable[str]) -> book.Book:
    """calckit.book.use(package), each module of `missing` a stand-in while the package is imported."""
    global _importing
    names = frozenset(str(name) for name in missing)
    if not any(isinstance(finder, _Finder) and finder.missing == names for finder in sys.meta_path):
        sys.meta_path.append(_Finder(names))
    _importing = True
    try:
        return book.use(package)
    finally:
        _importing = False
