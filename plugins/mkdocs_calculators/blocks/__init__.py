"""The block kinds an author can write, one folder each; the page renderer loops over them.

A kind is a folder: its declaration in `__init__.py`, a `KIND` that is an instance of a `BlockKind` subclass (see
base.py and docs/contributing.md), and beside it its browser module(s) and stylesheets (hooks.Browser). The plugin's
own are named in REGISTRY; a book brings its own through the entry-point group `mkdocs_calculators.kinds`
(ENTRY_POINTS), `NAME = "module:KIND"` in its pyproject.toml, which `kinds()` adds after the plugin's.
"""

from __future__ import annotations

import importlib
import inspect
import json
import re
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from .base import Authored, BlockKind, Option, PageContext, Problems

__all__ = [
    "ENTRY_POINTS",
    "REGISTRY",
    "Authored",
    "BlockKind",
    "KindError",
    "Option",
    "PageContext",
    "Problems",
    "kinds",
]

REGISTRY = (
    "calculator",
    "quiz",
    "exercise",
    "table",
)
# Where a book registers kinds of its own: [project.entry-points."mkdocs_calculators.kinds"] in its pyproject.toml,
# `term = "my_book_blocks.term:KIND"`, the name being the kind's (its fence's info string).
ENTRY_POINTS = "mkdocs_calculators.kinds"


class KindError(Exception):
    """A kind a book registers that cannot be used: the message is one line, from where it was registered."""


@cache
def kinds() -> tuple[BlockKind[Any], ...]:
    """Every registered kind: the plugin's, in REGISTRY's order, then the books' (by name). KindError for a book's
    registration that is broken: a module that does not load, something that is not a kind, a name that is not the
    kind's, or one that another kind has."""
    found = []
    for name in REGISTRY:
        kind = getattr(importlib.import_module(f"{__name__}.{name}"), "KIND", None)
        if not isinstance(kind, BlockKind):
            raise TypeError(f"{__name__}.{name} defines no KIND (a BlockKind instance): see blocks/base.py")
        found.append(kind)
    for entry in sorted(metadata.entry_points(group=ENTRY_POINTS), key=lambda entry: (entry.name, entry.value)):
        found.append(registered(entry, found))
    return tuple(found)


def registered(entry: metadata.EntryPoint, before: list[BlockKind[Any]]) -> BlockKind[Any]:
    """The kind that `entry` names, checked against the kinds `before` it; KindError saying what is wrong, at the
    line of the book's pyproject.toml that registers it when that can be found."""
    where = _registration(entry)
    named = f"'{entry.value}', registered in {ENTRY_POINTS} as the kind '{entry.name}'"
    try:
        kind = entry.load()
    except Exception as error:  # whatever the book's module raises as it is imported
        raise KindError(f"{where}: {named}, does not load: {type(error).__name__}: {error}") from None
    if not isinstance(kind, BlockKind):
        what = f"the class {kind.__name__}" if inspect.isclass(kind) else f"a {type(kind).__name__}"
        raise KindError(
            f"{where}: {named}, is {what}, not a block kind: name an instance of a BlockKind subclass, such as the "
            "module's KIND (docs/contributing.md, Add a block kind)"
        )
    if kind.name != entry.name:
        raise KindError(f"{where}: {named}, is the kind '{kind.name}': register it under its own name")
    for other in before:
        if other.name == kind.name:
            owner = "the plugin's own" if type(other).__module__.startswith(f"{__name__}.") else "another registered"
            raise KindError(
                f"{where}: {named}, has the name of {owner} {other.name} kind ({type(other).__module__}): give it "
                "a name of its own"
            )
    return kind


def _registration(entry: metadata.EntryPoint) -> str:
    """Where `entry` is registered: `path/pyproject.toml:LINE` for a project installed editable (pip's direct_url.json
    says where it is), or the distribution's name and the entry point."""
    dist = entry.dist
    described = f'{dist.name if dist else "a distribution"}\'s entry point {entry.name} = "{entry.value}"'
    try:
        url = json.loads((dist.read_text("direct_url.json") if dist else None) or "{}").get("url", "")
    except ValueError:
        url = ""
    if not url.startswith("file:"):
        return described
    project = Path(unquote(urlparse(url).path)) / "pyproject.toml"
    try:
        lines = project.read_text(encoding="utf-8").splitlines()
    except OSError:
        return described
    pattern = re.compile(rf"""^\s*["']?{re.escape(entry.name)}["']?\s*=""")
    group = False
    for number, line in enumerate(lines, 1):
        if line.strip().startswith("["):
            group = ENTRY_POINTS in line
        elif group and pattern.match(line):
            return f"{_shown(project)}:{number}"
    return str(_shown(project))


def _shown(path: Path) -> str:
    """`path` from the working directory when it is under it (as MkDocs names pages), else whole."""
    try:
        return path.relative_to(Path.cwd()).as_posix()
    except ValueError:
        return str(path)
