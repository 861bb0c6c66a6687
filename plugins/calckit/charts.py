"""Vega-Lite chart specs as plain dicts (Altair is too heavy for the browser); the look shared by every chart."""

from __future__ import annotations

import math
from typing import Any

__all__ = ["POINT_COLOR", "VEGA_LITE_SCHEMA", "decade_domain", "layered", "log_axis"]

# The colour of a chart's points (a workload, a chip), opaque: 3.9:1 on Material's light code background, 3.5:1 on
# the dark one (WCAG 1.4.11 asks 3:1 of any mark that carries meaning).
POINT_COLOR = "#d9480f"

# An identifier of the spec's dialect, not a download: vega-embed reads the version from it.
VEGA_LITE_SCHEMA = "https://vega.github.io/schema/vega-lite/v6.json"

Spec = dict[str, Any]


def layered(description: str, layers: list[Spec], height: int = 280) -> Spec:
    """A chart of several layers that fills its container's width; colours come from the page's theme."""
    return {
        "$schema": VEGA_LITE_SCHEMA,
        "description": description,
        "width": "container",
        "height": height,
        "background": "transparent",
        "layer": layers,
    }


# Where a log axis's labels are plain numbers: d3-format's `~g` writes 1e+6 and 1e-7 in exponent form beyond.
PLAIN_FROM, PLAIN_BELOW = 1e-4, 1e6


def log_axis(field: str, title: str, domain: tuple[float, float]) -> Spec:
    """A quantitative channel on a log scale, with a fixed domain so the picture does not jump as values move."""
    low, high = domain
    # Plain numbers (0.1, not "100m") where they stay short; an axis that reaches further has SI prefixes on every
    # label (100n, 1µ ... 10G: the title names the unit), never a mixture of 0.000001 and 1e-7.
    plain = low >= PLAIN_FROM and high < PLAIN_BELOW
    return {
        "field": field,
        "type": "quantitative",
        "title": title,
        "scale": {"type": "log", "domain": list(domain), "nice": False},
        # Tick labels that would touch are dropped (on a phone "40" and "50" ran into "4050").
        "axis": {"format": ",~g" if plain else "~s", "grid": True, "labelOverlap": "greedy", "labelSeparation": 8},
    }


def decade_domain(*values: float, margin: float = 1.0) -> tuple[float, float]:
    """The powers of ten that enclose `values`, widened by `margin` decades on each side."""
    low = math.floor(math.log10(min(values)) - margin)
    high = math.ceil(math.log10(max(values)) + margin)
    return 10.0**low, 10.0**high
