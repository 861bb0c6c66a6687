"""The JSON that Python hands the browser has exactly the keys its contract (calckit.contracts) declares: mypy checks
the code that builds each shape, and these check what the shapes hold at run time, nested ones included."""

from __future__ import annotations

from typing import Any, get_type_hints

import pytest

from calckit import contracts, exercise_checks, quiz_checks
from calckit.api import run
from calckit.exercise_run import check_code, run_cases, run_code
from calckit.quiz import grading_data
from calculators import CALCULATORS
from mkdocs_calculators.blocks.quiz.render import _page_data
from mkdocs_calculators.pages.progress_page import BlockItem
from mkdocs_calculators.runtime.service_worker import build_manifest
from tests.unit.test_exercise import CRITICAL, critical, roofline
from tests.unit.test_quiz import quiz


def keeps(data: Any, shape: Any) -> None:
    """`data` has every required key of the TypedDict `shape`, and no key it does not declare."""
    declared = set(get_type_hints(shape))
    assert set(data) <= declared, set(data) - declared
    assert shape.__required_keys__ <= set(data), shape.__required_keys__ - set(data)


def test_a_calculators_reply() -> None:
    reply = run("matmul", {"chip": "h100-sxm"})
    keeps(reply, contracts.RunReply)
    for output in reply["outputs"]:
        keeps(output, contracts.OutputData)
    refused = run("roofline", {"intensity": -3})
    keeps(refused, contracts.RunReply)
    keeps(refused["errors"][0], contracts.FieldErrorData)


def test_a_quizs_grading_data() -> None:
    data = grading_data(quiz_checks.read_quiz(quiz(), CALCULATORS))
    keeps(data, contracts.QuizGrading)
    shapes = {"single": contracts.ChoiceGrading, "multiple": contracts.ChoiceGrading}
    shapes |= {"sort": contracts.SortGrading, "numeric": contracts.NumericGrading}
    assert {question["kind"] for question in data["questions"]} == set(shapes)
    for question in data["questions"]:
        keeps(question, shapes[question["kind"]])
    numeric = next(question for question in data["questions"] if question["kind"] == "numeric")
    keeps(numeric["tolerance"], contracts.QuizToleranceData)


def test_a_quizs_page_data() -> None:
    """What quiz.js reads from `data-quiz-data`: the grading data less the explanations."""
    data = _page_data(quiz_checks.read_quiz(quiz(), CALCULATORS))
    keeps(data, contracts.QuizPageData)
    shapes = {"single": contracts.ChoicePageData, "multiple": contracts.ChoicePageData}
    shapes |= {"sort": contracts.SortPageData, "numeric": contracts.NumericPageData}
    assert {question["kind"] for question in data["questions"]} == set(shapes)
    for question in data["questions"]:
        keeps(question, shapes[question["kind"]])
        if question["kind"] == "sort":
            keeps(question["items"][0], contracts.SortItemPageData)
        if question["kind"] == "numeric":
            keeps(question["tolerance"], contracts.QuizToleranceData)


def test_the_progress_views_and_the_service_workers_data(tmp_path: Any) -> None:
    item = BlockItem("quiz", "quiz:docs/a.md#q", "abc", 3, "A quiz", "quiz-1")
    keeps(item.data(), contracts.ProgressItemData)
    keeps(item.data() | {"title": item.title}, contracts.ProgressItemData)
    (tmp_path / "index.html").write_text("<p>hi</p>", encoding="utf-8")
    manifest = build_manifest(tmp_path)
    keeps(manifest, contracts.Manifest)
    assert manifest["pages"] == [("", manifest["pages"][0][1])]


@pytest.mark.parametrize("function", [False, True], ids=["calculator", "function"])
def test_an_exercises_data(function: bool) -> None:
    data = critical() if function else roofline()
    exercise = exercise_checks.read_exercise(data, CALCULATORS, "calculators")
    keeps(exercise.drawing_data(), contracts.FunctionDraw if function else contracts.CalculatorDraw)
    checking = exercise.checking_data()
    keeps(checking, contracts.CheckingData)
    keeps(checking["cases"][0], contracts.CaseData)
    keeps(checking["tolerance"], contracts.ToleranceData)
    code = CRITICAL if function else data["solution"]
    keeps(check_code(code, checking), contracts.CheckResult)
    failed = check_code(code.replace("return ", "return 2 * "), checking)
    keeps(failed, contracts.CheckResult)
    keeps(failed["failure"], contracts.CaseFailureData)


def test_the_exercise_workers_replies() -> None:
    keeps(run_code("print(1)"), contracts.RunCodeResult)
    ran = run_cases("def f(x):\n    return 1 / x\n", "f", ["x"], ["x"], [{"x": 2}, {"x": 0}])
    keeps(ran, contracts.RunCasesResult)
    keeps(ran["results"][0], contracts.Returned)
    keeps(ran["results"][1], contracts.RaisedData)
    keeps(ran["results"][1]["error"], contracts.CodeError)
