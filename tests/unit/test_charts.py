"""Every chart a calculator draws is a valid Vega-Lite spec, checked against the schema that Altair ships."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from importlib import resources
from typing import Any

import jsonschema
import pytest
from jsonschema.exceptions import best_match

from calckit.api import run
from calckit.charts import VEGA_LITE_SCHEMA, decade_domain
from calculators import CALCULATORS
from tests.support import ROOT
from tests.unit.test_calculators import CROSS_FIELD


@pytest.fixture(scope="module")
def validator() -> jsonschema.protocols.Validator:
    schema = json.loads(resources.files("altair").joinpath("vegalite/v6/schema/vega-lite-schema.json").read_text())
    cls = jsonschema.validators.validator_for(schema)
    return cls(schema)  # type: ignore[no-any-return]


def charts() -> list[tuple[str, dict[str, Any]]]:
    """The chart of every calculator, at its defaults and at the edges of its inputs."""
    found = []
    for name, calculator in CALCULATORS.items():
        edges: list[dict[str, Any]] = [{}]
        for spec in calculator.inputs:
            for bound in (spec.min, spec.max):
                if bound is not None and not (spec.min_exclusive and bound == spec.min):
                    edges.append({spec.key: bound})
        for inputs in edges:
            result = run(name, inputs)
            if not result["ok"]:
                # An edge may break a rule between fields (one query head, eight KV heads): no chart to draw.
                assert {error["field"] for error in result["errors"]} <= CROSS_FIELD, result
                continue
            if result["chart"] is not None:
                found.append((f"{name}{inputs}", result["chart"]))
    # A mixture of experts adds a mark where a step reads 90% of the experts (DeepSeek-V3's shape).
    moe = {"params_b": 671, "active_b": 37, "experts": 256, "top_k": 8, "layers": 61, "attention": "mla"}
    for name in ("serving", "latency-throughput"):
        result = run(name, moe)
        assert result["ok"] and result["chart"] is not None, result
        assert "90% of experts read" in json.dumps(result["chart"])
        found.append((f"{name}{moe}", result["chart"]))
    return found


@pytest.mark.parametrize(("case", "chart"), charts())
def test_chart_matches_the_vega_lite_schema(
    validator: jsonschema.protocols.Validator, case: str, chart: dict[str, Any]
) -> None:
    error = best_match(validator.iter_errors(chart))
    assert error is None, f"{case}: at {list(error.absolute_path)}: {error.message[:200]}"
    assert chart["$schema"] == VEGA_LITE_SCHEMA
    assert chart["description"]  # the text alternative for screen readers


def test_the_schema_catches_a_broken_spec(validator: jsonschema.protocols.Validator) -> None:
    """The check can fail: a mark type Vega-Lite does not know is reported."""
    chart = run("roofline", {})["chart"]
    chart["layer"][0]["mark"]["type"] = "blob"
    assert list(validator.iter_errors(chart))


@pytest.mark.parametrize(
    ("values", "domain"), [((295.0, 100.0), (10.0, 1e4)), ((0.05,), (1e-3, 1.0)), ((1.0, 1000.0), (0.1, 1e4))]
)
def test_decade_domain(values: tuple[float, ...], domain: tuple[float, float]) -> None:
    assert decade_domain(*values) == pytest.approx(domain)


# Each log axis's tick labels as Vega writes them (d3-format, which Vega uses, from the site's node_modules): the
# values 1-9 x 10^k inside the axis's domain, one JSON line per axis.
TICK_LABELS = """
import { format } from "d3-format";
const axes = JSON.parse(await new Promise((done) => { let text = ""; process.stdin.on("data", (chunk) => text += chunk);
  process.stdin.on("end", () => done(text)); }));
for (const { format: specifier, domain: [low, high] } of axes) {
  const labels = [];
  for (let power = Math.floor(Math.log10(low)); power <= Math.ceil(Math.log10(high)); power++) {
    for (let digit = 1; digit <= 9; digit++) {
      const value = Number(`${digit}e${power}`);
      if (value >= low * (1 - 1e-9) && value <= high * (1 + 1e-9)) labels.push(format(specifier)(value));
    }
  }
  console.log(JSON.stringify(labels));
}
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node")
def test_log_axes_label_every_tick_in_one_notation() -> None:
    """No log axis of any chart mixes 0.000001 with 1e-7, or writes a million as 1e+6: each reads in plain numbers or
    in SI prefixes throughout, as Vega formats it."""
    axes: list[tuple[str, str, list[float]]] = []

    def gather(case: str, node: object, key: str) -> None:
        if isinstance(node, list):
            for item in node:
                gather(case, item, key)
        elif isinstance(node, dict):
            if isinstance(node.get("scale"), dict) and node["scale"].get("type") == "log":
                axes.append((f"{case} {key}", node["axis"]["format"], node["scale"]["domain"]))
            for name, value in node.items():
                gather(case, value, name)

    for case, chart in charts():
        gather(case, chart, "")
    done = subprocess.run(
        [str(shutil.which("node")), "--input-type=module", "-e", TICK_LABELS],
        input=json.dumps([{"format": specifier, "domain": domain} for _, specifier, domain in axes]),
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "NODE_NO_WARNINGS": "1"},
        check=True,
        timeout=60,
    )
    labels = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(labels) == len(axes) and len(axes) >= 20
    exponents = {case: shown for (case, _, _), shown in zip(axes, labels, strict=True) if any("e" in t for t in shown)}
    assert exponents == {}
    shown = dict(zip((case for case, _, _ in axes), labels, strict=True))
    collective = next(labels for case, labels in shown.items() if case.startswith("collective{}") and "y" in case)
    assert {"1n", "1µ", "100m"} <= set(collective)  # seconds, from 1 ns to 0.1 s
    roofline = next(labels for case, labels in shown.items() if case.startswith("roofline{}") and " x" in case)
    assert {"10", "1,000"} <= set(roofline)  # plain numbers where they stay short
