"""```resistor: a resistor's colour bands, drawn, with the resistance they code (IEC 60062).

A kind of the second book's own, one folder: this declaration, its browser module (resistor.js: names each band's
colour as the pointer rests on it) and its stylesheet (resistor.css, in every page's calculators.css).
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from typing import Any, ClassVar

from calckit.units import format_si
from mkdocs_calculators.blocks import Authored, BlockKind, Option
from mkdocs_calculators.blocks.hooks import Browser

# Each colour's digit, and the band's colour on the page.
COLOURS = {
    "black": (0, "#000000"),
    "brown": (1, "#7b3f00"),
    "red": (2, "#d32f2f"),
    "orange": (3, "#f57c00"),
    "yellow": (4, "#fbc02d"),
    "green": (5, "#388e3c"),
    "blue": (6, "#1976d2"),
    "violet": (7, "#7b1fa2"),
    "grey": (8, "#757575"),
    "white": (9, "#ffffff"),
}


def _bands(value: Any) -> tuple[str, ...]:
    rule = f"a list of three colours, two digits and a multiplier (of: {', '.join(COLOURS)})"
    if not isinstance(value, list) or len(value) != 3:
        raise ValueError(rule)  # said as "'bands' must be a list of three colours, ..."
    unknown = [colour for colour in value if colour not in COLOURS]
    if unknown:
        raise ValueError(f"{rule}; '{unknown[0]}' is not one")
    return tuple(value)


@dataclass(frozen=True)
class Resistor:
    bands: tuple[str, ...]

    @property
    def ohms(self) -> float:
        first, second, multiplier = (COLOURS[colour][0] for colour in self.bands)
        return float((10 * first + second) * 10**multiplier)


class ResistorKind(BlockKind[Resistor]):
    name = "resistor"
    title = "resistor block"
    options: ClassVar = {"bands": Option("its colour bands, from the end", _bands, required=True)}
    browser = Browser("resistor.js", "[data-resistor]", "mountResistors", page_styles=("resistor.css",))

    def read(self, block: Authored) -> Resistor:
        loaded = block.load(self.title)
        values = self.checked_options(block, loaded, self.mapping(block, loaded, "'bands'"))
        return Resistor(values["bands"])

    def render(self, model: Resistor, block: Authored) -> str:
        value = format_si(model.ohms, "Ω")
        bands = "".join(
            f'<span class="resistor-band" style="background: {COLOURS[colour][1]}" data-colour="{colour}"></span>'
            for colour in model.bands
        )
        spoken = escape(", ".join(model.bands))
        return (
            f'<figure class="resistor" data-resistor="{model.ohms:g}">'
            f'<span class="resistor-body" role="img" aria-label="bands {spoken}">{bands}</span>'
            f"<figcaption>{escape(value)}</figcaption></figure>"
        )


KIND = ResistorKind()
