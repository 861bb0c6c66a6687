"""Every chart a calculator draws for a page's inputs, checked at build against the Vega-Lite schema of the pinned
runtime (`node_modules/vega-lite/build/vega-lite-schema.json`, the version the browser runs): a mark type "lyne"
would otherwise build, and in the browser leave only the chart's description and an error Vega words obscurely.

The compiled validator is made once per build process and schema file. A chart is checked with each inline
dataset cut to its first row (the schema takes any rows: what can be wrong is the spec's shape), and a shape checked
once is not checked again: within a build, and across builds through the digests of the valid shapes kept beside the
memory snapshots (`node_modules/.cache/mkdocs-calculators/`, keyed by the schema's content), so that a rebuild with
unchanged charts neither imports jsonschema nor validates anything (each check costs about 30 ms of CPU).
"""

from __future__ import annotations

import hashlib
import json
import os
from functools import cache
from pathlib import Path
from typing import Any

from ..runtime.layout import NODE_CACHE

__all__ = ["chart_problem", "save_valid_shapes", "use_schema"]

_SCHEMA = Path("vega-lite") / "build" / "vega-lite-schema.json"
_checked: dict[str, str] = {}  # a chart shape's digest -> its problem, or ""
_known_valid: dict[Path, set[str]] = {}  # cache file -> the digests of valid shapes it holds


_node_modules: list[Path] = []  # where the runtime's schema is, for chart_problem's callers that do not know


def use_schema(node_modules: Path) -> None:
    """Check charts against the schema of the runtime in `node_modules` (the plugin's option) from now on."""
    _node_modules[:] = [node_modules]


@cache
def _cache_file(schema_file: Path, node_modules: Path, size: int, mtime: float) -> Path:
    digest = hashlib.sha256(schema_file.read_bytes()).hexdigest()[:16]
    return node_modules / NODE_CACHE / f"valid-charts-{digest}.json"


def _valid_shapes(cache_file: Path) -> set[str]:
    if cache_file not in _known_valid:
        try:
            _known_valid[cache_file] = set(json.loads(cache_file.read_text(encoding="utf-8")))
        except (OSError, ValueError):
            _known_valid[cache_file] = set()
    return _known_valid[cache_file]


def save_valid_shapes() -> None:
    """Keep the digests of the shapes found valid, for the next build (a cache: failing to write it is fine)."""
    for cache_file, digests in _known_valid.items():
        try:
            cache_file.parent.mkdir(parents=True, exist_ok=True)
            partial = cache_file.with_suffix(f".{os.getpid()}.partial")
            partial.write_text(json.dumps(sorted(digests)), encoding="utf-8")
            partial.replace(cache_file)
        except OSError:
            pass


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


def chart_problem(chart: dict[str, Any], node_modules: Path | None = None) -> str:
    """What Vega-Lite would refuse in `chart`, in one line ("" when it is valid, or when no schema is installed)."""
    node_modules = node_modules or (_node_modules[0] if _node_modules else Path("node_modules"))
    schema_file = node_modules / _SCHEMA
    if not schema_file.is_file():
        return ""  # check_node_modules has said that the runtime is missing
    shape = json.dumps(_shape(chart), sort_keys=True)
    digest = hashlib.sha256(shape.encode()).hexdigest()
    stat = schema_file.stat()
    valid = _valid_shapes(_cache_file(schema_file, node_modules, stat.st_size, stat.st_mtime))
    if digest in valid:
        return ""
    if digest in _checked:
        return _checked[digest]
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
    _checked[digest] = problem
    if not problem:
        valid.add(digest)
    return problem
