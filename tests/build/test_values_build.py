"""Prose that computes, through a real strict build: a value in a paragraph, a table, a list and an admonition reaches
the written page as a <data> element, as does an adjustable input, search finds their text, and a mistake or a number
typed by hand beside the calculator that outputs it stops the build at its line."""

from __future__ import annotations

import json
import re
from html import unescape
from pathlib import Path

import pytest

from calckit.api import run
from calckit.book import load
from tests.build.sites import Build, build_fixture
from tests.support import NODE_MODULES

PAGE = """---
title: Values
---
# Values

The ridge of an H100 is {value}`roofline.ridge chip=h100-sxm`.

| chip | attainable at 60 FLOP/byte |
|---|---|
| H100 | {value}`roofline.attainable chip=h100-sxm intensity=60` |

- at one FLOP per byte: {value}`roofline.attainable chip=h100-sxm intensity=1 | digits=2`

!!! note "By hand"
    {value}`roofline.ridge chip=h100-sxm | digits=4` is 989.4 over 3.35.

Shown as code: ``{value}`roofline.ridge` ``

## A calculator the prose adjusts

```calculator
use: roofline
id: explorer
chip: h100-sxm
intensity: 60
```

At {input}`#calc-explorer.intensity | step=10` it reaches {value}`#calc-explorer.attainable`; a paper measured
{typed}`201 TFLOP/s` on it.

A year of one H100 costs {value}`energy.cost chip=h100-sxm` at 15 cents a kWh, and of two
{value}`energy.cost chip=h100-sxm count=2`.
"""


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Build:
    plugins = ["search", {"calculators": {"node_modules": str(NODE_MODULES), "snapshot": False}}]
    build = build_fixture(tmp_path_factory.mktemp("values"), {"docs/index.md": PAGE}, plugins=plugins)
    assert build.returncode == 0, build.output
    return build


def values(html: str) -> list[tuple[str, str, str]]:
    return [
        (value, output, unescape(text))
        for value, output, text in re.findall(
            r'<data class="calc-value" value="([^"]+)" data-from="roofline" '
            r'data-output="(\w+)"[^>]*>([^<]*)</data>',
            html,
        )
    ]


def test_every_value_is_in_the_written_page_as_data(built: Build) -> None:
    html = built.html()
    book = load("calculators")
    ridge = next(o for o in run("roofline", {"chip": "h100-sxm"}, book)["outputs"] if o["key"] == "ridge")
    assert values(html) == [
        (repr(float(ridge["value"])), "ridge", "295 FLOP/byte"),
        ("201000000000000.0", "attainable", "201 TFLOP/s"),  # 3.35 TB/s x 60
        ("3350000000000.0", "attainable", "3.4 TFLOP/s"),  # 3.35 TB/s x 1, two digits
        (repr(float(ridge["value"])), "ridge", "295.3 FLOP/byte"),
        ("201000000000000.0", "attainable", "201 TFLOP/s"),  # follows the explorer: 3.35 TB/s x 60
    ]
    assert (
        '<data class="calc-adjust" value="60" data-adjusts="calc-explorer" data-input="intensity" '
        'data-label="Arithmetic intensity" data-unit="FLOP/byte" data-min="0.01" data-max="1e+06" data-step="10">'
        "60 FLOP/byte</data>"
    ) in html
    assert "a paper measured\n201 TFLOP/s on it." in html  # a figure marked as typed, as it was typed
    assert "<td><data " in html and '<div class="admonition note">' in html
    assert "<code>{value}`roofline.ridge`</code>" in html


def test_a_value_in_dollars_starts_no_formula(built: Build) -> None:
    """Math is on, and arithmatex pairs dollars across a paragraph: two values in dollars are text, and the paragraph
    is whole. Worked by hand: 700 W x 8,760 h = 6,132 kWh, at $0.15 a kWh."""
    html = built.html()
    paragraph = re.search(r"<p>A year of one H100 costs (.*?)</p>", html, re.S)
    assert paragraph, html
    assert '<data class="calc-value" value="919.8" data-from="energy" data-output="cost"' in paragraph[1]
    assert unescape(re.sub(r"<[^>]+>", "", paragraph[1])) == "$919.80 at 15 cents a kWh, and of two\n$1,839.60."
    assert "katex" not in paragraph[1] and "arithmatex" not in paragraph[1]


def test_search_finds_the_numbers_as_readers_see_them(built: Build) -> None:
    index = json.loads((built.site / "search/search_index.json").read_text(encoding="utf-8"))
    text = " ".join(doc["text"] for doc in index["docs"])
    assert "The ridge of an H100 is 295 FLOP/byte." in text


def test_a_mistake_stops_the_strict_build_at_its_line(tmp_path: Path) -> None:
    page = PAGE.replace("roofline.ridge chip=h100-sxm`.", "roofline.ridge chip=h100-sx`.")
    build = build_fixture(tmp_path, {"docs/index.md": page})
    assert build.returncode != 0
    assert len(build.errors()) == 1, build.output
    assert build.errors()[0].startswith(
        "docs/index.md:6: value `roofline.ridge chip=h100-sx`: calculator 'roofline': 'chip' must be one of"
    ), build.errors()


def test_a_number_typed_by_hand_beside_its_calculator_stops_the_strict_build(tmp_path: Path) -> None:
    page = PAGE.replace("{typed}`201 TFLOP/s`", "201 TFLOP/s")
    build = build_fixture(tmp_path, {"docs/index.md": page})
    assert build.returncode != 0
    warnings = [line.split("-  ", 1)[1] for line in build.output.splitlines() if line.startswith("WARNING")]
    assert warnings == [
        "docs/index.md:29: \"201 TFLOP/s\" is typed by hand; calculator #calc-explorer outputs it as 'attainable' "
        "(write {value}`#calc-explorer.attainable`)"
    ], build.output


def test_an_input_that_cannot_be_adjusted_stops_the_strict_build_at_its_line(tmp_path: Path) -> None:
    page = PAGE.replace("{input}`#calc-explorer.intensity | step=10`", "{input}`#calc-explorer.chip`")
    build = build_fixture(tmp_path, {"docs/index.md": page})
    assert build.returncode != 0
    assert len(build.errors()) == 1, build.output
    assert build.errors()[0].startswith(
        "docs/index.md:28: input `#calc-explorer.chip`: input 'chip' of #calc-explorer is a choice from a list, not a "
        "number: only a number can be adjusted (its numbers: peak_tflops, bandwidth_tbs, intensity, m, n, k, "
    ), build.errors()
