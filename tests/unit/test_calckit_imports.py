"""calckit's modules import one another without a cycle, deferred imports inside functions included: a cycle is two
modules that are really one, and it breaks as soon as either is imported first from somewhere new."""

from __future__ import annotations

import ast
from pathlib import Path

import calckit

PACKAGE = Path(calckit.__file__).parent


def _imports(path: Path) -> set[str]:
    """The calckit modules that `path` imports, wherever in the file (`from .quiz import X`, `from . import book`)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            found |= {node.module} if node.module else {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("calckit."):
            found.add((node.module or "").removeprefix("calckit.").split(".")[0])
    return {name.split(".")[0] for name in found}


def test_no_module_of_calckit_imports_itself_round_about() -> None:
    graph = {path.stem: _imports(path) - {path.stem} for path in PACKAGE.glob("*.py") if path.stem != "__init__"}
    assert graph["quiz_checks"] >= {"quiz"}  # the graph is read: the readers import the model they build

    def cycle_from(start: str) -> list[str] | None:
        stack = [(start, [start])]
        while stack:
            name, path = stack.pop()
            for following in graph.get(name, set()):
                if following == start:
                    return [*path, start]
                if following not in path:
                    stack.append((following, [*path, following]))
        return None

    cycles = {name: cycle for name in graph if (cycle := cycle_from(name))}
    assert cycles == {}
