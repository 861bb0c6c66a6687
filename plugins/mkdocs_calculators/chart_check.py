"""Every chart a calculator draws for a page's inputs, checked at build against the Vega-Lite schema of the pinned
runtime (`node_modules/vega-lite/build/vega-lite-schema.json`, the version the browser runs): a mark type "lyne"
would otherwise build, and in the browser leave only the chart's description and an error Vega words obscurely.

The compiled validator is made once per build process and schema file. A chart is checked with each inline
dataset cut to its first row (the schema takes any rows: what can be wrong is the spec's shape), and a shape checked
once is not checked again, so a calculator on twenty pages costs about one check.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

__all__ = ["chart_problem"]

_SCHEMA = Path("vega-lite") / "build" / "vega-lite-schema.json"
_checked: dict[str, str] = {}  # a chart's shape (JSON) -> its problem, or ""


@cache
def _validator(schema_file: Path, mtime: float) -> tuple[Any, str]:
    import jsonschema

    schema = json.loads(schema_file.read_text(encoding="utf-8"))
    version = json.loads((schema_file.parent.parent / "package.json").read_text(encoding="utf-8"))["version"]
    return jsonschema.validators.validator_for(schema)(schema), str(version)


def _shape(node: Any, key: str = "") -> Any:
    """The spec with every inline dataset (`values: [...]`) cut to its first row."""
    if isinstance(node, dict):
        return {name: _shape(value, name) for name, value in node.items()}
    if isinstance(node, list):
        return [_shape(item) for item in (node[:1] if key == "values" else node)]
    return node


def _path(parts: Any) -> str:
    text = ""
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else f".{part}" if text else str(part)
    return text or "the spec"


def chart_problem(chart: dict[str, Any], node_modules: Path) -> str:
    """What Vega-Lite would refuse in `chart`, in one line ("" when it is valid, or when no schema is installed)."""
    schema_file = node_modules / _SCHEMA
    if not schema_file.is_file():
        return ""  # check_node_modules has said that the runtime is missing
    shape = json.dumps(_shape(chart), sort_keys=True)
    if shape in _checked:
        return _checked[shape]
    from jsonschema.exceptions import best_match

    validator, version = _validator(schema_file, schema_file.stat().st_mtime)
    error = best_match(validator.iter_errors(json.loads(shape)))
    problem = ""
    if error is not None:
        # An anyOf of many schemas says only "not valid under any": the enum among them names what is allowed.
        enums = [sub for sub in error.context or [] if sub.validator == "enum"]
        detail = enums[0] if enums else error
        message = detail.message if len(detail.message) <= 300 else detail.message[:297] + "..."
        problem = f"a chart that Vega-Lite {version} refuses: at {_path(detail.absolute_path)}: {message}"
    _checked[shape] = problem
    return problem
