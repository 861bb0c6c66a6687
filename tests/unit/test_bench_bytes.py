"""T5's byte counts by kind (bench.page_bytes.kind): what each file the site serves is counted as."""

from __future__ import annotations

import pytest

from bench.page_bytes import kind


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("/assets/calculators/pyodide/pyodide.asm.wasm", "pyodide"),
        ("/assets/calculators/snapshot-f46c9053932d87b8.bin", "pyodide"),
        ("/assets/calculators/exercise-snapshot-94d3b3b5d499d3fc.bin", "pyodide"),
        ("/assets/calculators/snapshot_bytes.js", "plugin"),  # the worker's reader of a snapshot, not Pyodide
        ("/assets/calculators/vega/vega.min.js", "vega"),
        ("/assets/calculators/vega.js", "plugin"),
        ("/assets/calculators/calckit-0.1.0+7ef47950044f-py3-none-any.whl", "wheel"),
        ("/assets/calculators/katex/katex.min.css", "math"),
        ("/assets/javascripts/bundle.a5f9d56c.min.js", "page+theme"),
    ],
)
def test_each_file_is_counted_as_what_it_is(path: str, expected: str) -> None:
    """T5's byte counts by kind: a home page that loads no runtime shows none (snapshot_bytes.js, a plugin module the
    service worker keeps, was once counted as Pyodide's and failed "Pyodide and Vega bytes, home page")."""
    assert kind(path) == expected
