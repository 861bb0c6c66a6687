"""The checks on an author's quiz: every problem found, each with where in the data it is.

Messages name the question and the rule, and list the valid names where a name is wrong; the build adds the file
and line. `read_quiz` is the way in; the calculators that numeric answers name are handed to it (the book's).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from .errors import InputError, shown
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
    Vary,
    Where,
    output_spec,
)
from .spec import Calculator, Input, Output, Value

__all__ = ["FIELDS", "QUIZ_FIELDS", "Reader", "quiz_variant", "read_question", "read_quiz"]

QUIZ_FIELDS = ("id", "title", "intro", "questions")
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
VARY_FIELDS = ("min", "max", "step", "choices")


def read_quiz(data: object, calculators: Mapping[str, Calculator]) -> Quiz:
    """The quiz an author wrote (YAML loaded into plain data), or QuizError listing every problem in it."""
    reader = Reader(calculators)
    quiz = reader.quiz(data)
    if reader.problems or quiz is None:
        raise QuizError(reader.problems)
    return quiz


def read_question(data: object, calculators: Mapping[str, Calculator]) -> Question:
    """One question on its own, as `read_quiz` reads each (the worker reads a numeric question's source)."""
    reader = Reader(calculators)
    question = reader.question(data, (), 1)
    if reader.problems or question is None:
        raise QuizError(reader.problems)
    return question


def quiz_variant(question: Mapping[str, object], seed: int, calculators: Mapping[str, Calculator]) -> dict[str, Any]:
    """A "new numbers" variant of a numeric question given as its `source()`: the worker's entry for quizzes."""
    parsed = read_question(question, calculators)
    if not isinstance(parsed, NumericQuestion):
        raise QuizError([QuizProblem((), f"question '{parsed.id}' is not numeric, so it has no new numbers")])
    return parsed.variant(seed).as_dict()


_ID = re.compile(r"^[A-Za-z0-9_-]+$")
_PREFIXES = {"P": 1e15, "T": 1e12, "G": 1e9, "M": 1e6, "k": 1e3, "": 1.0, "m": 1e-3, "µ": 1e-6, "n": 1e-9}
_OR_REMOVE = " (write one, or remove the line)"


def _unit_scale(unit: str, output: Output) -> float | None:
    """What the answer in `unit` is scaled by from the output's own value; None if the unit does not fit."""
    if output.format == "percent":
        return {"%": 0.01, "": 1.0}.get(unit)
    if not output.unit:
        return 1.0 if unit == "" else None
    if not unit.endswith(output.unit):
        return None
    return _PREFIXES.get(unit[: len(unit) - len(output.unit)])


def _unit_hint(output: Output) -> str:
    if output.format == "percent":
        return "write '%', or '' for a fraction"
    if not output.unit:
        return "write '' (it has no unit)"
    return f"write {output.unit}, with an SI prefix if you like (such as T{output.unit})"


def _got(value: object) -> str:
    """How a value of the wrong shape is described in a message."""
    if value is None:
        return "nothing"
    if isinstance(value, list):
        return f"a list of {len(value)}" if value else "an empty list"
    if isinstance(value, Mapping):
        return "a mapping"
    return shown(value)


class Reader:
    """Reads an author's quiz data into the model, collecting every problem rather than stopping at the first."""

    def __init__(self, calculators: Mapping[str, Calculator]) -> None:
        self.calculators = calculators  # the book's, by name: what numeric answers (and exercises) are checked against
        self.problems: list[QuizProblem] = []
        self.question_ids: dict[str, int] = {}

    def add(self, where: Where, message: str) -> None:
        self.problems.append(QuizProblem(where, message))

    def fields(
        self, data: object, where: Where, name: str, allowed: tuple[str, ...], shape: str
    ) -> dict[str, Any] | None:
        """`data` as a mapping keyed by text, with unknown keys reported; None (reported) if it is not a mapping."""
        if not isinstance(data, Mapping):
            self.add(where, f"{name} must be a mapping with {shape} (got {_got(data)})")
            return None
        values = {str(key): value for key, value in data.items()}
        for key in values:
            if key not in allowed:
                self.add((*where, key), f"{name}: unknown field '{key}' (expected one of: {', '.join(allowed)})")
        return values

    def text(self, values: Mapping[str, Any], key: str, where: Where, name: str, required: bool = True) -> str:
        raw = values.get(key)
        if raw is None:
            if key in values:
                self.add((*where, key), f"{name}: '{key}' is empty" + ("" if required else _OR_REMOVE))
            elif required:
                self.add(where, f"{name} has no '{key}'")
            return ""
        if isinstance(raw, bool) or not isinstance(raw, str | int | float):
            self.add((*where, key), f"{name}: '{key}' must be text (got {_got(raw)})")
            return ""
        text = str(raw).strip()
        if not text:
            self.add((*where, key), f"{name}: '{key}' is empty" + ("" if required else _OR_REMOVE))
        return text

    def ident(self, values: Mapping[str, Any], where: Where, name: str, hint: str = "") -> str | None:
        raw = values.get("id")
        if raw is None:
            if "id" in values:
                self.add((*where, "id"), f"{name}: 'id' is empty")
            elif hint:
                self.add(where, f"{name} has no 'id'{hint}")
            return None
        if isinstance(raw, bool) or not isinstance(raw, str | int) or not _ID.match(str(raw)):
            self.add((*where, "id"), f"{name}: 'id' must be letters, digits, '-' or '_' (got {_got(raw)})")
            return None
        return str(raw)

    def items(self, values: Mapping[str, Any], key: str, where: Where, name: str, what: str, least: int) -> list[Any]:
        """The list under `key`, with at least `least` entries; [] (reported) otherwise."""
        raw = values.get(key)
        if key not in values:
            self.add(where, f"{name} has no '{key}' (expected {what})")
            return []
        if not isinstance(raw, list) or len(raw) < least:
            self.add((*where, key), f"{name}: '{key}' must be {what} (got {_got(raw)})")
            return []
        return raw

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
            self.add(where, f"question {number} must be a mapping with 'kind' and 'text' (got {_got(data)})")
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
            self.add((*where, "kind"), f"{name}: unknown kind {_got(kind)} (expected one of: {', '.join(KINDS)})")
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
                self.add((*at, "correct"), f"{label}: 'correct' must be true or false (got {_got(correct)})")
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
                self.add((*at, "bucket"), f"{label}: unknown bucket {_got(bucket)} (expected one of: {known})")
            items.append(Item(item_text, str(bucket), self.text(fields, "explanation", at, label, required=False)))
        return SortQuestion(
            question_id, text, tuple(buckets), tuple(items), explanation, shuffle=self.shuffle(values, where, name)
        )

    def shuffle(self, values: Mapping[str, Any], where: Where, name: str) -> bool:
        """Whether the options are shown in an order of the reader's own (true unless the author says false)."""
        raw = values.get("shuffle", True)
        if not isinstance(raw, bool):
            self.add((*where, "shuffle"), f"{name}: 'shuffle' must be true or false (got {_got(raw)})")
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
        known = ", ".join(sorted(self.calculators))
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
        raw = fields.get("calculator")
        if raw is None:
            self.add(at, f"{label} has no 'calculator' (expected one of: {known})")
            return None, None
        if not isinstance(raw, str) or raw not in self.calculators:
            self.add((*at, "calculator"), f"{name}: unknown calculator {_got(raw)} (expected one of: {known})")
            return None, None
        calculator = self.calculators[raw]
        numbers = ", ".join(output.key for output in calculator.outputs if output.format != "text")
        key = fields.get("output")
        output = output_spec(calculator, str(key)) if key is not None else None
        if key is None:
            self.add(at, f"{label} has no 'output' (expected one of: {numbers})")
        elif output is None:
            self.add(
                (*at, "output"),
                f"{name}: calculator '{calculator.name}' has no output {_got(key)} (expected one of: {numbers})",
            )
        elif output.format == "text":
            self.add(
                (*at, "output"), f"{name}: output '{output.key}' is text, not a number (expected one of: {numbers})"
            )
            output = None
        return calculator, output

    def inputs(
        self, values: dict[str, Any], where: Where, name: str, calculator: Calculator | None
    ) -> dict[str, Value]:
        raw = values.get("inputs")
        if raw is None:
            return {}
        if not isinstance(raw, Mapping):
            self.add(
                (*where, "inputs"), f"{name}: 'inputs' must be a mapping of the calculator's inputs (got {_got(raw)})"
            )
            return {}
        if calculator is None:
            return {}
        label = f"{name}: calculator '{calculator.name}'"
        given: dict[str, Value] = {}
        for key, value in ((str(key), value) for key, value in raw.items()):
            spec = next((spec for spec in calculator.inputs if spec.key == key), None)
            if spec is None:
                self.add(
                    (*where, "inputs", key),
                    f"{label}: unknown input '{key}' (expected one of: {', '.join(calculator.input_keys)})",
                )
            elif value is None:
                self.add((*where, "inputs", key), f"{label}: input '{key}' has no value (give one, or remove the line)")
            else:
                try:
                    given[key] = spec.parse(value)
                except InputError as error:
                    self.add((*where, "inputs", key), f"{label}: {error.message}")
        return given

    def unit(self, values: dict[str, Any], where: Where, name: str, output: Output | None) -> tuple[str, float | None]:
        if output is None:
            return "", None
        raw = values.get("unit")
        if raw is None:
            unit = "%" if output.format == "percent" else output.unit
        elif not isinstance(raw, str):
            self.add((*where, "unit"), f"{name}: 'unit' must be text (got {_got(raw)})")
            return "", None
        else:
            unit = raw.strip()
        scale = _unit_scale(unit, output)
        if scale is None:
            own = "a percentage" if output.format == "percent" else output.unit or "no unit"
            self.add(
                (*where, "unit"),
                f"{name}: unit '{unit}' does not fit output '{output.key}' ({own}): {_unit_hint(output)}",
            )
        return unit, scale

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
                f"such as '2%' (got {_got(raw)})",
            )
            return None
        return Tolerance(amount / 100 if relative else amount, relative)

    def vary(self, values: dict[str, Any], where: Where, name: str, calculator: Calculator | None) -> tuple[Vary, ...]:
        raw = values.get("vary")
        if raw is None:
            return ()
        if not isinstance(raw, Mapping):
            self.add(
                (*where, "vary"),
                f"{name}: 'vary' must be a mapping from inputs to the values they may take (got {_got(raw)})",
            )
            return ()
        if calculator is None:
            return ()
        varies = []
        for key, spec in ((str(key), spec) for key, spec in raw.items()):
            at = (*where, "vary", key)
            input_spec = next((item for item in calculator.inputs if item.key == key), None)
            if input_spec is None:
                self.add(
                    at, f"{name}: vary: unknown input '{key}' (expected one of: {', '.join(calculator.input_keys)})"
                )
                continue
            vary = self.vary_one(spec, at, f"{name}: vary '{key}'", input_spec)
            if vary is not None:
                varies.append(vary)
        return tuple(varies)

    def vary_one(self, spec: object, at: Where, label: str, input_spec: Input) -> Vary | None:
        shape = "either 'min', 'max' and 'step', or 'choices'"
        if isinstance(spec, list):
            return self.vary_choices(spec, at, label, input_spec)
        fields = self.fields(spec, at, label, VARY_FIELDS, shape)
        if fields is None:
            return None
        ranged = [key for key in ("min", "max", "step") if key in fields]
        if "choices" in fields and not ranged:
            choices = fields["choices"]
            if not isinstance(choices, list):
                self.add((*at, "choices"), f"{label}: 'choices' must be a list (got {_got(choices)})")
                return None
            return self.vary_choices(choices, (*at, "choices"), label, input_spec)
        if "choices" in fields or len(ranged) < 3:
            self.add(at, f"{label} needs {shape}")
            return None
        bounds: list[float] = []
        for key in ("min", "max"):
            try:
                value = input_spec.parse(fields[key])
            except InputError as error:
                self.add((*at, key), f"{label}: '{key}' must be {error.rule} (got {shown(error.value)})")
                continue
            if isinstance(value, str | tuple):
                self.add((*at, key), f"{label}: '{key}' must be a number: give a choice input 'choices' instead")
                continue
            bounds.append(float(value))
        step = fields["step"]
        if isinstance(step, bool) or not isinstance(step, int | float) or not 0 < step < float("inf"):
            self.add((*at, "step"), f"{label}: 'step' must be a number > 0 (got {_got(step)})")
            return None
        if len(bounds) < 2:
            return None
        low, high = bounds
        if low > high:
            self.add((*at, "min"), f"{label}: 'min' must be <= 'max' (got {shown(low)} > {shown(high)})")
            return None
        if low + step <= high:
            try:
                input_spec.parse(float(f"{low + step:.12g}"))
            except InputError as error:
                self.add(
                    (*at, "step"), f"{label}: 'step' gives values that must be {error.rule} (got {shown(error.value)})"
                )
                return None
        return Vary(input_spec.key, low, high, float(step))

    def vary_choices(self, choices: list[Any], at: Where, label: str, input_spec: Input) -> Vary | None:
        if not choices:
            self.add(at, f"{label}: 'choices' is empty")
            return None
        parsed: list[Value] = []
        for index, choice in enumerate(choices):
            try:
                parsed.append(input_spec.parse(choice))
            except InputError as error:
                self.add((*at, index), f"{label}: choice {index + 1} must be {error.rule} (got {shown(error.value)})")
        if len(parsed) < len(choices):
            return None
        return Vary(input_spec.key, choices=tuple(parsed))
