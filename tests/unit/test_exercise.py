"""The exercise model (calckit.exercise), its case generator, and the runner of a reader's code
(calckit.exercise_run), under CPython: the same code runs in the browser's worker."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from calckit import api, book, exercise_checks
from calckit.answers import function_by_key, function_key
from calckit.api import FUNCTIONS, call_json
from calckit.exercise import Case, Exercise, ExerciseError, Tolerance, draw_cases
from calckit.exercise_run import MESSAGE_LIMIT, OUTPUT_LIMIT, check_code, run_code
from calckit.exercise_run import call_json as run_json
from calckit.quiz import Vary
from calculators import CALCULATORS


def read_exercise(data: object) -> Exercise:
    """The exercise read for this book, whose calculators check it."""
    return exercise_checks.read_exercise(data, CALCULATORS)


ATTAINABLE = (
    "def attainable(peak_tflops, bandwidth_tbs, intensity):\n    return min(peak_tflops, bandwidth_tbs * intensity)\n"
)


def roofline(**changes: Any) -> dict[str, Any]:
    """A good exercise's data, as an author writes it, with `changes` applied at the top level or under check."""
    data: dict[str, Any] = {
        "id": "roof",
        "title": "Roof",
        "prompt": "Return it.",
        "function": "attainable(peak_tflops, bandwidth_tbs, intensity)",
        "starter": "def attainable(peak_tflops, bandwidth_tbs, intensity):\n    ...\n",
        "solution": ATTAINABLE,
        "check": {"calculator": "roofline", "output": "attainable", "unit": "TFLOP/s", "cases": 10},
    }
    for key, value in changes.items():
        if key in data["check"] or key in ("inputs", "fixed", "vary", "tolerance"):
            data["check"][key] = value
        else:
            data[key] = value
    return data


def problems(data: dict[str, Any]) -> list[str]:
    with pytest.raises(ExerciseError) as raised:
        read_exercise(data)
    return [problem.message for problem in raised.value.problems]


class TestReading:
    def test_a_good_exercise_reads_into_the_model(self) -> None:
        """The function's name and parameters come from `function`; the cases from the calculator, scaled to TFLOP/s."""
        exercise = read_exercise(roofline(fixed=[{"peak_tflops": 197, "bandwidth_tbs": 0.819, "intensity": 240}]))
        assert exercise.function == "attainable"
        assert exercise.parameters == ("peak_tflops", "bandwidth_tbs", "intensity")
        assert exercise.signature == "attainable(peak_tflops, bandwidth_tbs, intensity)"
        assert len(exercise.cases) == 11
        # The roofline at 197 TFLOP/s, 0.819 TB/s and 240 FLOP/byte: 0.819 x 240 = 196.56 TFLOP/s, under the peak.
        first = Case({"peak_tflops": 197.0, "bandwidth_tbs": 0.819, "intensity": 240.0}, 196.56, fixed=True)
        assert exercise.cases[0] == first
        assert not any(case.fixed for case in exercise.cases[1:])

    def test_the_default_tolerance_is_one_in_a_million(self) -> None:
        exercise = read_exercise(roofline())
        assert exercise.tolerance == Tolerance(1e-6, relative=True)
        assert exercise.checking_data()["tolerance"] == {"amount": pytest.approx(1e-6), "relative": True}  # a fraction

    @pytest.mark.parametrize(
        ("raw", "tolerance"),
        [
            ("1e-6 relative", Tolerance(1e-6, True)),
            ("0.1%", Tolerance(0.001, True)),
            (0.5, Tolerance(0.5, False)),
            ("0.5 absolute", Tolerance(0.5, False)),
        ],
    )
    def test_tolerances(self, raw: object, tolerance: Tolerance) -> None:
        assert read_exercise(roofline(tolerance=raw)).tolerance.amount == pytest.approx(tolerance.amount)
        assert read_exercise(roofline(tolerance=raw)).tolerance.relative == tolerance.relative

    @pytest.mark.parametrize(
        ("tolerance", "text"),
        [
            (Tolerance(1e-6, True), "within one part in 1,000,000"),
            (Tolerance(0.001, True), "within 0.1%"),
            (Tolerance(0.5, False), "within 0.5"),
        ],
    )
    def test_tolerances_in_words(self, tolerance: Tolerance, text: str) -> None:
        assert tolerance.text == text

    def test_a_share_is_a_fraction_unless_a_unit_is_given(self) -> None:
        """MBU is a percentage output: by default the function returns 0.7 for 70%; `unit: '%'` asks for 70."""
        data = {
            "id": "mbu",
            "title": "MBU",
            "prompt": "p",
            "function": "mbu(params_b, bytes_per_param, tokens_per_s, bandwidth_tbs)",
            "starter": "def mbu(params_b, bytes_per_param, tokens_per_s, bandwidth_tbs):\n    ...\n",
            "solution": (
                "def mbu(params_b, bytes_per_param, tokens_per_s, bandwidth_tbs):\n"
                "    return params_b * 1e9 * bytes_per_param * tokens_per_s / (bandwidth_tbs * 1e12)\n"
            ),
            "check": {
                "calculator": "mbu",
                "output": "mbu",
                "cases": 5,
                # The Databricks worked example: 7 B parameters x 2 bytes x 100 token/s over 2.0 TB/s is 70%.
                "fixed": [{"params_b": 7, "bytes_per_param": 2, "tokens_per_s": 100, "bandwidth_tbs": 2.0}],
            },
        }
        exercise = read_exercise(data)
        assert exercise.cases[0].expected == pytest.approx(0.7)
        assert exercise.cases[0].inputs["bytes_per_param"] == 2.0  # a choice input given as the number it names
        data["check"]["unit"] = "%"
        data["solution"] = data["solution"].replace("return ", "return 100 * ")
        assert read_exercise(data).cases[0].expected == pytest.approx(70)

    def test_a_text_output_expects_none(self) -> None:
        """The matmul calculator has no critical batch for a matrix too thin ever to turn compute-bound (F = 64 on an
        H100: 2 D F < ridge x 2 x (D + F)): the function returns None."""
        data = {
            "id": "cb",
            "title": "t",
            "prompt": "p",
            "function": "batch_for(d_ff)",
            "starter": "def batch_for(d_ff):\n    ...\n",
            "solution": "def batch_for(d_ff):\n    return None\n",
            "check": {
                "calculator": "matmul",
                "output": "critical_batch",
                "cases": 0,
                "fixed": [{"d_ff": 64}],
            },
        }
        assert read_exercise(data).cases == (Case({"d_ff": 64}, None, fixed=True),)

    def test_every_problem_is_reported_at_once(self) -> None:
        """A wrong starter and a wrong calculator output are both reported, each once."""
        found = problems(roofline(starter="def attainable(a):\n    ...\n", output="speed"))
        assert len(found) == 2
        assert "the starter defines attainable(a)" in found[1]
        assert "has no output 'speed'" in found[0]

    def test_a_syntax_error_in_the_starter_carries_its_line(self) -> None:
        with pytest.raises(ExerciseError) as raised:
            read_exercise(roofline(starter="x = 1\ndef attainable(peak_tflops, bandwidth_tbs, intensity)\n    ...\n"))
        (problem,) = raised.value.problems
        assert problem.where == ("starter",)
        assert problem.code_line == 2  # type: ignore[attr-defined]

    def test_a_solution_that_fails_is_refused(self) -> None:
        """The solution runs on every case at build: forgetting the flat roof fails the first case above the ridge."""
        (message,) = problems(
            roofline(
                solution=ATTAINABLE.replace("min(peak_tflops, bandwidth_tbs * intensity)", "bandwidth_tbs * intensity"),
                fixed=[{"peak_tflops": 989.4, "bandwidth_tbs": 3.35, "intensity": 1000}],
            )
        )
        assert message == (
            "exercise 'roof': the solution fails its own case 1 (peak_tflops=989.4, bandwidth_tbs=3.35, "
            "intensity=1000.0): expected 989.4, got 3350.0 (3.39 times the expected value)"
        )

    def test_a_vary_that_is_not_a_parameter_is_refused(self) -> None:
        (message,) = problems(roofline(vary={"batch": [1, 2]}))
        assert message == (
            "exercise 'roof': check: vary 'batch' is not a parameter of the function "
            "(expected one of: peak_tflops, bandwidth_tbs, intensity)"
        )


class TestCases:
    def test_drawn_values_lie_within_the_inputs_ranges_and_near_their_defaults(self) -> None:
        """Each value is inside the declared range and within a factor 10 of the default, to 3 significant digits."""
        roof = book.calculator("roofline")
        specs = {spec.key: spec for spec in roof.inputs}
        for case in draw_cases(roof, "attainable", ["peak_tflops", "bandwidth_tbs", "intensity"], {}, 200, "seed"):
            for key, value in case.inputs.items():
                spec = specs[key]
                default = float(spec.default)  # type: ignore[arg-type]
                assert spec.parse(value) == value
                assert default / 10 <= value <= default * 10
                assert float(f"{value:.3g}") == value

    def test_the_expected_value_is_the_calculators_output(self) -> None:
        roof = book.calculator("roofline")
        for case in draw_cases(roof, "ridge", ["peak_tflops", "bandwidth_tbs"], {}, 20, "ridge"):
            ridge = api.run("roofline", case.inputs)["outputs"][1]
            assert ridge["key"] == "ridge"
            assert case.expected == ridge["value"]

    def test_the_same_seed_gives_the_same_cases(self) -> None:
        """The build is reproducible: a page's cases change only when its exercise does."""
        roof = book.calculator("roofline")
        first = draw_cases(roof, "attainable", ["intensity"], {}, 10, "a")
        assert first == draw_cases(roof, "attainable", ["intensity"], {}, 10, "a")
        assert first != draw_cases(roof, "attainable", ["intensity"], {}, 10, "b")

    def test_integers_stay_whole(self) -> None:
        inference = book.calculator("inference")
        for case in draw_cases(inference, "kv_per_token", ["layers", "kv_heads"], {}, 50, "kv"):
            assert all(isinstance(value, int) for value in case.inputs.values())
            assert case.expected == 2 * case.inputs["layers"] * case.inputs["kv_heads"] * 128 * 2

    def test_vary_gives_the_values_to_draw_from(self) -> None:
        matmul = book.calculator("matmul")
        vary = [Vary("d_ff", choices=(64, 28672))]
        cases = draw_cases(matmul, "critical_batch", ["d_ff"], {}, 20, "cb", vary=vary)
        assert {case.inputs["d_ff"] for case in cases} == {64, 28672}
        assert {case.expected is None for case in cases} == {True, False}  # no critical batch for F = 64

    def test_the_other_inputs_are_held(self) -> None:
        """`given` fixes the calculator's other inputs: here a TPU v5e's figures fill the roofs."""
        roof = book.calculator("roofline")
        for case in draw_cases(roof, "attainable", ["intensity"], {"chip": "tpu-v5e"}, 10, "v5e"):
            assert case.expected == min(197e12, 0.819e12 * case.inputs["intensity"])


class TestRun:
    def test_output_and_a_clean_run(self) -> None:
        assert run_code("print('hello', 1 + 1)\n") == {"ok": True, "stdout": "hello 2\n", "error": None}

    def test_an_error_has_its_type_message_and_line(self) -> None:
        result = run_code("x = 1\n\ndef f():\n    return 1 / 0\n\nf()\n")
        assert result["error"] == {"type": "ZeroDivisionError", "message": "division by zero", "line": 4}

    def test_a_syntax_error_has_its_line(self) -> None:
        result = run_code("x = 1\nif x\n    pass\n")
        assert result["error"] == {"type": "SyntaxError", "message": "expected ':'", "line": 2}

    def test_printed_output_is_cut(self) -> None:
        """A print in a long loop cannot fill memory: the output stops at the limit and says so."""
        stdout = run_code("for i in range(100_000):\n    print(i)\n")["stdout"]
        assert len(stdout) < OUTPUT_LIMIT + 100
        assert stdout.endswith(f"[output cut after {OUTPUT_LIMIT:,} characters]")

    def test_an_errors_message_and_type_are_cut(self) -> None:
        """An exception of the reader's own can carry any text: what reaches the page is cut to a readable size."""
        error = run_code("raise type('E' * 10_000, (Exception,), {})('x' * 10_000_000)\n")["error"]
        assert (len(error["type"]), len(error["message"]), error["line"]) == (100, MESSAGE_LIMIT, 1)
        assert error["message"].endswith("xx...") and error["type"].endswith("EE...")

    @pytest.mark.parametrize("module", ["js", "pyodide", "pyodide.ffi", "calckit", "micropip"])
    def test_modules_that_reach_outside_are_refused(self, module: str) -> None:
        error = run_code(f"import {module}\n")["error"]
        assert error["type"] == "ImportError"
        assert error["message"].startswith(f"exercises cannot import '{module}'")

    def test_the_standard_library_is_there(self) -> None:
        assert run_code("import math\nprint(math.ceil(2.1))\n")["stdout"] == "3\n"

    def test_each_run_has_its_own_namespace_and_builtins(self) -> None:
        """A name or a builtin changed by one run is gone in the next."""
        assert run_code("x = 1\nprint = None\n")["ok"]
        assert run_code("print(x)\n")["error"]["type"] == "NameError"

    def test_input_and_exit_are_reported(self) -> None:
        assert run_code("input()\n")["error"]["type"] == "EOFError"
        assert run_code("import sys\nsys.exit(3)\n")["error"]["type"] == "SystemExit"


class TestCheck:
    exercise = read_exercise(roofline(fixed=[{"peak_tflops": 989.4, "bandwidth_tbs": 3.35, "intensity": 1000}]))
    data = exercise.checking_data()

    def test_the_right_function_passes_every_case(self) -> None:
        result = check_code(ATTAINABLE, self.data)
        assert result == {**result, "ok": True, "passed": 11, "total": 11, "error": None, "failure": None}

    def test_the_first_failing_case_is_reported(self) -> None:
        result = check_code(ATTAINABLE.replace("min(peak_tflops, bandwidth_tbs * intensity)", "peak_tflops"), self.data)
        failure = result["failure"]
        first = next(i for i, case in enumerate(self.exercise.cases) if case.expected != case.inputs["peak_tflops"])
        assert failure["index"] == first and result["passed"] == first
        assert failure["inputs"] == dict(self.exercise.cases[first].inputs)
        assert failure["got"] == repr(self.exercise.cases[first].inputs["peak_tflops"])

    def test_an_error_in_the_function_is_a_failing_case(self) -> None:
        result = check_code("def attainable(peak_tflops, bandwidth_tbs, intensity):\n    return nothing\n", self.data)
        assert result["failure"]["index"] == 0
        assert result["failure"]["error"] == {
            "type": "NameError",
            "message": "name 'nothing' is not defined",
            "line": 2,
        }

    def test_the_books_package_is_kept_from_a_solution_when_it_is_named(self) -> None:
        """The build names the book's package, which the reader's page does not have: a solution that leans on it is
        refused there as it would fail in the page; named or not, a plain solution passes."""
        leaning = "from calculators import roofline\n" + ATTAINABLE
        error = check_code(leaning, self.data, "calculators")["error"]
        assert (error["type"], error["line"]) == ("ImportError", 1)
        assert error["message"].startswith("exercises cannot import 'calculators'")
        assert check_code(leaning, self.data)["ok"]
        assert check_code(ATTAINABLE, self.data, "calculators")["ok"]

    def test_code_without_the_function(self) -> None:
        result = check_code("def roof():\n    pass\n", self.data)
        assert result["error"]["message"] == "the code does not define a function 'attainable'"

    @pytest.mark.parametrize(
        ("returned", "reason"),
        [
            ("None", "expected a number, got None"),
            ("True", "expected a number, got bool"),
            ("'1'", "expected a number, got str"),
            ("float('nan')", "expected a finite number"),
            ("10**400", "expected a finite number"),
        ],
    )
    def test_what_is_not_a_number(self, returned: str, reason: str) -> None:
        code = f"def attainable(peak_tflops, bandwidth_tbs, intensity):\n    return {returned}\n"
        assert check_code(code, self.data)["failure"]["reason"] == reason

    def test_none_where_there_is_no_number(self) -> None:
        data = {
            "function": "f",
            "parameters": ["x"],
            "cases": [{"inputs": {"x": 1}, "expected": None}],
            "tolerance": {"amount": 0.0001, "relative": True},
        }
        assert check_code("def f(x):\n    return None\n", data)["ok"]
        assert (
            check_code("def f(x):\n    return 0\n", data)["failure"]["reason"]
            == "expected None: there is no such number for these inputs"
        )

    @pytest.mark.parametrize(
        ("factor", "reason"),
        [
            ("1.5", "50% away from the expected value"),
            ("1e3", "1,000 times the expected value"),
            ("0.001", "0.001 times the expected value"),
            ("-1", "200% away from the expected value"),
        ],
    )
    def test_how_far_off(self, factor: str, reason: str) -> None:
        """Near misses are a percentage; a factor of 2 or more (a unit forgotten, say) is said as a factor."""
        code = ATTAINABLE.replace("return min(", f"return {factor} * min(")
        assert check_code(code, self.data)["failure"]["reason"] == reason

    def test_within_the_tolerance(self) -> None:
        """1e-6 relative: a reply off by a part in ten million passes, off by a part in a hundred thousand fails."""
        close = ATTAINABLE.replace("return min(", "return (1 + 1e-7) * min(")
        assert check_code(close, self.data)["ok"]
        far = ATTAINABLE.replace("return min(", "return (1 + 1e-5) * min(")
        assert not check_code(far, self.data)["ok"]

    def test_the_exercise_worker_reaches_the_runner_through_call_json(self) -> None:
        """The exercise worker calls it by name with JSON arguments (the inputs alone), and gets JSON back."""
        inputs = [dict(case.inputs) for case in self.exercise.cases]
        arguments = {"code": ATTAINABLE, "function": "attainable", "parameters": list(self.exercise.parameters)}
        reply = json.loads(run_json("cases", json.dumps({**arguments, "floats": self.data["floats"], "cases": inputs})))
        assert [result["value"] for result in reply["results"]] == [
            pytest.approx(case.expected) for case in self.exercise.cases
        ]
        assert json.loads(run_json("run", json.dumps({"code": "print(2)"})))["stdout"] == "2\n"

    def test_the_calculators_worker_draws_a_checks_cases_and_runs_no_reader_code(self) -> None:
        """`exercise_cases` gives the fixed cases, then fresh ones for each seed, each with the calculator's value;
        the calculators' worker has no function that runs a reader's code."""
        draw = self.exercise.drawing_data()
        assert "expected" not in json.dumps(draw)
        first = json.loads(call_json("exercise_cases", json.dumps({**draw, "seed": "a"})))["cases"]
        second = json.loads(call_json("exercise_cases", json.dumps({**draw, "seed": "b"})))["cases"]
        assert (
            first[0]
            == second[0]
            == {"inputs": {"peak_tflops": 989.4, "bandwidth_tbs": 3.35, "intensity": 1000.0}, "expected": 989.4}
        )
        assert len(first) == len(second) == 11 and first[1:] != second[1:]
        for case in first:
            values = case["inputs"]
            assert case["expected"] == pytest.approx(
                min(values["peak_tflops"], values["bandwidth_tbs"] * values["intensity"])
            )
        assert not {"exercise_run", "exercise_check"} & set(FUNCTIONS)


CRITICAL = (
    "def critical_batch(ridge, d, f, weight_bytes, activation_bytes):\n"
    "    denominator = 2 * d * f - ridge * activation_bytes * (d + f)\n"
    "    return ridge * weight_bytes * d * f / denominator if denominator > 0 else None\n"
)


def critical(**check: Any) -> dict[str, Any]:
    """A good exercise checked against a function of the book's package, with `check` changed (None removes)."""
    data: dict[str, Any] = {
        "id": "critical",
        "title": "Critical batch",
        "prompt": "Return it.",
        "function": "critical_batch(ridge, d, f, weight_bytes, activation_bytes)",
        "starter": "def critical_batch(ridge, d, f, weight_bytes, activation_bytes):\n    ...\n",
        "solution": CRITICAL,
        "check": {
            "function": "calculators.matmul.critical_batch",
            "cases": 6,
            "vary": {
                "ridge": {"min": 50, "max": 700, "step": 0.1},
                "d": [4096, 8192],
                "f": [14336, 28672],
                "weight_bytes": [1, 2],
                "activation_bytes": [1, 2],
            },
            "fixed": [{"ridge": 295.3, "d": 8192, "f": 28672, "weight_bytes": 2, "activation_bytes": 2}],
            "tolerance": "1e-9 relative",
        },
    }
    for key, value in check.items():
        if value is None:
            data["check"].pop(key)
        else:
            data["check"][key] = value
    return data


def function_problems(data: dict[str, Any]) -> list[tuple[tuple[str | int, ...], str]]:
    with pytest.raises(ExerciseError) as raised:
        exercise_checks.read_exercise(data, CALCULATORS, "calculators")
    return [(problem.where, problem.message) for problem in raised.value.problems]


class TestFunctionCheck:
    """An exercise checked against `package.module.function` of the book's package, on listed and drawn cases."""

    def test_the_expected_values_are_the_functions(self) -> None:
        """The fixed case first, then drawn ones from `vary`; each expected value is what the book's function
        returns, and parameters given as whole numbers stay whole."""
        from calculators.matmul import critical_batch

        exercise = exercise_checks.read_exercise(critical(), CALCULATORS, "calculators")
        assert exercise.reference == "calculators.matmul.critical_batch" and exercise.calculator == ""
        assert len(exercise.cases) == 7 and exercise.cases[0].fixed and not exercise.cases[1].fixed
        assert exercise.cases[0].expected == pytest.approx(309.6512874339642)  # the roofline lesson's 309.7
        for case in exercise.cases:
            assert case.expected == critical_batch(**case.inputs)
            assert all(isinstance(case.inputs[key], int) for key in ("d", "f", "weight_bytes", "activation_bytes"))
            assert 50 <= case.inputs["ridge"] <= 700
        assert exercise.whole == ("d", "f", "weight_bytes", "activation_bytes")

    def test_the_calculators_worker_draws_each_checks_cases_from_the_function(self) -> None:
        """`exercise_cases` calls the book's function on the trusted side: the page's data carries no expected value,
        the fixed case comes first, each seed draws afresh, and only the real parameters are floats."""
        from calculators.matmul import critical_batch

        draw = exercise_checks.read_exercise(critical(), CALCULATORS, "calculators").drawing_data()
        assert "expected" not in json.dumps(draw) and "critical_batch" not in json.dumps(draw)
        assert draw["function_key"] == function_key("calculators.matmul.critical_batch")
        first = json.loads(call_json("exercise_cases", json.dumps({**draw, "seed": "a"})))
        second = json.loads(call_json("exercise_cases", json.dumps({**draw, "seed": "b"})))
        assert first["cases"][0] == second["cases"][0]
        assert first["cases"][0]["inputs"] == {
            "ridge": 295.3,
            "d": 8192,
            "f": 28672,
            "weight_bytes": 2,
            "activation_bytes": 2,
        }
        assert len(first["cases"]) == 7 and first["cases"][1:] != second["cases"][1:]
        assert first["floats"] == ["ridge"]
        for case in first["cases"]:
            assert case["expected"] == critical_batch(**case["inputs"])

    def test_the_worker_calls_no_function_outside_the_book(self) -> None:
        """Data changed in the page cannot make the calculators' worker call what is not the book's: a key is looked
        up among the package's own public functions, and the key of anything else finds none."""
        draw = exercise_checks.read_exercise(critical(), CALCULATORS, "calculators").drawing_data()
        for path in ("os.getcwd", "calculators.matmul._private", "calculators.registry.registry"):
            with pytest.raises(ValueError, match="no function of the book's package 'calculators' has the key"):
                api.exercise_cases("a", **{**draw, "function_key": function_key(path)})

    def test_the_page_carries_a_key_that_only_the_book_resolves(self) -> None:
        """The key is a digest: it names no module or function, differs for each function, and the package's own
        functions are where the worker finds it again."""
        key = function_key("calculators.matmul.critical_batch")
        assert re.fullmatch(r"sha256-[0-9a-f]{24}", key)
        assert key != function_key("calculators.matmul.critical_batch_size")
        assert function_by_key(key, "calculators") == "calculators.matmul.critical_batch"

    def test_a_right_and_a_wrong_solution(self) -> None:
        """The reader's code is graded against the function's values as it is against a calculator's."""
        exercise = exercise_checks.read_exercise(critical(), CALCULATORS, "calculators")
        assert check_code(CRITICAL, exercise.checking_data())["ok"]
        wrong = CRITICAL.replace("ridge * weight_bytes * d * f", "ridge * d * f")  # the weights' bytes forgotten
        result = check_code(wrong, exercise.checking_data())
        assert not result["ok"] and result["failure"]["index"] == 0
        assert result["failure"]["reason"] == "0.5 times the expected value"

    @pytest.mark.parametrize(
        ("function", "message"),
        [
            (
                "math.sqrt",
                "check: function 'math.sqrt' is outside the book's package 'calculators' (name one of its functions, "
                "such as 'calculators.module.function')",
            ),
            (
                "calculators.matmull.critical_batch",
                "check: the book's package has no module 'calculators.matmull' (expected one of: calculators, "
                "calculators.chip_lines, calculators.chip_model,",
            ),
            (
                "calculators.matmul.critical",
                "check: module 'calculators.matmul' has no function 'critical' (expected one of: critical_batch)",
            ),
            (
                "calculators.matmul.MATMUL",
                "check: 'calculators.matmul.MATMUL' is a Calculator, not a function (expected one of: critical_batch)",
            ),
            (
                "critical_batch",
                "check: 'function' must be a function of the book's package, written as 'calculators.module.function' "
                "(got 'critical_batch')",
            ),
        ],
    )
    def test_a_function_that_is_not_the_books(self, function: str, message: str) -> None:
        [(where, said)] = function_problems(critical(function=function))
        assert where == ("check", "function")
        assert said.startswith(f"exercise 'critical': {message}")

    def test_wrong_arguments(self) -> None:
        """A parameter the function does not take, an argument held that it does not take, and one it needs that
        nothing gives, each where the author wrote it."""
        data = critical(inputs={"verify": 1})
        data["function"] = "critical_batch(ridge, d, f, weight_bytes, activations)"
        data["starter"] = data["solution"] = CRITICAL.replace("activation_bytes", "activations")
        data["check"]["vary"]["activations"] = data["check"]["vary"].pop("activation_bytes")
        data["check"]["fixed"][0]["activations"] = data["check"]["fixed"][0].pop("activation_bytes")
        their = "ridge, d, f, weight_bytes, activation_bytes"
        assert function_problems(data) == [
            (
                ("function",),
                f"exercise 'critical': parameter 'activations' is not a parameter of calculators.matmul.critical_batch "
                f"(expected one of: {their})",
            ),
            (
                ("check", "inputs", "verify"),
                f"exercise 'critical': check: calculators.matmul.critical_batch has no parameter 'verify' "
                f"(expected one of: {their})",
            ),
            (
                ("check", "function"),
                "exercise 'critical': check: calculators.matmul.critical_batch needs 'activation_bytes' (make it a "
                "parameter of 'function', or hold it in 'check: inputs')",
            ),
        ]

    def test_a_parameter_with_nothing_to_draw_from(self) -> None:
        vary = critical()["check"]["vary"]
        del vary["d"]
        [(where, said)] = function_problems(critical(vary=vary))
        assert where == ("check", "vary")
        assert said.startswith("exercise 'critical': check: parameter 'd' has no values to draw from")

    def test_a_function_that_raises_is_quoted_with_its_case_and_line(self) -> None:
        data = {
            **critical(),
            "function": "speedup(acceptance, draft, cost, verify)",
            "starter": "def speedup(acceptance, draft, cost, verify):\n    ...\n",
            "solution": "def speedup(acceptance, draft, cost, verify):\n    return 1.0\n",
            "check": {
                "function": "calculators.speculative.speedup",
                "cases": 0,
                "fixed": [{"acceptance": 0.8, "draft": 4, "cost": 0, "verify": 0}],
            },
        }
        assert function_problems(data) == [
            (
                ("check", "fixed", 0),
                "exercise 'critical': check: case 1 (acceptance=0.8, draft=4, cost=0, verify=0): "
                "calculators.speculative.speedup raised ZeroDivisionError: float division by zero "
                "(calculators/speculative.py:34)",
            )
        ]

    def test_a_function_that_returns_no_number(self) -> None:
        data = {
            **critical(),
            "function": "limit(intensity, ridge)",
            "starter": "def limit(intensity, ridge):\n    ...\n",
            "solution": "def limit(intensity, ridge):\n    return 1.0\n",
            "check": {
                "function": "calculators.roofline.limit",
                "cases": 0,
                "fixed": [{"intensity": 1, "ridge": 295.3}],
            },
        }
        assert function_problems(data) == [
            (
                ("check", "fixed", 0),
                "exercise 'critical': check: case 1 (intensity=1, ridge=295.3): calculators.roofline.limit returned "
                "'Memory-bound' (a str), not a number",
            )
        ]

    def test_a_calculator_and_a_function_at_once(self) -> None:
        [(where, said)] = function_problems(critical(calculator="matmul"))
        assert where == ("check", "calculator")
        assert said == (
            "exercise 'critical': check: give either 'calculator' and 'output', or 'function', not both "
            "(remove 'calculator')"
        )

    def test_the_contributing_guides_example_reads_and_its_solution_passes(self) -> None:
        """The guide's example of a function-checked exercise is one the build accepts, as written."""
        import re

        import yaml

        from tests.support import ROOT

        guide = (ROOT / "docs/contributing.md").read_text(encoding="utf-8")
        section = guide[guide.index("### Check against a function of the book's package") :]
        body = re.search(r"^```exercise\n(.*?)^```$", section, re.MULTILINE | re.DOTALL)
        assert body is not None
        exercise = exercise_checks.read_exercise(yaml.safe_load(body[1]), CALCULATORS, "calculators")
        assert exercise.reference == "calculators.matmul.critical_batch" and len(exercise.cases) == 21
