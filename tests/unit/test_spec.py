"""calckit.spec: declared inputs parse what authors write and readers type, or name the field and the rule."""

from __future__ import annotations

import re

import pytest

from calckit import Calculator, Input, InputError, Output, Result
from calckit.errors import shown
from calckit.numbers import read_number
from calckit.running import OutputError
from calckit.spec import Choice

INTENSITY = Input("intensity", "Arithmetic intensity", default=100.0, unit="FLOP/byte", min=0.01, max=1e6)
PEAK = Input("peak", "Peak", default=989.0, min=0, min_exclusive=True)
LAYERS = Input("layers", "Layers", default=32, kind="integer", min=1, max=1000)
PRECISION = Input(
    "precision", "Precision", default="bf16", kind="choice", choices=(Choice("fp32", "FP32"), Choice("bf16", "BF16"))
)


CHIPS = Input(
    "chips", "Chips", default=("a", "b"), kind="choices", choices=(Choice("a", "A"), Choice("b", "B")), min_count=2
)


class TestParse:
    @pytest.mark.parametrize(
        ("spec", "raw", "value"),
        [
            (INTENSITY, 5, 5.0),
            (INTENSITY, 5.5, 5.5),
            (INTENSITY, "5.5", 5.5),
            (INTENSITY, " 1,000.0 ", 1000.0),  # a comma that can only group thousands
            (INTENSITY, "1e3", 1000.0),
            (INTENSITY, 0.01, 0.01),  # min is inclusive
            (PEAK, 1e-9, 1e-9),
            (LAYERS, "32", 32),
            (LAYERS, 32.0, 32),
            (PRECISION, "fp32", "fp32"),
            (PRECISION, " bf16 ", "bf16"),
        ],
    )
    def test_accepts(self, spec: Input, raw: object, value: object) -> None:
        """Numbers, numeric text (with grouping commas) and listed choices parse to the calculator's types."""
        parsed = spec.parse(raw)
        assert parsed == value and type(parsed) is type(value)

    @pytest.mark.parametrize(
        ("spec", "raw", "message"),
        [
            (INTENSITY, -3, "'intensity' must be >= 0.01 (got -3)"),
            (INTENSITY, "-3", "'intensity' must be >= 0.01 (got -3)"),
            (INTENSITY, 2e6, "'intensity' must be <= 1 million (got 2000000)"),
            (INTENSITY, 999999999.0, "'intensity' must be <= 1 million (got 999999999)"),
            (INTENSITY, "abc", "'intensity' must be a number (got 'abc')"),
            (INTENSITY, "", "'intensity' must be a number (got '')"),
            (INTENSITY, True, "'intensity' must be a number (got True)"),
            (INTENSITY, None, "'intensity' must be a number (got None)"),
            (INTENSITY, [1, 2], "'intensity' must be a number (got [1, 2])"),
            (INTENSITY, "nan", "'intensity' must be a number (got 'nan')"),
            (INTENSITY, float("inf"), "'intensity' must be a finite number (got inf)"),
            (INTENSITY, 10**400, "'intensity' must be a finite number (got " + str(10**400) + ")"),
            (PEAK, 0, "'peak' must be > 0 (got 0)"),
            (LAYERS, 2.5, "'layers' must be a whole number (got 2.5)"),
            (LAYERS, 0, "'layers' must be >= 1 (got 0)"),
            (PRECISION, "fp4", "'precision' must be one of: fp32, bf16 (got 'fp4')"),
            (PRECISION, 16, "'precision' must be one of: fp32, bf16 (got 16)"),
        ],
    )
    def test_rejects_with_field_rule_and_value(self, spec: Input, raw: object, message: str) -> None:
        """Each rejection is an InputError that names the field, the rule and the value."""
        with pytest.raises(InputError) as caught:
            spec.parse(raw)
        assert str(caught.value) == message
        assert caught.value.field == spec.key

    def test_error_carries_its_parts(self) -> None:
        """Callers act on the parts: the browser shows `hint` next to the field named by `field`."""
        with pytest.raises(InputError) as caught:
            PEAK.parse(-1)
        error = caught.value
        assert (error.field, error.rule, error.value) == ("peak", "> 0", -1.0)
        assert error.hint == "Use a number more than 0 (you typed -1)."
        assert error.as_dict() == {"field": "peak", "rule": "> 0", "message": str(error), "hint": error.hint}

    @pytest.mark.parametrize(
        ("spec", "raw", "hint"),
        [
            # The reader's own value as typed, what is wrong in the form's words, and what to do.
            (INTENSITY, "999999999", "Use 1 million or less (you typed 999999999)."),
            (INTENSITY, "-3", "Use 0.01 or more (you typed -3)."),
            (INTENSITY, "abc", "Type a number, such as 100 (you typed abc)."),
            (INTENSITY, " ", "Type a number, such as 100."),
            (INTENSITY, "1e999", "This number is too large to work with: type a smaller one (you typed 1e999)."),
            (
                INTENSITY,
                "1e-400",
                "This number is too small to tell from 0: type 0, or a larger number (you typed 1e-400).",
            ),
            (
                INTENSITY,
                "1,2,3",
                "Write the decimals after a point, such as 1.5; a comma only groups thousands, as in 1,400,000 "
                "(you typed 1,2,3).",
            ),
            (  # issue 41: a comma before three digits may be either; both readings are offered
                INTENSITY,
                "1,500",
                "1,500 could be 1500 or 1.500: write 1500, or 1.500 with a point (you typed 1,500).",
            ),
            (LAYERS, "2.5", "Use a whole number (you typed 2.5)."),
            (  # a link with 5,000 digits: the message repeats enough of it to recognise
                INTENSITY,
                "9" * 5000,
                f"This number is too large to work with: type a smaller one (you typed {'9' * 39}\u2026).",
            ),
            (PRECISION, "", "Choose a precision from the list."),
            (PRECISION, "nonexistent", "Choose a precision from the list."),
            (CHIPS, "", "Tick at least 2 chips to compare (you ticked none)."),
            (CHIPS, "a", "Tick at least 2 chips to compare (you ticked only 1)."),
            (CHIPS, "a,zzz", "Tick chips in the list."),
        ],
    )
    def test_hints_are_in_the_readers_words(self, spec: Input, raw: object, hint: str) -> None:
        with pytest.raises(InputError) as caught:
            spec.parse(raw)
        assert caught.value.hint == hint
        assert "×" not in hint and "(got" not in hint

    def test_long_junk_is_shortened_in_messages(self) -> None:
        with pytest.raises(InputError) as caught:
            INTENSITY.parse("x" * 200)
        assert len(str(caught.value)) < 100


class TestDeclaration:
    def test_range_text(self) -> None:
        """The allowed range in words, as the form's hint and the reference page show it."""
        assert INTENSITY.range_text == "A number from 0.01 to 1 million"
        assert PEAK.range_text == "A number more than 0"
        assert LAYERS.range_text == "A whole number from 1 to 1000"
        tiny = Input("tokens_t", "Tokens", default=1.0, min=1e-6, max=1e4)
        assert tiny.range_text == "A number from 0.000001 to 10000"  # no powers of ten in a hint
        assert PRECISION.range_text == "one of: fp32, bf16"

    @pytest.mark.parametrize(
        ("bound", "text"),
        [
            (65536, "65536"),  # not 65,500: three significant digits moved the bound
            (10000, "10000"),  # not 10,000, which the field refuses as ambiguous (10.000 in much of the world)
            (123456.7, "123456.7"),
            (1e-6, "0.000001"),
            (1e6, "1 million"),
            (2.5e9, "2.5 billion"),
            (1048576, "1,048,576"),  # two groups: read one way only
        ],
    )
    def test_a_bound_is_exact_and_never_refused_by_the_field(self, bound: float, text: str) -> None:
        """The range's ends in the hint and in each message are the declared ones, in a form the field takes back."""
        spec = Input("n", "N", default=0.0, min=0, max=bound)
        assert spec.range_text == f"A number from 0 to {text}"
        with pytest.raises(InputError) as caught:
            spec.parse(bound * 2)
        assert caught.value.hint == f"Use {text} or less (you typed {shown(bound * 2)})."
        if not text.endswith(("million", "billion")):
            assert read_number(text) == bound

    @pytest.mark.parametrize(
        ("kwargs", "message"),
        [
            ({"default": -1.0, "min": 0}, "'x' must be >= 0"),
            ({"default": 1.0, "slider": "linear"}, "a slider needs min and max"),
            ({"default": 1.0, "slider": "log", "min": 0, "max": 10}, "a log slider needs min > 0"),
            ({"default": "a", "kind": "choice"}, "a choice needs choices"),
        ],
    )
    def test_inconsistent_declarations_fail_at_import(self, kwargs: dict[str, object], message: str) -> None:
        """A spec that breaks its own rules is a programming error, caught when the module loads."""
        with pytest.raises(ValueError, match=message):
            Input("x", "X", **kwargs)  # type: ignore[arg-type]

    def test_duplicate_keys_are_refused(self) -> None:
        with pytest.raises(ValueError, match="duplicate input keys"):
            Calculator("c", "C", "", (PEAK, PEAK), (), lambda values: Result({}, ""))


def _half(values: object) -> Result:
    return Result({"half": float(values["peak"]) / 2}, "half")  # type: ignore[index]


HALF = Calculator(
    "half", "Half", "Half of the peak.", (PEAK,), (Output("half", "Half", unit="FLOP/s", format="si"),), _half
)


class TestCalculator:
    def test_check_reports_every_bad_field_and_fills_defaults(self) -> None:
        calculator = Calculator("c", "C", "", (PEAK, INTENSITY, LAYERS), (), lambda values: Result({}, ""))
        values, errors = calculator.check({"peak": -1, "layers": "x"})
        assert [error.field for error in errors] == ["peak", "layers"]
        assert values == {"intensity": 100.0}

    def test_run_raises_the_first_error(self) -> None:
        with pytest.raises(InputError, match="'peak' must be > 0"):
            HALF.run({"peak": 0})

    def test_run_refuses_a_non_finite_output(self) -> None:
        """A compute function that yields inf is a bug, and it never reaches a page."""
        broken = Calculator("b", "B", "", (PEAK,), (), lambda values: Result({"x": float("inf")}, ""))
        with pytest.raises(ValueError, match="output 'x' is inf, not a finite number"):
            broken.run({})

    def test_run_refuses_a_missing_output(self) -> None:
        broken = Calculator("b", "B", "", (PEAK,), (Output("y", "Y"),), lambda values: Result({}, ""))
        with pytest.raises(ValueError, match="output 'y' is missing"):
            broken.run({})

    @pytest.mark.parametrize(
        ("value", "problem"),
        [
            (None, "is None"),
            (True, "is True, not a number"),
            ("twelve", "is the text 'twelve', not a number (a text stands for a number only with a note saying why)"),
            ([1.0], "is a list, not a number"),
            ({"a": 1}, "is a dict, not a number"),
            (float("nan"), "is nan, not a finite number"),
        ],
    )
    def test_run_refuses_an_output_of_another_kind_than_declared(self, value: object, problem: str) -> None:
        """A number is declared: a finite real number, not a bool, None, text or a list (issue 22, item 3)."""
        broken = Calculator("b", "B", "", (PEAK,), (Output("y", "Y"),), lambda values: Result({"y": value}, ""))
        with pytest.raises(OutputError, match=f"^output 'y' {re.escape(problem)}$"):
            broken.run({})

    def test_a_text_with_a_note_stands_for_a_number_that_has_no_figure(self) -> None:
        note = {"y": "No figure: the model fits in one chip."}
        calculator = Calculator(
            "b", "B", "", (PEAK,), (Output("y", "Y"),), lambda values: Result({"y": "—"}, "", notes=note)
        )
        assert calculator.run({}).values["y"] == "—"

    def test_a_text_output_takes_text(self) -> None:
        out = (Output("y", "Y", format="text"),)
        assert Calculator("b", "B", "", (PEAK,), out, lambda values: Result({"y": "memory"}, "")).run({})
        with pytest.raises(OutputError, match=r"^output 'y' is a float, not text$"):
            Calculator("b", "B", "", (PEAK,), out, lambda values: Result({"y": 1.5}, "")).run({})

    def test_run_refuses_a_dict_for_a_result(self) -> None:
        broken = Calculator("b", "B", "", (PEAK,), (Output("y", "Y"),), lambda values: {"y": 1.0})  # type: ignore[arg-type,return-value]
        with pytest.raises(OutputError, match=r"^returned a dict, not a calckit.spec.Result \(return Result"):
            broken.run({})

    def test_output_text(self) -> None:
        assert HALF.outputs[0].text(HALF.run({"peak": 2e12}).values["half"]) == "1 TFLOP/s"
