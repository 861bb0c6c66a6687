"""Every calculator in the registry, over its declared input space and beyond it (R1)."""

from __future__ import annotations

import json
import math
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from calculators import CALCULATORS, Calculator, run
from tests.strategies import inputs_for

NAMES = sorted(CALCULATORS)
# Rules that span fields (a precision the chosen chip lacks, a chip without a published figure) are checked after
# each field is: they may reject inputs that are each within their declared range.
CROSS_FIELD = {"chip", "precision"}
NOT_A_NUMBER = re.compile(r"\b(nan|inf|infinity)\b", re.IGNORECASE)


def _check_result(calculator: Calculator, result: dict[str, Any]) -> None:
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


@pytest.mark.parametrize("name", NAMES)
class TestFuzzed:
    @settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(data=st.data())
    def test_valid_inputs_give_finite_results(self, name: str, data: st.DataObject) -> None:
        """Inputs inside every declared range give finite outputs, or a cross-field rule's named error."""
        calculator = CALCULATORS[name]
        result = run(name, data.draw(inputs_for(calculator, valid=True)))
        _check_result(calculator, result)
        if not result["ok"]:
            assert {error["field"] for error in result["errors"]} <= CROSS_FIELD

    @settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(data=st.data())
    def test_anything_gives_a_result_or_field_named_errors(self, name: str, data: st.DataObject) -> None:
        """Zero, negative, huge, NaN, infinite, wrong types, junk text: never an exception, never a NaN."""
        calculator = CALCULATORS[name]
        _check_result(calculator, run(name, data.draw(inputs_for(calculator, valid=False))))

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
    """The outputs whose figure each calculator's summary quotes, for these inputs."""
    inputs = result["inputs"]
    if name == "mbu":
        return ("achieved_flops", "mfu") if inputs["mode"] == "training" else ("achieved_bandwidth", "mbu", "mfu")
    if name == "compare":
        fits = not result["outputs"][3]["text"].startswith("None")
        return ("most_compute", "most_bandwidth", "most_memory") + (("fastest_decode",) if fits else ())
    return {
        "roofline": ("workload_intensity", "attainable", "fraction", "ridge"),
        "inference": ("kv_cache", "total_memory", "memory_share", "prefill_time", "decode_time"),
        "energy": ("average_power", "energy", "cost"),
        "training": ("flops", "days", "chip_hours"),
    }[name]


@pytest.mark.parametrize("name", NAMES)
class TestOneFigureOneText:
    """One quantity is written one way everywhere on a page: a summary quotes its outputs' own text."""

    @settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(data=st.data())
    def test_every_figure_in_the_summary_is_its_outputs_text(self, name: str, data: st.DataObject) -> None:
        calculator = CALCULATORS[name]
        result = run(name, data.draw(inputs_for(calculator, valid=True)))
        if not result["ok"]:
            return
        texts = {output["key"]: output["text"] for output in result["outputs"]}
        summary = result["summary"]
        for key in _named_in_summary(name, result):
            assert texts[key] in summary, (key, texts[key], summary)

    def test_the_defaults_too(self, name: str) -> None:
        result = run(name, {})
        texts = {output["key"]: output["text"] for output in result["outputs"]}
        assert all(texts[key] in result["summary"] for key in _named_in_summary(name, result))
