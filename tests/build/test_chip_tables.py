"""```chips blocks: tables from the chip database, each figure linked to its numbered source."""

from __future__ import annotations

import re

import pytest

from calckit.table import as_of
from calculators import TABLE
from calculators.chips import get_chip, load_sources
from mkdocs_calculators.pages.tables import source_numbers
from tests.build.sites import Build, build_fixture

PAGE = """# TPUs

```chips
chips: [tpu-v4, tpu-v5e, h100-sxm]
columns: [year, bf16, memory, bandwidth, power]
caption: Three chips.
```
"""


@pytest.fixture(scope="module")
def build(tmp_path_factory: pytest.TempPathFactory) -> Build:
    """One strict build of a home page and a page with a ```chips table; the plugin adds the database's page."""
    return build_fixture(tmp_path_factory.mktemp("chips"), {"docs/index.md": "# Home\n", "docs/chapters/tpus.md": PAGE})


def test_cells_hold_the_database_figures_with_their_sources(build: Build) -> None:
    """Each cell shows the figure, its data-value for sorting, and a link to its source on the database page."""
    assert build.returncode == 0, build.output
    html = build.html("chapters/tpus/index.html")
    rows = re.findall(r'<tr><th scope="row"><a href="([^"]+)">([^<]+)</a></th>(.*?)</tr>', html)
    assert [(link, name) for link, name, _ in rows] == [
        ("../../reference/chips/#chip-tpu-v4", "Google TPU v4"),
        ("../../reference/chips/#chip-tpu-v5e", "Google TPU v5e"),
        ("../../reference/chips/#chip-h100-sxm", "NVIDIA H100 SXM"),
    ]
    v5e = get_chip("tpu-v5e")
    cells = re.findall(r"<td[^>]*>(.*?)</td>", rows[1][2])
    number = source_numbers(TABLE)[v5e.bandwidth_tbs.source.id]
    link = (
        f'0.819<sup class="table-source"><a href="../../reference/chips/#source-{v5e.bandwidth_tbs.source.id}" '
        f'title="Source {number}">S{number}</a></sup>'
    )
    assert cells[3].startswith(link)
    assert len(re.findall(r"\(alt\. ", cells[3])) == len(v5e.bandwidth_tbs.alternatives)
    assert cells[4] == "—"  # Google publishes no power figure for v5e
    assert "(sparse 1979)" in rows[2][2]  # H100's headline BF16 counts sparsity; the dense 989.4 is the figure
    dated = as_of([TABLE.rows()[chip] for chip in ("tpu-v4", "tpu-v5e", "h100-sxm")], load_sources())
    assert f"<caption>Three chips. Figures as of {dated}.</caption>" in html and "data-sortable" in html


def test_the_database_page_numbers_sources_the_same_way(build: Build) -> None:
    html = build.html("reference/chips/index.html")
    items = re.findall(r'<li id="source-([^"]+)">', html)
    assert {source: number for number, source in enumerate(items, start=1)} == source_numbers(TABLE)
