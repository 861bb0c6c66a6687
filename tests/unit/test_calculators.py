"""Every calculator in the registry, over its declared input space and beyond it (R1)."""

from __future__ import annotations

import functools
import json
import math
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from calckit import Calculator
from calckit.api import run
from calculators import CALCULATORS
from tests.strategies import inputs_for, sweep

NAMES = sorted(CALCULATORS)
# Rules that span fields (a precision the chosen chip lacks, a chip without a published figure, more KV heads than
# query heads, a mixture of experts with fewer active parameters than its k experts hold or more experts per token
# than experts) are checked after each field is: they may reject inputs that are each within their declared range.
CROSS_FIELD = {"chip", "precision", "kv_heads", "active_b", "top_k"}
NOT_A_NUMBER = re.compile(r"\b(nan|inf|infinity)\b", re.IGNORECASE)


def _check_result(calculator: Calculator, result: dict[str, Any]) -> None:
    # A compute that raised for inputs it accepted is a defect: the message names the inputs and the cause.
    assert "failure" not in result, result.get("failure", {}).get("message")
    json.dumps(result, allow_nan=False)  # raises on a NaN or an infinity anywhere
    if result["ok"]:
        for spec in calculator.inputs:
            spec.parse(result["inputs"][spec.key])  # what was accepted obeys the declared rules
        for output in result["outputs"]:
            assert output["text"] and (isinstance(output["value"], str) or math.isfinite(output["value"]))
            assert not NOT_A_NUMBER.search(output["text"]), output
    else:
        assert result["errors"]
        for error in result["errors"]:
            assert error["field"] in calculator.input_keys
            assert error["message"].startswith(f"'{error['field']}' must be ")


@functools.cache
def _inputs(name: str, *, valid: bool) -> st.SearchStrategy[dict[str, Any]]:
    return inputs_for(CALCULATORS[name], valid=valid)


@pytest.mark.parametrize("name", NAMES)
class TestFuzzed:
    @settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(data=st.data())
    def test_valid_inputs_give_finite_results_and_summaries_that_quote_them(
        self, name: str, data: st.DataObject
    ) -> None:
        """Inputs inside every declared range give finite outputs, or a cross-field rule's named error; and the
        summary quotes each figure it names as its output's own text (TestOneFigureOneText), from the same run."""
        calculator = CALCULATORS[name]
        result = run(name, data.draw(_inputs(name, valid=True)))
        _check_result(calculator, result)
        if not result["ok"]:
            assert {error["field"] for error in result["errors"]} <= CROSS_FIELD
            return
        _check_summary_quotes_outputs(name, result)

    @settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(data=st.data())
    def test_anything_gives_a_result_or_field_named_errors(self, name: str, data: st.DataObject) -> None:
        """Zero, negative, huge, NaN, infinite, wrong types, junk text: never an exception, never a NaN."""
        calculator = CALCULATORS[name]
        _check_result(calculator, run(name, data.draw(_inputs(name, valid=False))))

    def test_round_values_and_equal_pairs_compute(self, name: str) -> None:
        """Every round value of every numeric input, under every choice, and equal pairs: no compute raises."""
        calculator = CALCULATORS[name]
        runs = 0
        for inputs in sweep(calculator):
            _check_result(calculator, run(name, inputs))
            runs += 1
        # The systolic array's inputs are a few small whole numbers; test_systolic.py walks its space much further.
        assert runs > (50 if name == "systolic" else 100)

    def test_defaults_compute(self, name: str) -> None:
        result = run(name, {})
        assert result["ok"], result
        assert len(result["outputs"]) == len(CALCULATORS[name].outputs)


class TestDeclarations:
    @pytest.mark.parametrize("name", NAMES)
    def test_every_field_filled_by_a_picker_names_one(self, name: str) -> None:
        calculator = CALCULATORS[name]
        for spec in calculator.inputs:
            if spec.filled_by:
                picker = next(i for i in calculator.inputs if i.key == spec.filled_by)
                assert picker.kind == "choice" and "custom" in picker.choice_values


def _named_in_summary(name: str, result: dict[str, Any]) -> tuple[str, ...]:
    """The outputs whose figure each calculator's summary quotes, for these inputs (one with no figure, "—", is
    said in words instead)."""
    inputs = result["inputs"]
    if name == "mbu":
        return ("achieved_flops", "mfu") if inputs["mode"] == "training" else ("achieved_bandwidth", "mbu", "mfu")
    if name == "compare":
        fits = not result["outputs"][3]["text"].startswith("None")
        return ("most_compute", "most_bandwidth", "most_memory") + (("fastest_decode",) if fits else ())
    if name == "latency-throughput":
        met = next(o for o in result["outputs"] if o["key"] == "target_batch")["text"] != "—"
        at_target = ("target_batch", "target_total", "cost_per_million_output", "energy_per_million_output")
        return ("step_time", "per_user", "total", "max_batch", *(at_target if met else ()), "cost_per_million_input")
    if name == "disaggregation":
        loaded = next(output["text"] for output in result["outputs"] if output["key"] == "ttft") != "—"
        queue = ("utilisation", "ttft") if loaded else ()
        return ("kv_per_request", "transfer_time", "exposed_transfer", "prefill_time", *queue, "goodput")
    return {
        "roofline": ("workload_intensity", "attainable", "fraction", "ridge"),
        "inference": ("kv_cache", "total_memory", "memory_share", "prefill_time", "decode_time"),
        "energy": ("average_power", "energy", "cost"),
        "training": ("flops", "days", "chip_hours"),
        "matmul": ("intensity", "ridge", "fraction", "critical_batch"),
        "allreduce": ("compute_time", "comm_time", "ratio", "min_d_ff"),
        "serving": (
            "step_time",
            "throughput",
            "per_sequence",
            "cost_per_million_output",
            "energy_per_million_output",
            "cost_per_million_input",
        ),
        "collective": ("time", "latency_time", "crossover"),
        "parallelism": ("compute", "exposed", "efficiency", "state", "activations", "memory", "dp_tokens_per_chip"),
        "training-memory": ("memory", "state", "activations", "activations_per_layer"),
        "kv-cache": ("per_token", "vs_mha", "batch_per_chip", "reserved_per_chip"),
        "speculative": ("tokens_per_step", "speedup", "best_draft", "best_speedup"),
        "systolic": ("busy", "cycles", "utilization"),
        "pipeline-schedule": ("bubble", "step", "bubble_share", "held_first", "activations", "memory"),
        "expert-parallel": (
            "experts_per_rank",
            "touched",
            "weights_read",
            "kv_read",
            "exchange_time",
            "compute_time",
            "step_time",
            "per_gpu",
            "per_user",
        ),
    }[name]


def _check_summary_quotes_outputs(name: str, result: dict[str, Any]) -> None:
    texts = {output["key"]: output["text"] for output in result["outputs"]}
    summary = result["summary"]
    for key in _named_in_summary(name, result):
        assert texts[key] == "—" or texts[key] in summary, (key, texts[key], summary)


@pytest.mark.parametrize("name", NAMES)
class TestOneFigureOneText:
    """One quantity is written one way everywhere on a page: a summary quotes its outputs' own text (for drawn
    inputs, in TestFuzzed's run of them)."""

    def test_at_the_defaults(self, name: str) -> None:
        result = run(name, {})
        assert result["ok"], result
        _check_summary_quotes_outputs(name, result)


def _singular(name: str, formula: Any) -> Calculator:
    """A calculator of two inputs whose compute raises wherever `formula(a, b)` divides by zero."""
    from calckit import Input, Output, Result

    def compute(values: Any) -> Result:
        value = formula(float(values["a"]), float(values["b"]))
        return Result({"y": value}, summary=f"y is {value}")

    return Calculator(
        name=name,
        title="Singular",
        description="Raises at one point of its declared space.",
        inputs=(
            Input("a", "A", 10.0, min=0.001, max=1e6),
            Input("b", "B", 20.0, min=0.001, max=1e6),
        ),
        outputs=(Output("y", "Y"),),
        compute=compute,
    )


class TestTheFuzzerFindsSingularPoints:
    """The tests above reach a range's interior, not only its edges: a compute that raises at a whole number or a round
    decimal inside the range, or where two inputs are equal, is found (so those tests would fail on it)."""

    SINGULAR = (
        ("at-seven", lambda a, b: 1 / (a - 7)),
        ("at-a-round-decimal", lambda a, b: 1 / (b - 0.25)),
        ("where-inputs-meet", lambda a, b: 1 / (a - b)),
    )

    @pytest.mark.parametrize(("name", "formula"), SINGULAR, ids=[case[0] for case in SINGULAR])
    def test_the_sweep_finds_it(self, name: str, formula: Any, monkeypatch: pytest.MonkeyPatch) -> None:
        from calculators import registry

        calculator = _singular(name, formula)
        monkeypatch.setitem(registry.CALCULATORS, name, calculator)
        failures = [run(name, inputs)["failure"] for inputs in sweep(calculator) if "failure" in run(name, inputs)]
        assert failures
        assert failures[0]["error"] == "ZeroDivisionError: float division by zero"
        assert failures[0]["message"].startswith(f"calculator '{name}' failed for these inputs (a=")

    def test_the_sweep_walks_every_entry_of_a_picker(self) -> None:
        """Under the picker's default entry and its "custom" entry each numeric input takes every round value (7
        included); under another value of a choice the 1-2-5 values; under the picker's other entries (each chip, in
        this book) the powers of ten, the picked figure left out."""
        from calckit import Choice, Input, Output, Result

        calculator = Calculator(
            name="picked",
            title="Picked",
            description="A part whose figure a picker fills.",
            inputs=(
                Input(
                    "part",
                    "Part",
                    "small",
                    kind="choice",
                    choices=(Choice("small", "Small"), Choice("big", "Big"), Choice("custom", "Custom")),
                ),
                Input("mode", "Mode", "a", kind="choice", choices=(Choice("a", "A"), Choice("b", "B"))),
                Input("size", "Size", 10.0, min=0.001, max=1e6, filled_by="part"),
                Input("count", "Count", 20.0, min=0.001, max=1e6),
            ),
            outputs=(Output("y", "Y"),),
            compute=lambda values: Result({"y": 1.0}, summary="y"),
        )
        runs = list(sweep(calculator))
        for context in ({}, {"part": "custom"}):
            assert {**context, "count": 7.0} in runs and {**context, "count": 5.0} in runs
        assert {"part": "custom", "size": 7.0} in runs
        assert {"mode": "b", "count": 5.0} in runs and {"mode": "b", "count": 0.2} in runs
        assert {"mode": "b", "count": 7.0} not in runs
        assert {"part": "big", "count": 0.1} in runs and {"part": "big", "count": 1000.0} in runs
        assert {"part": "big", "count": 3.0} not in runs
        assert not any(run.get("part") == "big" and "size" in run for run in runs)

    def test_hypothesis_finds_inputs_that_meet(self, monkeypatch: pytest.MonkeyPatch) -> None:
        from hypothesis import find

        from calculators import registry

        name = "where-inputs-meet"
        calculator = _singular(name, lambda a, b: 1 / (a - b))
        monkeypatch.setitem(registry.CALCULATORS, name, calculator)
        failing = find(
            inputs_for(calculator, valid=True),
            lambda inputs: "failure" in run(name, inputs),
            settings=settings(max_examples=300, database=None),
        )
        assert float(failing["a"]) == float(failing["b"])


class TestThePackageStaysPortable:
    def test_only_the_standard_library_is_imported(self) -> None:
        """The browser runs these very files in Pyodide, where nothing but the standard library is installed: a
        module importing anything else would work at build and fail for every reader."""
        import ast
        import sys
        from pathlib import Path

        import calckit
        import calculators

        outside = []
        folders = (Path(calculators.__file__).parent, Path(calckit.__file__).parent)
        for path in sorted(path for folder in folders for path in folder.glob("**/*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                names = (
                    [alias.name for alias in node.names]
                    if isinstance(node, ast.Import)
                    else [node.module or ""]
                    if isinstance(node, ast.ImportFrom) and node.level == 0
                    else []
                )
                for name in names:
                    # The book's package may use calckit (its wheel ships too); calckit only Python's own, but for
                    # coverage.py, imported inside the function that only the build calls (an exercise's solution
                    # run under line and branch coverage: the browser grades in exercise.js).
                    allowed = {"__future__", "calckit"} if path.parent.name == "calculators" else {"__future__"}
                    if (path.name, name) == ("exercise_reach.py", "coverage") and node.col_offset > 0:
                        continue
                    if name.split(".")[0] not in sys.stdlib_module_names | allowed:
                        outside.append(f"{path.parent.name}/{path.name}:{node.lineno}: imports '{name}'")
        assert outside == []

    def test_two_calculators_with_one_name_are_refused(self) -> None:
        """The book's registry is calckit's: a second calculator named 'roofline' is refused at its declaration."""
        import dataclasses

        from calculators import registry

        roofline = CALCULATORS["roofline"]
        other = dataclasses.replace(roofline, title="Another roofline")
        message = r"test_calculators\.py:\d+: two calculators are named 'roofline' \(the first at .*/roofline\.py:\d+\)"
        with pytest.raises(ValueError, match=message):
            registry.registry(roofline, other)
