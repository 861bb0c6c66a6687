"""A book's calculators by name, with no name taken twice: `registry(OHMS_LAW, HEAT)` (also `calckit.registry`) is
the `CALCULATORS` that the contract (`calckit.book`) asks for.

A dict written by hand, `{OHMS_LAW.name: OHMS_LAW, HEAT.name: HEAT}`, keeps only the last of two calculators that
share a name: the other vanishes from the book and its reference page without a word. `registry` refuses the second
at import, at the line that declares it, with the first's place beside it:

    circuits/heat.py:12: two calculators are named 'ohms-law' (the first at circuits/ohm.py:8): give each a name
    of its own

The build prints that line as it is (`calckit.book` also finds two calculators of one name in a package's modules
when `CALCULATORS` is a dict written by hand), and a plain `import circuits` raises it too.
"""

from __future__ import annotations

from pathlib import Path

from .declared import Place, place_text
from .spec import Calculator

__all__ = ["DuplicateName", "refuse_shared_names", "registry"]


class DuplicateName(ValueError):
    """Two of a book's things with one name, said `path:LINE:` at the second, with the first's place.

    Paths are shown relative to the working directory (where `python -c 'import circuits'` runs); the build shows
    them relative to the project's root instead (`shown`)."""

    def __init__(self, what: str, name: str, second: Place, first: Place) -> None:
        self.what = what  # 'calculator'
        self.name = name
        self.second = second
        self.first = first
        super().__init__(self.shown(Path.cwd()))

    def shown(self, root: Path) -> str:
        first = f" (the first at {place_text(self.first, root)})" if self.first[0] else ""
        message = f"two {self.what}s are named '{self.name}'{first}: give each a name of its own"
        return f"{place_text(self.second, root)}: {message}" if self.second[0] else message


def registry(*calculators: Calculator) -> dict[str, Calculator]:
    """The calculators by name, in the order given; a name that two of them share raises DuplicateName at the
    second's declaration. The same calculator given twice is one calculator, and kept once."""
    by_name: dict[str, Calculator] = {}
    for calculator in calculators:
        if not isinstance(calculator, Calculator):
            raise TypeError(f"registry() takes Calculators, not a {type(calculator).__name__}")
        first = by_name.get(calculator.name)
        if first is not None and first is not calculator:
            raise DuplicateName("calculator", calculator.name, calculator.declared_at, first.declared_at)
        by_name[calculator.name] = calculator
    return by_name


def refuse_shared_names(calculators: list[Calculator]) -> None:
    """DuplicateName for the first of `calculators` (distinct objects, in import order) whose name an earlier one
    has: what `calckit.book` checks in a package's modules, for a CALCULATORS written as a dict."""
    seen: dict[str, Calculator] = {}
    for calculator in calculators:
        first = seen.setdefault(calculator.name, calculator)
        if first is not calculator:
            raise DuplicateName("calculator", calculator.name, calculator.declared_at, first.declared_at)
