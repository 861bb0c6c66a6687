"""calckit.quiz: the quiz model, its checks (exact messages), grading data and "new numbers" variants."""

from __future__ import annotations

import copy
import json
import re
import unicodedata
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from calckit import quiz_checks
from calckit.api import FUNCTIONS, call_json, quiz_variant, run
from calckit.quiz import (
    ChoiceQuestion,
    NumericQuestion,
    Question,
    Quiz,
    QuizError,
    SortQuestion,
    Tolerance,
    grading_data,
    shown_order,
)
from calculators import CALCULATORS
from mkdocs_calculators.pages.ids import check_id


def read_quiz(data: object) -> Quiz:
    """The quiz read for this book, whose calculators numeric answers name."""
    return quiz_checks.read_quiz(data, CALCULATORS)


def read_question(data: object) -> Question:
    return quiz_checks.read_question(data, CALCULATORS)


ROOFLINE = CALCULATORS["roofline"]
INPUTS = ", ".join(ROOFLINE.input_keys)
KNOWN = ", ".join(sorted(CALCULATORS))
NUMERIC_OUTPUTS = ", ".join(output.key for output in ROOFLINE.outputs if output.format != "text")


def quiz() -> dict[str, Any]:
    """A valid quiz with one question of each kind, as an author writes it (YAML loaded into plain data)."""
    return {
        "id": "roofline",
        "title": "The roofline",
        "questions": [
            {
                "id": "ridge",
                "kind": "single",
                "text": "What is the ridge?",
                "choices": [
                    {"text": "Where the roofs meet", "correct": True},
                    {"text": "The peak", "explanation": "That is the flat roof."},
                ],
                "explanation": "Peak over bandwidth.",
            },
            {
                "id": "faster",
                "kind": "multiple",
                "text": "What speeds up a memory-bound kernel?",
                "choices": [
                    {"text": "More bandwidth", "correct": True},
                    {"text": "More reuse", "correct": True},
                    {"text": "More peak"},
                ],
            },
            {
                "id": "kernels",
                "kind": "sort",
                "text": "Sort these kernels.",
                "buckets": [{"id": "compute", "text": "Compute-bound"}, {"id": "memory", "text": "Memory-bound"}],
                "items": [
                    {"text": "Big matmul", "bucket": "compute"},
                    {"text": "Vector add", "bucket": "memory", "explanation": "One FLOP per 12 bytes."},
                ],
            },
            {
                "id": "attainable",
                "kind": "numeric",
                "text": "{peak_tflops} TFLOP/s, {bandwidth_tbs} TB/s, {intensity} FLOP/byte: how many TFLOP/s?",
                "inputs": {"peak_tflops": 197, "bandwidth_tbs": 0.819, "intensity": 60},
                "answer": {"calculator": "roofline", "output": "attainable"},
                "unit": "TFLOP/s",
                "tolerance": "2%",
                "vary": {"intensity": {"min": 10, "max": 400, "step": 10}},
            },
        ],
    }


def problems(data: object) -> list[tuple[tuple[str | int, ...], str]]:
    with pytest.raises(QuizError) as caught:
        read_quiz(data)
    return [(problem.where, problem.message) for problem in caught.value.problems]


def changed(path: tuple[str | int, ...], value: object) -> dict[str, Any]:
    """The valid quiz with the value at `path` replaced (removed, for `...`; appended, one past a list's end)."""
    data = quiz()
    parent: Any = data
    for key in path[:-1]:
        parent = parent[key]
    if value is ...:
        del parent[path[-1]]
    elif isinstance(parent, list) and path[-1] == len(parent):
        parent.append(value)
    else:
        parent[path[-1]] = value
    return data


class TestRead:
    def test_reads_every_kind(self) -> None:
        """Each kind comes back as its frozen class, with the author's text and answers."""
        parsed = read_quiz(quiz())
        assert (parsed.id, parsed.title) == ("roofline", "The roofline")
        single, multiple, sort, numeric = parsed.questions
        assert isinstance(single, ChoiceQuestion) and single.kind == "single" and single.correct == (0,)
        assert single.choices[1].explanation == "That is the flat roof."
        assert isinstance(multiple, ChoiceQuestion) and multiple.correct == (0, 1)
        assert isinstance(sort, SortQuestion) and [item.bucket for item in sort.items] == ["compute", "memory"]
        assert isinstance(numeric, NumericQuestion) and numeric.tolerance == Tolerance(0.02, relative=True)

    def test_numeric_answer_is_the_calculators_output_in_the_questions_unit(self) -> None:
        """197 TFLOP/s, 0.819 TB/s, 60 FLOP/byte: memory-bound at 0.819 x 60 = 49.14 TFLOP/s."""
        numeric = read_quiz(quiz()).questions[3]
        assert isinstance(numeric, NumericQuestion)
        outputs = {o["key"]: o["value"] for o in run("roofline", dict(numeric.given))["outputs"]}
        assert numeric.answer == pytest.approx(outputs["attainable"] / 1e12) == pytest.approx(49.14)
        assert numeric.answer_text(numeric.answer) == "49.1 TFLOP/s"

    @pytest.mark.parametrize(
        ("output", "unit", "scale", "shown"),
        [
            ("attainable", None, 1.0, "FLOP/s"),  # the output's own unit by default
            ("attainable", "GFLOP/s", 1e9, "GFLOP/s"),
            ("ridge", None, 1.0, "FLOP/byte"),
            ("fraction", None, 0.01, "%"),  # a percentage unless the author asks for a fraction
            ("fraction", "", 1.0, ""),
        ],
    )
    def test_units_scale_by_si_prefix(self, output: str, unit: str | None, scale: float, shown: str) -> None:
        question = quiz()["questions"][3] | {"answer": {"calculator": "roofline", "output": output}}
        if unit is None:
            del question["unit"]
        else:
            question["unit"] = unit
        parsed = read_question(question)
        assert isinstance(parsed, NumericQuestion) and (parsed.unit, parsed.scale) == (shown, scale)

    def test_question_ids_default_to_their_position(self) -> None:
        data = quiz()
        del data["questions"][1]["id"]
        assert read_quiz(data).questions[1].id == "question-2"

    def test_numbers_as_text_are_kept_as_written(self) -> None:
        data = changed(("questions", 0, "choices", 1, "text"), 295)
        single = read_quiz(data).questions[0]
        assert isinstance(single, ChoiceQuestion) and single.choices[1].text == "295"


FIELDS_QUESTION = "id, kind, text, explanation, choices, shuffle"


class TestChecks:
    @pytest.mark.parametrize(
        ("path", "value", "where", "message"),
        [
            (
                ("questions", 0, "choices", 0, "correct"),
                False,
                ("questions", 0, "choices"),
                "question 'ridge': no choice is marked correct (mark one with 'correct: true')",
            ),
            (
                ("questions", 1, "choices"),
                [{"text": "a"}, {"text": "b"}],
                ("questions", 1, "choices"),
                "question 'faster': no choice is marked correct (mark at least one with 'correct: true')",
            ),
            (
                ("questions", 0, "choices", 1, "correct"),
                True,
                ("questions", 0, "choices"),
                "question 'ridge': 2 choices are marked correct, but a single-choice question has one "
                "(use 'kind: multiple' for several)",
            ),
            (
                ("questions", 1, "id"),
                "ridge",
                ("questions", 1, "id"),
                "duplicate question id 'ridge' (question 1 has it too; ids must differ within a quiz)",
            ),
            (("questions", 0, "text"), "  ", ("questions", 0, "text"), "question 'ridge': 'text' is empty"),
            (("questions", 0, "text"), ..., ("questions", 0), "question 'ridge' has no 'text'"),
            (
                ("questions", 0, "choices", 1, "text"),
                "",
                ("questions", 0, "choices", 1, "text"),
                "question 'ridge': choice 2: 'text' is empty",
            ),
            (
                ("questions", 0, "explanation"),
                None,
                ("questions", 0, "explanation"),
                "question 'ridge': 'explanation' is empty (write one, or remove the line)",
            ),
            (
                ("questions", 0, "choices"),
                [{"text": "only", "correct": True}],
                ("questions", 0, "choices"),
                "question 'ridge': 'choices' must be a list of at least 2 choices (got a list of 1)",
            ),
            (
                ("questions", 0, "choices", 0, "correct"),
                "yes please",
                ("questions", 0, "choices", 0, "correct"),
                "question 'ridge': choice 1: 'correct' must be true or false (got 'yes please')",
            ),
            (
                ("questions", 2, "items", 0, "bucket"),
                ...,
                ("questions", 2, "items", 0),
                "question 'kernels': item 1 has no 'bucket' (expected one of: compute, memory)",
            ),
            (
                ("questions", 2, "items", 1, "bucket"),
                "cpu",
                ("questions", 2, "items", 1, "bucket"),
                "question 'kernels': item 2: unknown bucket 'cpu' (expected one of: compute, memory)",
            ),
            (
                ("questions", 2, "buckets", 2),
                {"id": "compute", "text": "Also compute-bound"},
                ("questions", 2, "buckets", 2, "id"),
                "question 'kernels': duplicate bucket id 'compute'",
            ),
            (
                ("questions", 3, "tolerance"),
                ...,
                ("questions", 3),
                "question 'attainable' has no 'tolerance' (give an absolute one, such as 'tolerance: 0.5', "
                "or a relative one, such as 'tolerance: 2%')",
            ),
            (
                ("questions", 3, "tolerance"),
                "-1%",
                ("questions", 3, "tolerance"),
                "question 'attainable': 'tolerance' must be a number > 0 (absolute, in the answer's unit) or a "
                "percentage > 0, such as '2%' (got '-1%')",
            ),
            (
                ("questions", 3, "answer", "calculator"),
                "rooflines",
                ("questions", 3, "answer", "calculator"),
                f"question 'attainable': unknown calculator 'rooflines' (expected one of: {KNOWN})",
            ),
            (
                ("questions", 3, "answer", "output"),
                "speed",
                ("questions", 3, "answer", "output"),
                "question 'attainable': calculator 'roofline' has no output 'speed' "
                f"(expected one of: {NUMERIC_OUTPUTS})",
            ),
            (
                ("questions", 3, "answer", "output"),
                "bound",
                ("questions", 3, "answer", "output"),
                f"question 'attainable': output 'bound' is text, not a number (expected one of: {NUMERIC_OUTPUTS})",
            ),
            (
                ("questions", 3, "answer"),
                ...,
                ("questions", 3),
                "question 'attainable' has no 'answer' (expected the calculator that computes it and which output, "
                "such as 'answer: {calculator: roofline, output: attainable}')",
            ),
            (
                ("questions", 3, "inputs", "tokens_per_s"),
                5,
                ("questions", 3, "inputs", "tokens_per_s"),
                "question 'attainable': calculator 'roofline': unknown input 'tokens_per_s' "
                f"(expected one of: {INPUTS})",
            ),
            (
                ("questions", 3, "inputs", "intensity"),
                -3,
                ("questions", 3, "inputs", "intensity"),
                "question 'attainable': calculator 'roofline': 'intensity' must be >= 0.01 (got -3)",
            ),
            (
                ("questions", 3, "inputs", "intensity"),
                None,
                ("questions", 3, "inputs", "intensity"),
                "question 'attainable': calculator 'roofline': input 'intensity' has no value (give one, or remove "
                "the line)",
            ),
            (
                ("questions", 3, "unit"),
                "GB/s",
                ("questions", 3, "unit"),
                "question 'attainable': unit 'GB/s' does not fit output 'attainable' (FLOP/s): write FLOP/s, with "
                "an SI prefix if you like (such as TFLOP/s)",
            ),
            (
                ("questions", 3, "text"),
                "How fast at {tokens_per_s} and {intensity}?",
                ("questions", 3, "text"),
                "question 'attainable': the text shows {tokens_per_s}, which is not an input of calculator "
                f"'roofline' (expected one of: {INPUTS})",
            ),
            (
                ("questions", 3, "vary", "speed"),
                [1, 2],
                ("questions", 3, "vary", "speed"),
                f"question 'attainable': vary: unknown input 'speed' (expected one of: {INPUTS})",
            ),
            (
                ("questions", 3, "vary", "intensity", "stepp"),
                1,
                ("questions", 3, "vary", "intensity", "stepp"),
                "question 'attainable': vary 'intensity': unknown field 'stepp' (did you mean 'step'? expected one of: "
                "min, max, step, choices)",
            ),
            (
                ("questions", 3, "vary", "intensity", "step"),
                ...,
                ("questions", 3, "vary", "intensity"),
                "question 'attainable': vary 'intensity' needs either 'min', 'max' and 'step', or 'choices'",
            ),
            (
                ("questions", 3, "vary", "intensity", "min"),
                0,
                ("questions", 3, "vary", "intensity", "min"),
                "question 'attainable': vary 'intensity': 'min' must be >= 0.01 (got 0)",
            ),
            (
                ("questions", 3, "vary", "intensity", "min"),
                500,
                ("questions", 3, "vary", "intensity", "min"),
                "question 'attainable': vary 'intensity': 'min' must be <= 'max' (got 500 > 400)",
            ),
            (
                ("questions", 3, "vary", "intensity", "step"),
                0,
                ("questions", 3, "vary", "intensity", "step"),
                "question 'attainable': vary 'intensity': 'step' must be a number > 0 (got 0)",
            ),
            (
                ("questions", 3, "vary", "peak_tflops"),
                [],
                ("questions", 3, "vary", "peak_tflops"),
                "question 'attainable': vary 'peak_tflops': 'choices' is empty",
            ),
            (
                ("questions", 3, "vary", "peak_tflops"),
                [197, "fast"],
                ("questions", 3, "vary", "peak_tflops", 1),
                "question 'attainable': vary 'peak_tflops': choice 2 must be a number (got 'fast')",
            ),
            (
                ("questions", 3, "vary", "batch"),
                [1, 8],
                ("questions", 3, "vary", "batch"),
                "question 'attainable': varies 'batch', but the text does not show it (write {batch} where its "
                "value belongs)",
            ),
        ],
    )
    def test_one_problem(
        self, path: tuple[str | int, ...], value: object, where: tuple[str | int, ...], message: str
    ) -> None:
        """Each mistake is reported once, where it is, in words that say what to do."""
        assert problems(changed(path, value)) == [(where, message)]

    @pytest.mark.parametrize(
        ("path", "value", "where", "message"),
        [
            (
                ("titel",),
                "x",
                ("titel",),
                "quiz: unknown field 'titel' (did you mean 'title'? expected one of: id, title, intro, questions)",
            ),
            (
                ("questions", 0, "hint"),
                "x",
                ("questions", 0, "hint"),
                f"question 'ridge': unknown field 'hint' (expected one of: {FIELDS_QUESTION})",
            ),
            (
                ("questions", 0, "choices", 0, "right"),
                True,
                ("questions", 0, "choices", 0, "right"),
                "question 'ridge': choice 1: unknown field 'right' (expected one of: text, correct, explanation)",
            ),
            (
                ("questions", 2, "items", 0, "why"),
                "x",
                ("questions", 2, "items", 0, "why"),
                "question 'kernels': item 1: unknown field 'why' (expected one of: text, bucket, explanation)",
            ),
            (
                ("questions", 3, "answer", "digits"),
                3,
                ("questions", 3, "answer", "digits"),
                "question 'attainable': answer: unknown field 'digits' (expected one of: calculator, output)",
            ),
            (
                ("questions", 3, "choices"),
                [],
                ("questions", 3, "choices"),
                "question 'attainable': unknown field 'choices' (expected one of: id, kind, text, explanation, "
                "inputs, answer, unit, tolerance, vary)",
            ),
        ],
    )
    def test_unknown_fields_list_the_valid_ones(
        self, path: tuple[str | int, ...], value: object, where: tuple[str | int, ...], message: str
    ) -> None:
        assert problems(changed(path, value)) == [(where, message)]

    @pytest.mark.parametrize(
        ("data", "where", "message"),
        [
            (None, (), "quiz is empty (expected a mapping with 'id', 'title' and 'questions')"),
            (["a"], (), "quiz must be a mapping with 'id', 'title' and 'questions' (got a list of 1)"),
            (
                {"questions": [{"kind": "single"}]} | {"title": "T"},
                (),
                "quiz has no 'id' (give it one, such as 'id: roofline-basics': progress is saved under it)",
            ),
            ({"id": "q"}, (), "quiz has no 'questions' (expected a list of questions)"),
            (
                {"id": "q", "questions": {}},
                ("questions",),
                "quiz: 'questions' must be a list of questions (got a mapping)",
            ),
            (
                {"id": "q", "questions": []},
                ("questions",),
                "quiz: 'questions' must be a list of questions (got an empty list)",
            ),
        ],
    )
    def test_the_quiz_itself(self, data: object, where: tuple[str | int, ...], message: str) -> None:
        assert problems(data)[0] == (where, message)

    @pytest.mark.parametrize(
        ("question", "message"),
        [
            ({"text": "x"}, "question 1 has no 'kind' (expected one of: single, multiple, sort, numeric)"),
            (
                {"kind": "essay", "text": "x"},
                "question 1: unknown kind 'essay' (expected one of: single, multiple, sort, numeric)",
            ),
            ("What is it?", "question 1 must be a mapping with 'kind' and 'text' (got 'What is it?')"),
            (
                {"id": "my question", "kind": "single"},
                "question 1: 'id' must be letters (of any alphabet), digits, '-' or '_' (got 'my question')",
            ),
        ],
    )
    def test_questions_without_a_kind(self, question: object, message: str) -> None:
        assert problems({"id": "q", "questions": [question]})[0][1] == message

    def test_every_problem_is_reported(self) -> None:
        """Several mistakes in one quiz come back together, in the order they appear."""
        data = changed(("questions", 0, "choices", 0, "correct"), False)
        data["questions"][2]["items"][1]["bucket"] = "cpu"
        del data["questions"][3]["tolerance"]
        assert [where for where, _ in problems(data)] == [
            ("questions", 0, "choices"),
            ("questions", 2, "items", 1, "bucket"),
            ("questions", 3),
        ]

    def test_a_chip_picker_cannot_hide_a_varied_figure(self) -> None:
        """Varying a figure that the author's chip fills would be silently overridden: the build says so."""
        data = changed(("questions", 3, "inputs"), {"chip": "h100-sxm", "intensity": 60})
        data["questions"][3]["vary"] = {"peak_tflops": [197, 989]}
        data["questions"][3]["text"] = "{peak_tflops} and {intensity}"
        ((where, message),) = problems(data)
        assert where == ("questions", 3, "vary", "peak_tflops")
        assert message.startswith("question 'attainable': calculator 'roofline': 'peak_tflops' must be left out")


class TestGrading:
    def test_choice_questions_need_exactly_the_correct_choices(self) -> None:
        _, multiple, *_ = read_quiz(quiz()).questions
        assert isinstance(multiple, ChoiceQuestion)
        assert multiple.grade([1, 0]) and not multiple.grade([0]) and not multiple.grade([0, 1, 2])

    def test_sort_grades_each_item(self) -> None:
        sort = read_quiz(quiz()).questions[2]
        assert isinstance(sort, SortQuestion)
        assert sort.grade_items({0: "compute", 1: "compute"}) == (True, False)
        assert sort.grade({0: "compute", 1: "memory"}) and not sort.grade({0: "compute"})

    @pytest.mark.parametrize(
        ("tolerance", "given", "answer", "allowed"),
        [
            (Tolerance(0.5), 10.5, 10.0, True),  # the edge counts
            (Tolerance(0.5), 10.51, 10.0, False),
            (Tolerance(0.1), 1.1, 1.0, True),  # despite 1.1 - 1.0 > 0.1 in floats
            (Tolerance(0.02, relative=True), 49.14 * 1.02, 49.14, True),
            (Tolerance(0.02, relative=True), 48.1, 49.14, False),
            (Tolerance(0.02, relative=True), -49.14, 49.14, False),
        ],
    )
    def test_tolerance(self, tolerance: Tolerance, given: float, answer: float, allowed: bool) -> None:
        assert tolerance.allows(given, answer) is allowed

    def test_grading_data_for_the_browser(self) -> None:
        """The answer keys and explanations, in question order, as JSON-ready data (quiz.js reads these names)."""
        data = grading_data(read_quiz(quiz()))
        single, multiple, sort, numeric = data["questions"]
        assert single == {
            "id": "ridge",
            "kind": "single",
            "explanation": "Peak over bandwidth.",
            "correct": [0],
            "choices": ["", "That is the flat roof."],
            "shuffle": True,
        }
        assert multiple["correct"] == [0, 1]
        assert sort == {
            "id": "kernels",
            "kind": "sort",
            "explanation": "",
            "buckets": {"compute": "Compute-bound", "memory": "Memory-bound"},
            "items": [
                {"bucket": "compute", "explanation": ""},
                {"bucket": "memory", "explanation": "One FLOP per 12 bytes."},
            ],
            "shuffle": True,
        }
        assert numeric["text"] == "197 TFLOP/s, 0.819 TB/s, 60 FLOP/byte: how many TFLOP/s?"
        assert numeric["answer"] == pytest.approx(49.14) and numeric["answer_text"] == "49.1 TFLOP/s"
        assert numeric["tolerance"] == {"amount": 0.02, "relative": True, "text": "± 2%"}  # one convention: a fraction
        assert numeric["variant"]["vary"] == {"intensity": {"min": 10.0, "max": 400.0, "step": 10.0}}
        assert json.loads(json.dumps(data, allow_nan=False)) == data

    def test_html_in_author_text_is_kept_as_text(self) -> None:
        """The model keeps author text as written; escaping it is the renderer's job (tested in the build layer)."""
        data = changed(("questions", 0, "text"), "<script>alert(1)</script>")
        assert read_quiz(data).questions[0].text == "<script>alert(1)</script>"


def numeric() -> NumericQuestion:
    question = read_quiz(quiz()).questions[3]
    assert isinstance(question, NumericQuestion)
    return question


def calculator_answer(inputs: dict[str, Any], output: str = "attainable", scale: float = 1e12) -> float:
    """What CPython's calculator says, through the package's public `run`."""
    result = run("roofline", inputs)
    assert result["ok"], result
    return float(next(o["value"] for o in result["outputs"] if o["key"] == output)) / scale


class TestVariants:
    def test_same_seed_same_variant(self) -> None:
        assert numeric().variant(42) == numeric().variant(42)
        assert len({numeric().variant(seed).inputs["intensity"] for seed in range(20)}) > 5

    @settings(max_examples=60, deadline=None)
    @given(st.integers(min_value=0, max_value=2**32 - 1))
    def test_answer_is_the_calculators_output(self, seed: int) -> None:
        """For any seed: the varied input is on its grid, the others are the author's, and the answer is CPython's."""
        variant = numeric().variant(seed)
        intensity = float(variant.inputs["intensity"])
        assert 10 <= intensity <= 400 and intensity % 10 == 0 and intensity != 60
        assert (variant.inputs["peak_tflops"], variant.inputs["bandwidth_tbs"]) == (197, 0.819)
        assert variant.answer == calculator_answer(dict(variant.inputs))
        assert variant.text == f"197 TFLOP/s, 0.819 TB/s, {intensity:,.0f} FLOP/byte: how many TFLOP/s?"
        assert variant.answer_text == numeric().answer_text(variant.answer)

    def test_choices_of_a_picker_show_their_labels(self) -> None:
        question = read_question(
            {
                "kind": "numeric",
                "text": "On a {chip}, where is the ridge?",
                "inputs": {"chip": "h100-sxm"},
                "answer": {"calculator": "roofline", "output": "ridge"},
                "tolerance": 1,
                "vary": {"chip": ["h100-sxm", "tpu-v5e"]},
            }
        )
        assert isinstance(question, NumericQuestion)
        variant = question.variant(3)
        assert variant.inputs["chip"] == "tpu-v5e"  # differs from the author's
        labels = {choice.value: choice.label for choice in ROOFLINE.inputs[0].choices}
        assert variant.text == f"On a {labels['tpu-v5e']}, where is the ridge?"
        assert variant.answer == calculator_answer({"chip": "tpu-v5e"}, "ridge", 1)

    def test_the_source_reads_back_to_the_same_question(self) -> None:
        assert read_question(numeric().source()) == numeric()

    def test_the_worker_calls_it_by_name(self) -> None:
        """`quiz_variant` is in the worker's list, and JSON in gives the variant's JSON out."""
        assert FUNCTIONS["quiz_variant"] is quiz_variant
        arguments = json.dumps({"question": grading_data(read_quiz(quiz()))["questions"][3]["variant"], "seed": 7})
        assert json.loads(call_json("quiz_variant", arguments)) == numeric().variant(7).as_dict()

    def test_a_broken_source_is_refused(self) -> None:
        source = copy.deepcopy(numeric().source())
        source["answer"]["output"] = "speed"
        with pytest.raises(QuizError, match="has no output 'speed'"):
            quiz_variant(source, 1)


def book_quizzes() -> list[Quiz]:
    """Every quiz written in the book's lessons and chapters."""
    from mkdocs_calculators.pages.fences import find_fences
    from tests.support import ROOT

    found = []
    for page in sorted((ROOT / "docs").glob("[cl]*/**/*.md")):
        for fence in find_fences(page.read_text(encoding="utf-8"), frozenset({"quiz"})):
            found.append(read_quiz(yaml.safe_load(fence.body)))
    return found


class TestOptionOrder:
    """Options are shown in an order that does not give the answer away; `shuffle: false` keeps the author's."""

    def test_the_build_order_is_a_fixed_shuffle(self) -> None:
        assert shown_order(8, "quiz/q") == shown_order(8, "quiz/q")
        assert sorted(shown_order(8, "quiz/q")) == list(range(8))
        assert shown_order(8, "quiz/q") != shown_order(8, "quiz/other")
        assert {shown_order(4, f"q{n}")[0] for n in range(40)} == {0, 1, 2, 3}

    def test_shuffle_false_keeps_the_authors_order(self) -> None:
        data = changed(("questions", 1, "shuffle"), False)
        data["questions"][2]["shuffle"] = False
        single, multiple, sort, _ = read_quiz(data).questions
        assert isinstance(multiple, ChoiceQuestion) and isinstance(sort, SortQuestion)
        assert not multiple.shuffle and multiple.shown_order("x") == [0, 1, 2]
        assert not sort.shuffle and sort.shown_order("x") == [0, 1]
        assert isinstance(single, ChoiceQuestion) and single.shuffle

    def test_shuffle_must_be_true_or_false(self) -> None:
        assert problems(changed(("questions", 0, "shuffle"), "no")) == [
            (("questions", 0, "shuffle"), "question 'ridge': 'shuffle' must be true or false (got 'no')")
        ]
        assert problems(changed(("questions", 3, "shuffle"), False))[0][1].startswith(
            "question 'attainable': unknown field 'shuffle'"
        )

    def test_the_books_quizzes_do_not_list_the_right_answer_first(self) -> None:
        """Built as the book is, the first option is right about as often as chance has it, not every time."""
        first_right = total = 0
        chance = 0.0
        for quiz_data in book_quizzes():
            for question in quiz_data.questions:
                if isinstance(question, ChoiceQuestion) and question.shuffle:
                    total += 1
                    chance += len(question.correct) / len(question.choices)
                    first_right += question.shown_order(f"{quiz_data.id}/{question.id}")[0] in question.correct
        assert total >= 20
        assert first_right <= chance + 3

    def test_no_quiz_intro_promises_checking_without_check(self) -> None:
        """Answers are checked when the reader presses Check: no page with a quiz may say otherwise."""
        from tests.support import ROOT

        for page in sorted((ROOT / "docs").glob("**/*.md")):
            text = " ".join(page.read_text(encoding="utf-8").split())
            if "```quiz" in text:
                assert "checked as soon as you answer" not in text, page


class TestContributingGuide:
    def test_its_examples_are_valid_quizzes(self) -> None:
        """The quiz and the questions that docs/contributing.md shows read without a problem, one of each kind."""
        from tests.support import ROOT

        guide = (ROOT / "docs/contributing.md").read_text(encoding="utf-8")
        section = guide[guide.index("## Write a quiz") :]
        section = section[: section.index("\n## ", 1)]
        quizzes = re.findall(r"^```quiz\n(.*?)^```$", section, re.MULTILINE | re.DOTALL)
        questions = re.findall(r"^```yaml\n(.*?)^```$", section, re.MULTILINE | re.DOTALL)
        whole = read_quiz(yaml.safe_load(quizzes[0]))
        extra = read_quiz({"id": "guide", "questions": [yaml.safe_load(text)[0] for text in questions]})
        kinds = [question.kind for question in (*whole.questions, *extra.questions)]
        assert sorted(set(kinds)) == ["multiple", "numeric", "single", "sort"]


class TestQuestionWording:
    """A numeric question reads as a sentence with any numbers: '1 sequence', 'takes 1 byte', not '1 (FP8) bytes'."""

    def question(self, text: str, **inputs: object) -> NumericQuestion:
        parsed = read_question(
            {
                "id": "q",
                "kind": "numeric",
                "text": text,
                "inputs": {"chip": "custom", "workload": "decode", **inputs},
                "answer": {"calculator": "roofline", "output": "time"},
                "unit": "s",
                "tolerance": "5%",
            }
        )
        assert isinstance(parsed, NumericQuestion)
        return parsed

    @pytest.mark.parametrize(
        ("batch", "shown"),
        [(1, "a batch of 1 sequence, then 1 more"), (8, "a batch of 8 sequences, then 1 more")],
    )
    def test_one_takes_the_singular(self, batch: int, shown: str) -> None:
        question = self.question("a batch of {batch} sequences, then 1 more", batch=batch)
        assert question.shown_text(question.inputs_for(question.given)) == shown

    def test_a_numeric_choice_shows_its_number(self) -> None:
        parsed = read_question(
            {
                "id": "q",
                "kind": "numeric",
                "text": "Each weight takes {bytes_per_param} bytes.",
                "inputs": {"chip": "custom", "bytes_per_param": "1"},
                "answer": {"calculator": "mbu", "output": "mbu"},
                "unit": "%",
                "tolerance": 1,
            }
        )
        assert isinstance(parsed, NumericQuestion)
        assert parsed.shown_text(parsed.inputs_for(parsed.given)) == "Each weight takes 1 byte."

    def test_the_books_questions_never_say_one_plural(self) -> None:
        for quiz_data in book_quizzes():
            for question in quiz_data.questions:
                if isinstance(question, NumericQuestion):
                    text = question.grading_data()["text"]
                    assert not re.search(r"\b1 (sequences|bytes|tokens|chips)\b", text), text
                    assert "(FP8" not in text and "(BF16" not in text, text


class TestIdsInAnyAlphabet:
    """Ids take letters of any alphabet (an author writing in French names a quiz 'résistance'), composed so that
    two ways of typing 'é' are one id; a space or punctuation is still refused, with the rule in the message."""

    def test_a_quiz_and_its_questions_take_accented_ids(self) -> None:
        decomposed = unicodedata.normalize("NFD", "résistance")
        choices = [{"text": "Oui", "correct": True}, {"text": "Non"}]
        quiz = read_quiz(
            {
                "id": decomposed,
                "questions": [
                    {"id": "loi-dohm", "kind": "single", "text": "?", "choices": choices},
                    {"id": "напряжение", "kind": "single", "text": "?", "choices": choices},
                ],
            }
        )
        assert quiz.id == "résistance" and quiz.id == unicodedata.normalize("NFC", decomposed)
        assert [question.id for question in quiz.questions] == ["loi-dohm", "напряжение"]

    @pytest.mark.parametrize("raw", ["my question", "résistance!", "a/b", "é#1"])
    def test_punctuation_is_still_refused(self, raw: str) -> None:
        assert problems({"id": "q", "questions": [{"id": raw, "kind": "single"}]})[0][1] == (
            f"question 1: 'id' must be letters (of any alphabet), digits, '-' or '_' (got {raw!r})"
        )

    def test_a_calculator_block_id_in_any_alphabet_is_its_anchor(self) -> None:
        assert check_id("résistance") == "résistance"
        assert check_id(unicodedata.normalize("NFD", "résistance")) == "résistance"
        assert check_id("電圧-2") == "電圧-2"
        assert [check_id(raw) for raw in ("_x", "-x", "a b", "a#b", "a.b", True)] == [None] * 6
