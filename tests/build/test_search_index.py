"""Search: a page's prose is indexed, its calculators' forms are not (they would crowd every result)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.build.sites import build_fixture
from tests.support import NODE_MODULES

PAGE = """# Rooflines

The ridge point separates memory-bound kernels from compute-bound ones.

```calculator
use: roofline
```

After the calculator, the prose goes on about arithmetic intensity.
"""


def test_forms_stay_out_of_the_index_and_prose_stays_in(tmp_path: Path) -> None:
    plugins = ["search", {"calculators": {"node_modules": str(NODE_MODULES)}}]
    build = build_fixture(tmp_path, {"docs/index.md": PAGE}, plugins=plugins)
    assert build.returncode == 0, build.output
    index = json.loads((build.site / "search/search_index.json").read_text(encoding="utf-8"))
    text = " ".join(doc["text"] for doc in index["docs"] if doc["location"] == "" or doc["location"].startswith("#"))
    assert "separates memory-bound kernels" in text
    assert "the prose goes on about arithmetic intensity" in text  # the exclusion ends with the calculator
    assert "Reset to defaults" not in text and "Peak compute" not in text
