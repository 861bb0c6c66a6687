"""calckit.api: the JSON boundary that the build and the browser worker share."""

from __future__ import annotations

import json
from typing import Any

import pytest

from calckit.api import call_json, run


def test_every_bad_field_is_reported() -> None:
    result = run("roofline", {"chip": "custom", "intensity": "-3", "peak_tflops": "abc", "bandwidth_tbs": 0})
    assert result["ok"] is False
    assert [error["field"] for error in result["errors"]] == ["peak_tflops", "bandwidth_tbs", "intensity"]
    assert result["errors"][2]["hint"] == "Use 0.01 or more (you typed -3)."
    assert result["errors"][0]["hint"] == "Type a number, such as 989 (you typed abc)."


def test_inputs_come_back_parsed_and_filled_from_the_chip() -> None:
    """Text is parsed; the chip picker's figures replace the fields it fills, so the form can show them."""
    inputs = run("roofline", {"intensity": "1,000.5", "chip": "tpu-v5e", "peak_tflops": "1"})["inputs"]
    assert (inputs["intensity"], inputs["peak_tflops"], inputs["bandwidth_tbs"]) == (1000.5, 197.0, 0.819)


def test_unknown_inputs_are_ignored_here() -> None:
    """Unknown names are the build's concern (it reports them with their line); `run` uses the declared ones."""
    assert run("roofline", {"nonsense": 5}) == run("roofline", {})


def test_call_json_runs_a_listed_function() -> None:
    """The worker's single entry point dispatches by name to the package's functions."""
    text = call_json("run", json.dumps({"name": "roofline", "inputs": {"intensity": 5}}))
    assert json.loads(text) == json.loads(json.dumps(run("roofline", {"intensity": 5})))


def test_call_json_refuses_other_names() -> None:
    with pytest.raises(KeyError, match="unknown function 'eval'"):
        call_json("eval", "{}")


class TestAComputeThatFails:
    """A calculator that raises, or returns what its outputs do not allow, gives a failure naming the inputs, the
    cause and the line to look at; the caller (the build, the worker) keeps going."""

    def _calculator(self, name: str, compute: Any) -> Any:
        from calckit import Calculator, Input, Output

        return Calculator(
            name=name,
            title="Broken",
            description="A calculator with a defect.",
            inputs=(Input("a", "A", 1.0, min=0, max=10),),
            outputs=(Output("y", "Y"),),
            compute=compute,
        )

    def test_an_exception_names_inputs_cause_and_line(self, monkeypatch: pytest.MonkeyPatch) -> None:
        from calckit import Result
        from calculators import registry

        def compute(values: Any) -> Result:
            return Result({"y": 1 / (values["a"] - 2)}, "")

        monkeypatch.setitem(registry.CALCULATORS, "broken", self._calculator("broken", compute))
        result = run("broken", {"a": 2})
        assert result["ok"] is False and result["errors"] == []
        assert result["failure"]["error"] == "ZeroDivisionError: float division by zero"
        assert result["failure"]["where"] == ""  # the compute lives in this test, outside the package
        assert result["failure"]["message"] == (
            "calculator 'broken' failed for these inputs (a=2): ZeroDivisionError: float division by zero"
        )

    def test_a_missing_output_points_at_the_compute_function(self, monkeypatch: pytest.MonkeyPatch) -> None:
        from calckit import Result
        from calculators import registry
        from calculators.roofline import ROOFLINE

        def compute(values: Any) -> Result:
            return Result({"z": 1.0}, "")

        broken = self._calculator("broken", compute)
        # Pretend the compute is the package's own, as a contributor's would be: the place is then named.
        monkeypatch.setattr(
            compute, "__code__", compute.__code__.replace(co_filename=ROOFLINE.compute.__code__.co_filename)
        )
        monkeypatch.setitem(registry.CALCULATORS, "broken", broken)
        failure = run("broken", {})["failure"]
        assert failure["error"] == "output 'y' is missing"
        assert failure["message"].startswith("calculator 'broken' output 'y' is missing for these inputs (")
        assert failure["where"] == f"calculators/roofline.py:{compute.__code__.co_firstlineno}"
