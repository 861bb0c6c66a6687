"""The boundary between the package and its callers: the build's pre-render and the browser's worker.

`run` takes inputs as an author wrote them or a reader typed them and returns plain JSON-ready data, the same in
CPython and in Pyodide, so both sides show identical text.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from .quiz import quiz_variant
from .registry import get

__all__ = ["FUNCTIONS", "call_json", "run"]


def run(name: str, inputs: Mapping[str, object]) -> dict[str, Any]:
    """{ok: True, outputs, summary, chart} for good inputs; {ok: False, errors} listing every bad field."""
    calculator = get(name)
    values, errors = calculator.check(inputs)
    if errors:
        return {"ok": False, "calculator": name, "errors": [error.as_dict() for error in errors]}
    result = calculator.evaluate(values)
    return {
        "ok": True,
        "calculator": name,
        "inputs": values,
        "outputs": [
            {
                "key": out.key,
                "label": out.label,
                "value": result.values[out.key],
                "text": out.text(result.values[out.key]),
                "note": result.notes.get(out.key, ""),
            }
            for out in calculator.outputs
        ],
        "summary": result.summary,
        "chart": result.chart,
        "table": result.table.as_dict() if result.table else None,
    }


# What the browser worker may call, by name: each takes keyword arguments that are plain JSON data.
FUNCTIONS: dict[str, Callable[..., Any]] = {"run": run, "quiz_variant": quiz_variant}


def call_json(function: str, arguments_json: str) -> str:
    """Call one of FUNCTIONS with JSON keyword arguments and return its JSON result (the worker's only entry)."""
    if function not in FUNCTIONS:
        raise KeyError(f"unknown function '{function}' (expected one of: {', '.join(sorted(FUNCTIONS))})")
    result = FUNCTIONS[function](**json.loads(arguments_json))
    return json.dumps(result, allow_nan=False, ensure_ascii=False)
