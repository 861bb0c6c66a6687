"""The block kinds an author can write, one module each; the page renderer loops over them.

To add a kind, write a module in this folder that defines `KIND`, an instance of a `BlockKind` subclass (see
base.py and docs/contributing.md), and add the module's name to REGISTRY.
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any

from .base import Authored, BlockKind, Option, PageContext, Problems

__all__ = ["REGISTRY", "Authored", "BlockKind", "Option", "PageContext", "Problems", "kinds"]

REGISTRY = (
    "calculator",
    "quiz",
    "exercise",
    "table",
)


@cache
def kinds() -> tuple[BlockKind[Any], ...]:
    """Every registered kind, in REGISTRY's order."""
    found = []
    for name in REGISTRY:
        kind = getattr(importlib.import_module(f"{__name__}.{name}"), "KIND", None)
        if not isinstance(kind, BlockKind):
            raise TypeError(f"{__name__}.{name} defines no KIND (a BlockKind instance): see blocks/base.py")
        found.append(kind)
    return tuple(found)
