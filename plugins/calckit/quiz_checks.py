"""The checks on an author's quiz: every problem found, each with where in the data it is.

Messages name the question and the rule, and list the valid names where a name is wrong; the build adds the file
and line. `read_quiz` is the way in; the calculators that numeric answers name are handed to it (the book's). What a
quiz shares with an exercise (fields, ids, a calculator's inputs and output, units, `vary`) is `calckit.reading`'s.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .authored import Field, field_names
from .contracts import VariantData
from .errors import InputError
from .quiz import (
    KINDS,
    PLACEHOLDER,
    Bucket,
    Choice,
    ChoiceQuestion,
    Item,
    Kind,
    NumericQuestion,
    Question,
    Quiz,
    QuizError,
    QuizProblem,
    SortQuestion,
    Tolerance,
    Where,
)
from .reading import Reader, got
from .spec import Calculator, Output

__all__ = ["FIELDS", "QUIZ", "QUIZ_FIELDS", "QuizReader", "quiz_variant", "read_question", "read_quiz"]

# A quiz's keys: what the reader checks an author's quiz against, and what the plugin's ```quiz block takes.
QUIZ = (
    Field("id", "the quiz's id: the reader's progress is saved under it", required=True),
    Field("title", "the quiz's title"),
    Field("intro", "a sentence before the first question, in Markdown"),
    Field("questions", "the questions", required=True),
)
QUIZ_FIELDS = field_names(QUIZ)
_COMMON = ("id", "kind", "text", "explanation")
FIELDS: dict[str, tuple[str, ...]] = {
    "single": (*_COMMON, "choices", "shuffle"),
    "multiple": (*_COMMON, "choices", "shuffle"),
    "sort": (*_COMMON, "buckets", "items", "shuffle"),
    "numeric": (*_COMMON, "inputs", "answer", "unit", "tolerance", "vary"),
}
CHOICE_FIELDS = ("text", "correct", "explanation")
BUCKET_FIELDS = ("id", "text")
ITEM_FIELDS = ("text", "bucket", "explanation")
ANSWER_FIELDS = ("calculator", "output")


def read_quiz(data: object, calculators: Mapping[str, Calculator]) -> Quiz:
    """The quiz an author wrote (YAML loaded into plain data), or QuizError listing every problem in it."""
    reader = QuizReader(calculators)
    quiz = reader.quiz(data)
    if reader.problems or quiz is None:
        raise QuizError(reader.problems)
    return quiz


def read_question(data: object, calculators: Mapping[str, Calculator]) -> Question:
    """One question on its own, as `read_quiz` reads each (the worker reads a numeric question's source)."""
    reader = QuizReader(calculators)
    question = reader.question(data, (), 1)
    if reader.problems or question is None:
        raise QuizError(reader.problems)
    return question


def quiz_variant(question: Mapping[str, object], seed: int, calculators: Mapping[str, Calculator]) -> VariantData:
    """A "new numbers" variant of a numeric question given as its `source()`: the worker's entry for quizzes."""
    parsed = read_question(question, calculators)
    if not isinstance(parsed, NumericQuestion):
        raise QuizError([QuizProblem((), f"question '{parsed.id}' is not numeric, so it has no new numbers")])
    return parsed.variant(seed).as_dict()


class QuizReader(Reader):
    """Reads an author's quiz data into the model, collecting every problem rather than stopping at the first."""

    def __init__(self, calculators: Mapping[str, Calculator]) -> None:
        super().__init__(calculators)
        self.question_ids: dict[str, int] = {}

    def quiz(self, data: object) -> Quiz | None:
        if data is None:
            self.add((), "quiz is empty (expected a mapping with 'id', 'title' and 'questions')")
            return None
        values = self.fields(data, (), "quiz", QUIZ_FIELDS, "'id', 'title' and 'questions'")
        if values is None:
            return None
        quiz_id = self.ident(
            values, (), "quiz", " (give it one, such as 'id: roofline-basics': progress is saved under it)"
        )
        title = self.text(values, "title", (), "quiz", required=False)
        intro = self.text(values, "intro", (), "quiz", required=False)
        raw = self.items(values, "questions", (), "quiz", "a list of questions", 1)
        questions = [self.question(item, ("questions", index), index + 1) for index, item in enumerate(raw)]
        if quiz_id is None or not raw:
            return None
        return Quiz(quiz_id, tuple(question for question in questions if question is not None), title, intro)

    def question(self, data: object, where: Where, number: int) -> Question | None:
        if not isinstance(data, Mapping):
            self.add(where, f"question {number} must be a mapping with 'kind' and 'text' (got {got(data)})")
            return None
        values = {str(key): value for key, value in data.items()}
        given_id = self.ident(values, where, f"question {number}")
        name = f"question '{given_id}'" if given_id else f"question {number}"
        question_id = given_id or f"question-{number}"
        if question_id in self.question_ids:
            self.add(
                (*where, "id") if given_id else where,
                f"duplicate question id '{question_id}' (question {self.question_ids[question_id]} has it too; "
                "ids must differ within a quiz)",
            )
        self.question_ids.setdefault(question_id, number)
        kind = values.get("kind")
        if kind is None:
            self.add(where, f"{name} has no 'kind' (expected one of: {', '.join(KINDS)})")
            return None
        if kind not in KINDS:
            self.add((*where, "kind"), f"{name}: unknown kind {got(kind)} (expected one of: {', '.join(KINDS)})")
            return None
        before = len(self.problems)
        self.fields(values, where, name, FIELDS[kind], "")
        text = self.text(values, "text", where, name)
        explanation = self.text(values, "explanation", where, name, required=False)
        question: Question | None
        if kind == "sort":
            question = self.sort(values, where, name, question_id, text, explanation)
        elif kind == "numeric":
            question = self.numeric(values, where, name, question_id, text, explanation)
        else:
            question = self.choices(values, where, name, question_id, kind, text, explanation)
        return question if len(self.problems) == before else None

    def choices(
        self, values: dict[str, Any], where: Where, name: str, question_id: str, kind: Kind, text: str, explanation: str
    ) -> ChoiceQuestion | None:
        raw = self.items(values, "choices", where, name, "a list of at least 2 choices", 2)
        choices = []
        unclear = False  # a 'correct' that is neither true nor false: do not also say that none is marked
        for index, item in enumerate(raw):
            at, label = (*where, "choices", index), f"{name}: choice {index + 1}"
            fields = self.fields(item, at, label, CHOICE_FIELDS, "'text', and 'correct' or 'explanation'")
            if fields is None:
                continue
            correct = fields.get("correct", False)
            if not isinstance(correct, bool):
                self.add((*at, "correct"), f"{label}: 'correct' must be true or false (got {got(correct)})")
                unclear = True
            choices.append(
                Choice(
                    self.text(fields, "text", at, label),
                    correct is True,
                    self.text(fields, "explanation", at, label, required=False),
                )
            )
        marked = sum(choice.correct for choice in choices)
        if raw and marked == 0 and not unclear:
            needed = "one" if kind == "single" else "at least one"
            self.add((*where, "choices"), f"{name}: no choice is marked correct (mark {needed} with 'correct: true')")
        if kind == "single" and marked > 1:
            self.add(
                (*where, "choices"),
                f"{name}: {marked} choices are marked correct, but a single-choice question has one "
                "(use 'kind: multiple' for several)",
            )
        return ChoiceQuestion(
            question_id,
            "multiple" if kind == "multiple" else "single",
            text,
            tuple(choices),
            explanation,
            self.shuffle(values, where, name),
        )

    def sort(
        self, values: dict[str, Any], where: Where, name: str, question_id: str, text: str, explanation: str
    ) -> SortQuestion:
        buckets: list[Bucket] = []
        for index, item in enumerate(self.items(values, "buckets", where, name, "a list of at least 2 buckets", 2)):
            at, label = (*where, "buckets", index), f"{name}: bucket {index + 1}"
            fields = self.fields(item, at, label, BUCKET_FIELDS, "'id' and 'text'")
            if fields is None:
                continue
            bucket_id = self.ident(fields, at, label, " (items name their bucket by it)")
            if bucket_id is not None and bucket_id in {bucket.id for bucket in buckets}:
                self.add((*at, "id"), f"{name}: duplicate bucket id '{bucket_id}'")
            bucket_text = self.text(fields, "text", at, label)
            if bucket_id is not None:
                buckets.append(Bucket(bucket_id, bucket_text))
        known = ", ".join(dict.fromkeys(bucket.id for bucket in buckets))
        items: list[Item] = []
        for index, item in enumerate(self.items(values, "items", where, name, "a list of items to sort", 1)):
            at, label = (*where, "items", index), f"{name}: item {index + 1}"
            fields = self.fields(item, at, label, ITEM_FIELDS, "'text' and 'bucket'")
            if fields is None:
                continue
            item_text = self.text(fields, "text", at, label)
            bucket = fields.get("bucket")
            if bucket is None:
                self.add(
                    at if "bucket" not in fields else (*at, "bucket"),
                    f"{label} has no 'bucket' (expected one of: {known})",
                )
            elif str(bucket) not in {b.id for b in buckets}:
                self.add((*at, "bucket"), f"{label}: unknown bucket {got(bucket)} (expected one of: {known})")
            items.append(Item(item_text, str(bucket), self.text(fields, "explanation", at, label, required=False)))
        return SortQuestion(
            question_id, text, tuple(buckets), tuple(items), explanation, shuffle=self.shuffle(values, where, name)
        )

    def shuffle(self, values: Mapping[str, Any], where: Where, name: str) -> bool:
        """Whether the options are shown in an order of the reader's own (true unless the author says false)."""
        raw = values.get("shuffle", True)
        if not isinstance(raw, bool):
            self.add((*where, "shuffle"), f"{name}: 'shuffle' must be true or false (got {got(raw)})")
            return True
        return raw

    def numeric(
        self, values: dict[str, Any], where: Where, name: str, question_id: str, text: str, explanation: str
    ) -> NumericQuestion | None:
        before = len(self.problems)
        calculator, output = self.answer(values, where, name)
        given = self.inputs(values, where, name, calculator)
        unit, scale = self.unit(values, where, name, output)
        tolerance = self.tolerance(values, where, name)
        vary = self.vary(values, where, name, calculator)
        if calculator is None:
            return None
        shows = PLACEHOLDER.findall(text)
        for key in dict.fromkeys(shows):
            if key not in calculator.input_keys:
                self.add(
                    (*where, "text"),
                    f"{name}: the text shows {{{key}}}, which is not an input of calculator '{calculator.name}' "
                    f"(expected one of: {', '.join(calculator.input_keys)})",
                )
        for item in vary:
            if item.input not in shows:
                self.add(
                    (*where, "vary", item.input),
                    f"{name}: varies '{item.input}', but the text does not show it "
                    f"(write {{{item.input}}} where its value belongs)",
                )
        if len(self.problems) > before or output is None or scale is None or tolerance is None:
            return None
        question = NumericQuestion(
            question_id,
            text,
            calculator.name,
            output.key,
            given,
            unit,
            scale,
            tolerance,
            0.0,
            vary,
            explanation,
            spec=calculator,
        )
        # New numbers and the author's inputs together must suit the calculator (a chip picker fills some fields).
        varied = {item.input: item.first for item in vary}
        for error in calculator.check({**given, **varied}, author=True)[1]:
            at = (*where, "vary" if error.field in varied else "inputs", error.field)
            self.add(at, f"{name}: calculator '{calculator.name}': {error.message}")
        if len(self.problems) > before:
            return None
        try:
            answer = question.answer_for(question.inputs_for(given))
        except InputError as error:
            self.add((*where, "inputs"), f"{name}: calculator '{calculator.name}': {error.message}")
            return None
        if len(self.problems) > before:
            return None
        return NumericQuestion(
            question_id,
            text,
            calculator.name,
            output.key,
            given,
            unit,
            scale,
            tolerance,
            answer,
            vary,
            explanation,
            spec=calculator,
        )

    def answer(self, values: dict[str, Any], where: Where, name: str) -> tuple[Calculator | None, Output | None]:
        if "answer" not in values:
            self.add(
                where,
                f"{name} has no 'answer' (expected the calculator that computes it and which output, such as "
                "'answer: {calculator: roofline, output: attainable}')",
            )
            return None, None
        at, label = (*where, "answer"), f"{name}: answer"
        fields = self.fields(values["answer"], at, label, ANSWER_FIELDS, "'calculator' and 'output'")
        if fields is None:
            return None, None
        return self.calculator_output(fields, at, label, name)

    def tolerance(self, values: dict[str, Any], where: Where, name: str) -> Tolerance | None:
        raw = values.get("tolerance")
        if raw is None:
            self.add(
                where if "tolerance" not in values else (*where, "tolerance"),
                f"{name} has no 'tolerance' (give an absolute one, such as 'tolerance: 0.5', "
                "or a relative one, such as 'tolerance: 2%')",
            )
            return None
        relative = isinstance(raw, str) and raw.strip().endswith("%")
        number = raw.strip().rstrip("%") if isinstance(raw, str) else raw
        try:
            amount = float(number) if not isinstance(number, bool) and isinstance(number, str | int | float) else -1.0
        except ValueError:
            amount = -1.0
        if not 0 < amount < float("inf"):
            self.add(
                (*where, "tolerance"),
                f"{name}: 'tolerance' must be a number > 0 (absolute, in the answer's unit) or a percentage > 0, "
                f"such as '2%' (got {got(raw)})",
            )
            return None
        return Tolerance(amount / 100 if relative else amount, relative)
