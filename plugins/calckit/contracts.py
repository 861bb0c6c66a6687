"""The JSON that Python hands the browser, typed: what the build writes into pages and what the workers reply.

Each shape is a TypedDict, so that mypy --strict checks every place that builds one, and tests/unit/test_contracts.py
checks what each holds at run time; the browser's scripts read them as the JSDoc typedefs that
`python -m mkdocs_calculators.runtime.twins` writes from this module into plugins/types/contracts.js (make lint fails
when that file is stale). A key that is not always there is NotRequired; a type that the browser knows better than
Python can say is Annotated with the name of a hand-written typedef of plugins/types/contracts-browser.js (ChartSpec).
This module imports nothing of calckit's, so that any module may use it; it does without `from __future__ import
annotations`, which would hide NotRequired from `__required_keys__`.
"""

from typing import Annotated, Any, Literal, NotRequired, TypedDict

__all__ = [
    "CalculatorDraw",
    "CaseData",
    "CaseFailureData",
    "ChartSpec",
    "CheckResult",
    "CheckingData",
    "ChoiceGrading",
    "ChoicePageData",
    "CodeError",
    "DrawnCases",
    "ExercisePageData",
    "FailureData",
    "FieldErrorData",
    "FunctionDraw",
    "Manifest",
    "NumericGrading",
    "NumericPageData",
    "OutputData",
    "ProgressItemData",
    "QuestionGrading",
    "QuestionPageData",
    "QuizGrading",
    "QuizPageData",
    "QuizToleranceData",
    "RaisedData",
    "Returned",
    "RunCasesResult",
    "RunCodeResult",
    "RunReply",
    "SortGrading",
    "SortItemData",
    "SortItemPageData",
    "SortPageData",
    "TableData",
    "ToleranceData",
    "UnreachedData",
    "VariantData",
    "VaryData",
]

JSONValue = Any  # a value of the author's or a calculator's: a number, a text, a list of texts


# Grading (calckit.grading, grading.js)


class ToleranceData(TypedDict):
    amount: float  # in the answer's unit, or, when relative, a fraction of the answer
    relative: bool


class Returned(TypedDict):
    """What a reader's function returned, as the grading rule sees it (`grading.returned`)."""

    kind: Literal["number", "none", "nonfinite", "other"]
    shown: str  # its repr, cut to a length a reader can read
    value: NotRequired[float]  # for a number
    type: NotRequired[str]  # for another kind of value: its type's name


# Quizzes (calckit.quiz, quiz.js)


class QuizToleranceData(ToleranceData):
    text: str  # as readers see it: '± 2%'


class ChoiceGrading(TypedDict):
    id: str
    kind: Literal["single", "multiple"]
    explanation: str
    correct: list[int]  # the correct choices, by their place in the author's order
    choices: list[str]  # each choice's explanation
    shuffle: bool


class SortItemData(TypedDict):
    bucket: str
    explanation: str


class SortGrading(TypedDict):
    id: str
    kind: Literal["sort"]
    explanation: str
    buckets: dict[str, str]  # id -> text
    items: list[SortItemData]
    shuffle: bool


class NumericGrading(TypedDict):
    id: str
    kind: Literal["numeric"]
    explanation: str
    text: str  # with the author's inputs filled in
    inputs: dict[str, JSONValue]
    answer: float
    answer_text: str
    unit: str
    tolerance: QuizToleranceData
    variant: dict[str, Any] | None  # the question's source, which the worker reads back for new numbers


QuestionGrading = ChoiceGrading | SortGrading | NumericGrading


class QuizGrading(TypedDict):
    id: str
    questions: list[QuestionGrading]


class ChoicePageData(TypedDict):
    """A single or multiple choice question in the page's `data-quiz-data` (quiz_render): its grading data less the
    explanations, which the page holds as HTML in <template>s."""

    id: str
    kind: Literal["single", "multiple"]
    correct: list[int]
    choices: int  # how many there are
    shuffle: bool


class SortItemPageData(TypedDict):
    bucket: str


class SortPageData(TypedDict):
    """A sort question in the page's `data-quiz-data`."""

    id: str
    kind: Literal["sort"]
    buckets: dict[str, str]  # id -> text
    items: list[SortItemPageData]
    shuffle: bool


class NumericPageData(TypedDict):
    """A numeric question in the page's `data-quiz-data`; `variant` is its source for "new numbers" (sent back as
    quiz_variant's `question`), or null."""

    id: str
    kind: Literal["numeric"]
    values: list[str]  # what stands for each `{input}` of the question's text, in order: new numbers replace them
    inputs: dict[str, JSONValue]
    answer: float
    answer_text: str
    unit: str
    tolerance: QuizToleranceData
    variant: dict[str, Any] | None


QuestionPageData = ChoicePageData | SortPageData | NumericPageData


class QuizPageData(TypedDict):
    """A quiz's `data-quiz-data` (quiz_render): the answer key as the page carries it."""

    id: str
    questions: list[QuestionPageData]


class VariantData(TypedDict):
    """A numeric question's new numbers (the calculators' worker's reply to `quiz_variant`)."""

    seed: int
    inputs: dict[str, JSONValue]
    text: str
    values: list[str]  # what stands for each `{input}` of the text, in order: the page puts these in place
    answer: float
    answer_text: str


# Exercises (calckit.exercise, exercise.js, exercise_worker.js)


class CaseData(TypedDict):
    inputs: dict[str, float | int]
    expected: float | None  # None: there is no such number for these inputs


class CheckingData(TypedDict):
    """What `exercise_run.check_code` grades a solution on (the build's)."""

    function: str
    parameters: list[str]
    floats: list[str]
    cases: list[CaseData]
    tolerance: ToleranceData


class VaryData(TypedDict):
    input: str
    min: NotRequired[float]
    max: NotRequired[float]
    step: NotRequired[float]
    choices: NotRequired[list[JSONValue]]


class CalculatorDraw(TypedDict):
    """How the calculators' worker draws a Check's cases from a calculator's output."""

    calculator: str
    output: str
    parameters: list[str]
    given: dict[str, JSONValue]
    scale: float
    count: int
    vary: list[VaryData]
    fixed: list[dict[str, float | int]]


class FunctionDraw(TypedDict):
    """How the calculators' worker draws a Check's cases from a function of the book's package."""

    function_key: str  # calckit.answers.function_key of its dotted name: the page does not name it
    parameters: list[str]
    given: dict[str, JSONValue]
    count: int
    vary: list[VaryData]
    whole: list[str]
    fixed: list[dict[str, float | int]]


class DrawnCases(TypedDict):
    """The calculators' worker's reply to `exercise_cases`."""

    cases: list[CaseData]
    floats: list[str]


class ExercisePageData(TypedDict):
    """The exercise's `data-exercise-data`: no expected value."""

    function: str
    parameters: list[str]
    draw: CalculatorDraw | FunctionDraw
    tolerance: ToleranceData
    id: str
    title: str
    starter: str
    solution: str


class CodeError(TypedDict):
    type: str
    message: str
    line: int | None  # in the reader's code


class RunCodeResult(TypedDict):
    """The exercise worker's reply to Run."""

    ok: bool
    stdout: str
    error: CodeError | None


class RaisedData(TypedDict):
    kind: Literal["raised"]
    error: CodeError


class RunCasesResult(TypedDict):
    """The exercise worker's reply to Check: what the reader's function returned for each case, up to a raise."""

    ok: bool
    stdout: str
    error: CodeError | None
    results: list[Returned | RaisedData]


class CaseFailureData(TypedDict):
    index: int
    inputs: dict[str, float | int]
    expected: float | None
    got: str | None
    reason: str
    error: CodeError | None


class UnreachedData(TypedDict):
    """A part of a solution that none of its exercise's cases runs (`exercise_reach`)."""

    line: int  # a line of the solution, 1 for its first
    to: int | None  # None: no case runs `line`; a line: no case goes on from `line` to it; 0: nor out of its function


class CheckResult(TypedDict):
    """`exercise_run.check_code`'s verdict on a solution."""

    ok: bool
    passed: int
    total: int
    stdout: str
    error: CodeError | None
    failure: CaseFailureData | None
    unreached: list[UnreachedData]  # when it passes every case: what no case ran


# Calculators (calckit.api.run, calculator.js)


class FieldErrorData(TypedDict):
    field: str
    rule: str
    message: str
    hint: str


class FailureData(TypedDict):
    """A calculator that raised: the cause for a reader, its place and the whole message for an author."""

    error: str
    where: str
    message: str


class OutputData(TypedDict):
    key: str
    label: str
    value: JSONValue
    text: str
    note: str


class TableData(TypedDict):
    caption: str
    columns: list[str]
    rows: list[list[str]]


# A Vega-Lite spec as the book's package wrote it, with the description a screen reader hears.
ChartSpec = Annotated[dict[str, Any], "Chart"]


class RunReply(TypedDict):
    """The calculators' worker's reply to `run` (and the build's pre-render): outputs, or what is wrong. The browser
    reads it as one of two shapes, by `ok` (contracts-browser.js's Computed and Refused)."""

    ok: bool
    calculator: str
    errors: NotRequired[list[FieldErrorData]]  # when not ok: every bad field
    failure: NotRequired[FailureData]  # when not ok with no bad field: the calculator itself raised
    inputs: NotRequired[dict[str, JSONValue]]  # when ok, each of these
    outputs: NotRequired[list[OutputData]]
    summary: NotRequired[str]
    chart: NotRequired[ChartSpec | None]
    table: NotRequired[TableData | None]


# Progress (pages/progress_page.py; progress-view.js)


class ProgressItemData(TypedDict):
    """A quiz or an exercise as the progress views list it (progress_page.py's item data: `data-progress-item`, and a
    list of them in a page's `data-progress-here`, with its title there)."""

    kind: Literal["quiz", "exercise"]
    key: str  # its storage key: quiz:docs/page.md#id
    version: str  # changes when the block does
    total: int  # questions in a quiz, 1 for an exercise
    title: NotRequired[str]


# The service worker (runtime/service_worker.py's build_manifest; service_worker.js)


class Manifest(TypedDict):
    """Every file the service worker caches, as [path, content hash], and its caches' names (runtime/layout.py's);
    `version` hashes the files."""

    version: str
    pages: list[tuple[str, str]]
    runtime: list[tuple[str, str]]
    onUse: list[tuple[str, str]]  # files a reader fetches only when they use them
    pagesCache: str  # the pages' cache's name, less the site's address and the version that follow it
    runtimeCache: str  # the runtime's cache's name, less the site's address that follows it
