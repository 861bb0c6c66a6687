"""What the reader's browser can import, checked at every build (`mkdocs serve` and `snapshot: false` included).

Pyodide in the browser has Python's standard library as `python_stdlib.zip` holds it (plus the modules compiled into
the interpreter), calckit, the book's package and the distributions the book ships (`browser_dependencies`), and
nothing else: a calculator that imports `attrs`, installed here, would work at build and fail in every reader's
browser. So each module of the package (and of each shipped distribution) is read, not run: every `import` at any
level that names a module the browser lacks is `calculators/x.py:LINE: ModuleNotFoundError: No module named 'attrs'
(...)`. An import under `if TYPE_CHECKING:` or in a `try:` that catches ImportError is left alone: it is meant not to
be there at run time. An import by computed name (`importlib.import_module(name)`) cannot be read; the memory snapshot,
made by importing the package in Pyodide under Node, still finds it.
"""

from __future__ import annotations

import ast
import sys
import zipfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from importlib.machinery import EXTENSION_SUFFIXES
from importlib.util import find_spec
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..extras.build_cache import BuildCache
    from .dependencies import Dependency

__all__ = ["HOW_TO_SHIP", "ImportCheck", "browser_import_check", "browser_modules", "import_problems"]

HOW_TO_SHIP = (
    "the reader's browser has the standard library, calckit and the book's package; to ship a pure-Python "
    "distribution installed here, list it under the plugin's 'browser_dependencies' (docs/own-book.md)"
)
# Modules of CPython's standard library that Pyodide leaves out or ships apart (loaded with pyodide.loadPackage,
# which the site does not do), or that Python 3.13 removed: the browser runs Python 3.14.
_NOT_IN_THE_BROWSER = frozenset(
    {
        *("sqlite3", "_sqlite3", "ssl", "_ssl", "lzma", "_lzma", "_hashlib", "tkinter", "_tkinter", "turtle"),
        *("curses", "_curses", "_curses_panel", "dbm", "_dbm", "_gdbm", "readline", "idlelib", "ensurepip", "venv"),
        *("audioop", "crypt", "_crypt", "nis", "spwd", "ossaudiodev", "imghdr", "sndhdr", "cgi", "cgitb", "pipes"),
        *("telnetlib", "nntplib", "uu", "xdrlib", "aifc", "sunau", "chunk", "mailcap", "msilib", "asynchat"),
        *("asyncore", "smtpd", "imp", "distutils", "lib2to3"),
    }
)


@cache
def _stdlib_zip_modules(stdlib_zip: Path, size: int) -> frozenset[str]:
    names = set()
    with zipfile.ZipFile(stdlib_zip) as archive:
        for name in archive.namelist():
            top = name.split("/")[0]
            if "/" in name or top.endswith((".py", ".pyc")):
                names.add(top.split(".")[0])
    return frozenset(names)


@cache
def _compiled_stdlib(name: str) -> bool:
    """Whether `name` is a module of the standard library written in C (compiled into Pyodide's interpreter, as
    into CPython's)."""
    if name in sys.builtin_module_names:
        return True
    if name not in sys.stdlib_module_names:
        return False
    spec = find_spec(name)
    return spec is not None and bool(spec.origin) and str(spec.origin).endswith(tuple(EXTENSION_SUFFIXES))


class BrowserModules:
    """The top-level modules that `import` finds in the reader's browser, with `also` (the book's own and shipped)."""

    def __init__(self, node_modules: Path, also: Iterable[str] = ()) -> None:
        stdlib_zip = node_modules / "pyodide" / "python_stdlib.zip"
        zipped = _stdlib_zip_modules(stdlib_zip, stdlib_zip.stat().st_size) if stdlib_zip.is_file() else frozenset()
        self._found = zipped | {"calckit", *also}

    @property
    def key(self) -> str:
        """What these modules are, in one string (to key what is worked out from them)."""
        return " ".join(sorted(self._found))

    def __contains__(self, name: object) -> bool:
        return (
            isinstance(name, str)
            and name not in _NOT_IN_THE_BROWSER
            and (name in self._found or _compiled_stdlib(name))
        )


def browser_modules(node_modules: Path, also: Iterable[str] = ()) -> BrowserModules:
    return BrowserModules(node_modules, also)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _catches_import_error(handlers: list[ast.ExceptHandler]) -> bool:
    for handler in handlers:
        caught = handler.type
        names = caught.elts if isinstance(caught, ast.Tuple) else [caught] if caught is not None else []
        if caught is None or any(
            isinstance(n, ast.Name) and n.id in ("ImportError", "ModuleNotFoundError") for n in names
        ):
            return True
    return False


def _imports(node: ast.AST) -> Iterator[tuple[str, int]]:
    """Each absolute import's top-level module and line, outside TYPE_CHECKING blocks and guarded imports."""
    children: list[ast.AST] = list(ast.iter_child_nodes(node))
    if isinstance(node, ast.If) and _is_type_checking(node.test):
        children = list(node.orelse)
    elif isinstance(node, ast.Try) and _catches_import_error(node.handlers):
        children = [*node.handlers, *node.orelse, *node.finalbody]
    if isinstance(node, ast.Import):
        for alias in node.names:
            yield alias.name.split(".")[0], node.lineno
    elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
        yield node.module.split(".")[0], node.lineno
    for child in children:
        yield from _imports(child)


def _unavailable(folder: Path, available: BrowserModules) -> Iterator[tuple[Path, int, str]]:
    """Each import in the .py files under `folder` of a module outside `available`: its file, line and module."""
    for path in sorted(folder.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        try:
            tree = ast.parse(path.read_bytes(), str(path))
        except (SyntaxError, ValueError):
            continue  # the build's own import reports it, at its line
        for module, line in _imports(tree):
            if module not in available:
                yield path, line, module


def import_problems(folder: Path, shown: str, available: BrowserModules) -> tuple[list[str], list[str]]:
    """For the .py files under `folder` (shown by the name `shown`), read once: `shown/x.py:LINE: ModuleNotFoundError:
    ...` for each import of a module outside `available`, and those modules, sorted (the worker's stand-ins for them,
    calckit.stand_ins, keep the rest of the package working in the browser when the build is not strict)."""
    found = list(_unavailable(folder, available))
    problems = [
        f"{shown}/{path.relative_to(folder).as_posix()}:{line}: ModuleNotFoundError: No module named '{module}' "
        f"({HOW_TO_SHIP})"
        for path, line, module in found
    ]
    return problems, sorted({module for _, _, module in found})


@dataclass(frozen=True)
class ImportCheck:
    problems: list[str]  # each import the browser cannot satisfy, at its line; each dependency not installed
    dependencies: tuple[Dependency, ...]  # the `browser_dependencies` that are installed distributions
    missing: tuple[str, ...]  # modules the package imports that the browser lacks: stand-ins there (calckit.stand_ins)


def browser_import_check(
    node_modules: Path, directory: Path, dependencies: Iterable[str], cache: BuildCache
) -> ImportCheck:
    """Each import of the book's package (in `directory`) that the reader's browser cannot satisfy, as an error at its
    line, and each `browser_dependencies` entry that is not an installed distribution; read from `cache` when an
    earlier build checked the same code against the same modules."""
    from .dependencies import DependencyError, dependency

    if not (node_modules / "pyodide" / "python_stdlib.zip").is_file():
        return ImportCheck([], (), ())  # no runtime to read the browser's modules from: an error of its own (npm ci)
    shipped, errors = [], []
    for name in dependencies:
        try:
            shipped.append(dependency(name))
        except DependencyError as error:
            errors.append(str(error))
    available = browser_modules(node_modules, [directory.name, *(top for each in shipped for top in each.top_level)])
    cached = cache.imports(available.key)
    if cached is None:
        cached = import_problems(directory, directory.name, available)
        cache.keep_imports(available.key, *cached)
    problems, missing = cached
    # Not strict (mkdocs serve), the build goes on: in the browser these are stand-ins, so that only the calculators
    # whose code uses one fail, and say so.
    return ImportCheck([*errors, *problems], tuple(shipped), tuple(missing))
