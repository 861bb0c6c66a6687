"""Quizzes: questions and their answers, checked when the book is built and graded in the reader's browser.

An author writes a quiz as plain data (YAML in a page). `read_quiz` turns it into the frozen model below, or raises
`QuizError` listing every problem with where in the data it is (the build turns that into a file and line).
`grading_data` is what the browser grades from, with no Python. A numeric question's answer comes from running a
calculator on the question's inputs, and `NumericQuestion.variant` draws "new numbers" for practice: the same code
in CPython at build time and in Pyodide in the browser.
"""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from . import grading
from .authored import AuthoredError, AuthoredProblem, Where
from .contracts import ChoiceGrading, NumericGrading, QuizGrading, QuizToleranceData, SortGrading, VariantData
from .errors import InputError
from .spec import Calculator, Input, Output, Value
from .units import format_number

__all__ = [
    "Bucket",
    "Choice",
    "ChoiceQuestion",
    "Item",
    "NumericQuestion",
    "Question",
    "Quiz",
    "QuizError",
    "QuizProblem",
    "SortQuestion",
    "Tolerance",
    "Variant",
    "Vary",
    "Where",
    "grading_data",
    "shown_order",
]

Kind = Literal["single", "multiple", "sort", "numeric"]
KINDS: tuple[Kind, ...] = ("single", "multiple", "sort", "numeric")

PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")  # `{intensity}` in a numeric question's text
PLACEHOLDER_AND_NOUN = re.compile(PLACEHOLDER.pattern + r"( [a-z][a-z-]*s\b)?")  # and a plural noun after it
_DRAWS = 25  # attempts at numbers that differ from the author's and that the calculator accepts


# One error type for everything an author writes (calckit.authored): these names are the quiz's words for it.
QuizError = AuthoredError
QuizProblem = AuthoredProblem


@dataclass(frozen=True)
class Choice:
    text: str
    correct: bool = False
    explanation: str = ""


@dataclass(frozen=True)
class ChoiceQuestion:
    """Single choice (one correct answer, radio buttons) or multiple choice (one or more, checkboxes)."""

    id: str
    kind: Literal["single", "multiple"]
    text: str
    choices: tuple[Choice, ...]
    explanation: str = ""
    shuffle: bool = True  # false keeps the author's order (options ordered by meaning: ranges, "all of the above")

    @property
    def correct(self) -> tuple[int, ...]:
        return tuple(index for index, choice in enumerate(self.choices) if choice.correct)

    def grade(self, chosen: Iterable[int]) -> bool:
        """Right when exactly the correct choices are picked."""
        return set(chosen) == set(self.correct)

    def grading_data(self) -> ChoiceGrading:
        return {
            "id": self.id,
            "kind": self.kind,
            "explanation": self.explanation,
            "correct": list(self.correct),
            "choices": [choice.explanation for choice in self.choices],
            "shuffle": self.shuffle,
        }

    def shown_order(self, salt: str) -> list[int]:
        """The order the build shows the choices in (see `shown_order`)."""
        return shown_order(len(self.choices), salt) if self.shuffle else list(range(len(self.choices)))


@dataclass(frozen=True)
class Bucket:
    id: str
    text: str


@dataclass(frozen=True)
class Item:
    text: str
    bucket: str
    explanation: str = ""


@dataclass(frozen=True)
class SortQuestion:
    """Items to sort into buckets; each item has one right bucket."""

    id: str
    text: str
    buckets: tuple[Bucket, ...]
    items: tuple[Item, ...]
    explanation: str = ""
    kind: Literal["sort"] = "sort"
    shuffle: bool = True  # false keeps the author's order of the items

    def grade_items(self, placed: Mapping[int, str]) -> tuple[bool, ...]:
        """For each item, whether `placed` (item index -> bucket id) puts it in its bucket."""
        return tuple(placed.get(index) == item.bucket for index, item in enumerate(self.items))

    def grade(self, placed: Mapping[int, str]) -> bool:
        return all(self.grade_items(placed))

    def grading_data(self) -> SortGrading:
        return {
            "id": self.id,
            "kind": self.kind,
            "explanation": self.explanation,
            "buckets": {bucket.id: bucket.text for bucket in self.buckets},
            "items": [{"bucket": item.bucket, "explanation": item.explanation} for item in self.items],
            "shuffle": self.shuffle,
        }

    def shown_order(self, salt: str) -> list[int]:
        """The order the build shows the items in (see `shown_order`)."""
        return shown_order(len(self.items), salt) if self.shuffle else list(range(len(self.items)))


@dataclass(frozen=True)
class Tolerance(grading.Tolerance):
    """How far from the answer a reply may be (calckit.grading's rule: a relative amount is a fraction), and how a
    reader is told it."""

    def text(self, unit: str) -> str:
        """As readers see it: '± 2%', '± 0.5 TFLOP/s', '± 1 percentage point'."""
        if self.relative:
            return f"± {format_number(self.amount * 100)}%"
        if unit == "%":
            return f"± {format_number(self.amount)} percentage point{'' if self.amount == 1 else 's'}"
        return f"± {format_number(self.amount, unit)}"

    def source(self) -> float | str:
        return f"{float(f'{self.amount * 100:.12g}')!r}%" if self.relative else self.amount

    def as_dict(self, unit: str = "") -> QuizToleranceData:
        return {"amount": self.amount, "relative": self.relative, "text": self.text(unit)}


@dataclass(frozen=True)
class Vary:
    """The values one input may take in "new numbers": min to max by step, or a list of choices."""

    input: str
    min: float = 0.0
    max: float = 0.0
    step: float = 0.0
    choices: tuple[Value, ...] = ()

    def draw(self, rng: random.Random) -> Value:
        if self.choices:
            return self.choices[rng.randrange(len(self.choices))]
        count = int((self.max - self.min) / self.step + 1e-9) + 1
        # Twelve significant digits drop the float noise of min + k * step (0.30000000000000004).
        return float(f"{self.min + rng.randrange(count) * self.step:.12g}")

    @property
    def first(self) -> Value:
        return self.choices[0] if self.choices else self.min

    def source(self) -> dict[str, Any]:
        if self.choices:
            return {"choices": list(self.choices)}
        return {"min": self.min, "max": self.max, "step": self.step}


@dataclass(frozen=True)
class Variant:
    """One set of numbers for a numeric question: the inputs, the question with them filled in, and its answer."""

    seed: int
    inputs: Mapping[str, Value] = field(hash=False)
    text: str
    answer: float
    answer_text: str
    values: tuple[str, ...] = ()  # what stands for each `{input}` of the text, in order (NumericQuestion.shown_values)

    def as_dict(self) -> VariantData:
        return {
            "seed": self.seed,
            "inputs": _plain(self.inputs),
            "text": self.text,
            "values": list(self.values),
            "answer": self.answer,
            "answer_text": self.answer_text,
        }


@dataclass(frozen=True)
class NumericQuestion:
    """A number to work out, in `unit`, whose answer is a calculator's `output` for the question's inputs."""

    id: str
    text: str  # as written: `{intensity}` stands for that input's value
    calculator: str
    output: str
    given: Mapping[str, Value] = field(hash=False)  # the inputs the author wrote, parsed
    unit: str
    scale: float  # the output in its own unit divided by this is the answer in `unit` (1e12 for TFLOP/s)
    tolerance: Tolerance
    answer: float  # for the author's inputs, in `unit`
    vary: tuple[Vary, ...] = ()
    explanation: str = ""
    kind: Literal["numeric"] = "numeric"
    spec: Calculator | None = field(default=None, compare=False, repr=False)  # the calculator named: the reader sets it

    def _calculator(self) -> Calculator:
        if self.spec is None:
            raise ValueError(f"question '{self.id}' was made without its calculator (read it with read_question)")
        return self.spec

    def inputs_for(self, given: Mapping[str, Value]) -> dict[str, Value]:
        """Every input of the calculator for these given ones (defaults, and a chip's figures, filled in)."""
        values, errors = self._calculator().check(given)
        if errors:
            raise errors[0]
        return values

    def answer_for(self, inputs: Mapping[str, Value]) -> float:
        """The answer, in the question's unit, for a full set of checked inputs; InputError if there is none."""
        value = self._calculator().evaluate(inputs).values[self.output]
        if isinstance(value, str | tuple):
            raise InputError(self.output, "a number for these inputs", value)
        return value / self.scale

    def answer_text(self, answer: float) -> str:
        spec = output_spec(self._calculator(), self.output)
        digits = spec.digits if spec else 3
        return (
            format_number(answer, digits=digits) + "%" if self.unit == "%" else format_number(answer, self.unit, digits)
        )

    def shown_text(self, inputs: Mapping[str, Value]) -> str:
        """The question with each `{input}` replaced by its value as a reader should see it.

        A value of 1 takes the singular of the plural noun after it: "a batch of 1 sequence", "takes 1 byte".
        """
        values = iter(self.shown_values(inputs))
        return PLACEHOLDER_AND_NOUN.sub(lambda _: next(values), self.text)

    def shown_values(self, inputs: Mapping[str, Value]) -> list[str]:
        """What stands in the text for each `{input}` (and the plural noun after it), in the text's order: a page
        puts these words in place when a reader asks for new numbers."""
        specs = {spec.key: spec for spec in self._calculator().inputs}
        shown = []
        for match in PLACEHOLDER_AND_NOUN.finditer(self.text):
            value = _value_text(specs[match[1]], inputs[match[1]])
            noun = match[2] or ""
            shown.append(value + (_singular(noun) if value == "1" and noun else noun))
        return shown

    def grade(self, given: float, answer: float | None = None) -> bool:
        return self.tolerance.allows(given, self.answer if answer is None else answer)

    def variant(self, seed: int) -> Variant:
        """Fresh numbers for the varied inputs, drawn from `seed` (the same seed gives the same variant)."""
        rng = random.Random(seed)
        author = self.inputs_for(self.given)
        found: Variant | None = None
        for _ in range(_DRAWS):
            given = dict(self.given)
            for vary in self.vary:
                given[vary.input] = vary.draw(rng)
            try:
                inputs = self.inputs_for(given)
                answer = self.answer_for(inputs)
            except InputError:
                continue
            found = self._variant(seed, inputs, answer)
            if inputs != author:
                break
        return found or self._variant(seed, author, self.answer)  # no draw worked: the question as written

    def _variant(self, seed: int, inputs: dict[str, Value], answer: float) -> Variant:
        shown = tuple(self.shown_values(inputs))
        return Variant(seed, inputs, self.shown_text(inputs), answer, self.answer_text(answer), shown)

    def source(self) -> dict[str, Any]:
        """The question as data that `read_question` reads back: what the browser hands the worker for a variant."""
        data: dict[str, Any] = {
            "id": self.id,
            "kind": self.kind,
            "text": self.text,
            "inputs": _plain(self.given),
            "answer": {"calculator": self.calculator, "output": self.output},
            "unit": self.unit,
            "tolerance": self.tolerance.source(),
        }
        if self.vary:
            data["vary"] = {vary.input: vary.source() for vary in self.vary}
        return data

    def grading_data(self) -> NumericGrading:
        inputs = self.inputs_for(self.given)
        return {
            "id": self.id,
            "kind": self.kind,
            "explanation": self.explanation,
            "text": self.shown_text(inputs),
            "inputs": _plain(inputs),
            "answer": self.answer,
            "answer_text": self.answer_text(self.answer),
            "unit": self.unit,
            "tolerance": self.tolerance.as_dict(self.unit),
            "variant": self.source() if self.vary else None,
        }


Question = ChoiceQuestion | SortQuestion | NumericQuestion


@dataclass(frozen=True)
class Quiz:
    id: str  # progress is saved under it
    questions: tuple[Question, ...]
    title: str = ""
    intro: str = ""


def grading_data(quiz: Quiz) -> QuizGrading:
    """What the browser grades from, as JSON-ready data: the answer keys and explanations, in question order."""
    return {"id": quiz.id, "questions": [question.grading_data() for question in quiz.questions]}


def shown_order(count: int, salt: str) -> list[int]:
    """A fixed shuffle of `count` options, drawn from `salt` (the quiz's and the question's ids).

    Authors write the right answer wherever they like; readers must not find it by its place. The page is built in
    this order, so that it gives nothing away before any script runs; the browser then shows each reader an order of
    their own (`quiz.js`), which stays the same across their reloads. Answers are saved by option, not by place.
    """
    seed = int.from_bytes(hashlib.sha256(salt.encode()).digest()[:8], "big")
    order = list(range(count))
    random.Random(seed).shuffle(order)
    return order


def _plain(inputs: Mapping[str, Value]) -> dict[str, Any]:
    """Inputs as JSON-ready data (several choices as a list)."""
    return {key: list(value) if isinstance(value, tuple) else value for key, value in inputs.items()}


def _singular(noun: str) -> str:
    """' sequences' -> ' sequence', ' bytes' -> ' byte', ' batches' -> ' batch'; other words stay as they are."""
    if noun.strip() in ("is", "was", "has", "as", "its", "this", "plus", "less", "times", "minus"):
        return noun
    for ending in ("ches", "shes", "sses", "xes"):
        if noun.endswith(ending):
            return noun[:-2]
    return noun[:-1]


def _value_text(spec: Input, value: Value) -> str:
    """An input's value as the question shows it: 0.819, 1,000, 197, or a choice's label.

    A choice whose value is a number (bytes per parameter: '1', labelled '1 (FP8 / INT8)') shows the number, which is
    what the question's sentence means by it.
    """
    if isinstance(value, str) and _is_number(value):
        return value
    labels = {choice.value: choice.label for choice in spec.choices}
    if isinstance(value, tuple):
        return ", ".join(labels.get(item, item) for item in value)
    if isinstance(value, str):
        return labels.get(value, value)
    if float(value).is_integer() and abs(value) < 1e15:
        return f"{int(value):,}"
    text = f"{value:,}"
    return format_number(value) if "e" in text else text


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def output_spec(calculator: Calculator, key: str) -> Output | None:
    return next((output for output in calculator.outputs if output.key == key), None)
