"""Where things are in chips.toml, for messages that point at them: the line of each table and key (tomllib gives
values, not positions), the error located at one of them, and the wording of a misspelt name."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable

__all__ = ["ChipDataError", "KeyLines", "unknown_name"]


class ChipDataError(ValueError):
    """A problem in the chip database at one line: `origin:line: where: problem` (where names chip and field)."""

    def __init__(self, origin: str, line: int, where: str, problem: str) -> None:
        self.origin = origin
        self.line = line
        self.where = where
        self.problem = problem
        super().__init__(f"{origin}:{line}: {where}: {problem}" if where else f"{origin}:{line}: {problem}")


class KeyLines:
    """Where each [[chip]] or [[source]] table, and each key in it, starts: tomllib gives values, not positions."""

    _HEADER = re.compile(r"\s*\[\[\s*(chip|source)\s*\]\]")
    _SUBTABLE = re.compile(r"\s*\[\s*(?:chip|source)\.([A-Za-z0-9_.-]+)\s*\]")
    _KEY = re.compile(r"\s*([A-Za-z0-9_.\"' -]+?)\s*=")

    def __init__(self, text: str) -> None:
        self.tables: dict[str, list[tuple[int, dict[str, int]]]] = {"chip": [], "source": []}
        keys: dict[str, int] | None = None
        prefix = ""
        for number, line in enumerate(text.splitlines(), start=1):
            if header := self._HEADER.match(line):
                keys, prefix = {}, ""
                self.tables[header[1]].append((number, keys))
            elif subtable := self._SUBTABLE.match(line):
                prefix = subtable[1] + "."
            elif line.lstrip().startswith("["):
                keys = None
            elif keys is not None and (key := self._KEY.match(line)):
                keys.setdefault(prefix + re.sub(r"[\"' ]", "", key[1]), number)

    def of(self, kind: str, index: int, key: str = "") -> int:
        """The line of `key` (or of the nearest enclosing key) in the kind's table number `index`, else its header."""
        tables = self.tables[kind]
        if index >= len(tables):
            return 1
        header, keys = tables[index]
        parts = key.split(".") if key else []
        while parts:
            if (line := keys.get(".".join(parts))) is not None:
                return line
            parts.pop()
        return header


def unknown_name(name: str, known: Iterable[str], what: str = "field") -> str:
    """ "unknown field 'pwer_w': did you mean 'power_w'? (known: a, b, c)": a misspelling with its likely fix."""
    names = sorted(known)
    near = difflib.get_close_matches(name, names, n=1, cutoff=0.6)
    guess = f": did you mean '{near[0]}'?" if near else ""
    return f"unknown {what} '{name}'{guess} (known: {', '.join(names)})"
