"""The HTML of a quiz: every question readable before any script runs, and the answer key as data for `quiz.js`.

What an author writes is Markdown with the page's extensions (pages/authored_text.py): a question, its options and
buckets, the explanations, the intro. A question may hold blocks (a code block, a list); an option, a bucket and an
item are one line each. Explanations wait in `<template>`s beside what they explain, for `quiz.js` to show after a
Check: typeset with the page's math, and kept out of search and print. The answer key travels in a `data-` attribute
holding JSON, not in a `<script>`: Material's instant navigation re-runs a new page's scripts without their type.
The class names and data attributes here are the contract with `quiz.js`.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from html import escape, unescape
from typing import TYPE_CHECKING, Any, cast

from ...pages.authored_text import is_line

if TYPE_CHECKING:
    from calckit.contracts import QuizPageData
    from calckit.quiz import ChoiceQuestion, NumericQuestion, Question, Quiz, SortQuestion, Where

    from ...i18n import Strings
    from ...pages.authored_text import AuthoredText

__all__ = ["QuizHtml", "authored_html", "old_anchor_attribute", "quiz_version", "render_quiz"]


_TAG = re.compile(r"(<[^>]*>)")
_VALUE = re.compile(r'(<span class="quiz-value">)([^<]*)(</span>)')
_FIRST_PARAGRAPH = re.compile(r"\s*<p>((?:(?!</?p[ >]).)*)</p>\s*", re.DOTALL)


@dataclass(frozen=True)
class QuestionHtml:
    """One question's author text as HTML."""

    text: str  # the question: a line, or blocks; a numeric question's values each in a <span class="quiz-value">
    explanation: str = ""  # blocks
    options: tuple[str, ...] = ()  # the choices, or the items to sort: a line each
    reasons: tuple[str, ...] = ()  # each option's explanation, "" where there is none
    buckets: tuple[str, ...] = ()  # a sort question's buckets: a line each


@dataclass(frozen=True)
class QuizHtml:
    intro: str
    questions: tuple[QuestionHtml, ...]


def authored_html(quiz: Quiz, text: AuthoredText) -> tuple[QuizHtml, list[tuple[Where, str]]]:
    """Every text of `quiz` as HTML, and each problem with where in the quiz's data it is: an option that is not one
    line, a numeric question's `{input}` where a page cannot put new numbers (a formula, a link's address)."""
    problems: list[tuple[Where, str]] = []

    def line(where: Where, source: str, what: str) -> str:
        html = text.inline(source)
        if not is_line(html):
            problems.append(
                (
                    where,
                    f"{what} must be one line of Markdown (a code block, a list or a second "
                    "paragraph goes in the question's text or its explanation)",
                )
            )
        return html

    questions = []
    for index, question in enumerate(quiz.questions):
        where: Where = ("questions", index)
        name = f"question '{question.id}'"
        shown = text.inline(question.text)
        explanation = text.block(question.explanation)
        if question.kind == "numeric":
            shown, problem = _with_values(shown, question.shown_values(question.inputs_for(question.given)))
            if problem:
                problems.append(((*where, "text"), f"{name}: {problem}"))
            questions.append(QuestionHtml(shown, explanation))
        elif question.kind == "sort":
            items = tuple(
                line((*where, "items", number, "text"), item.text, f"{name}, item {number + 1}")
                for number, item in enumerate(question.items)
            )
            buckets = tuple(
                line((*where, "buckets", number, "text"), bucket.text, f"{name}, bucket '{bucket.id}'")
                for number, bucket in enumerate(question.buckets)
            )
            reasons = tuple(text.inline(item.explanation) for item in question.items)
            questions.append(QuestionHtml(shown, explanation, items, reasons, buckets))
        else:
            choices = tuple(
                line((*where, "choices", number, "text"), choice.text, f"{name}, choice {number + 1}")
                for number, choice in enumerate(question.choices)
            )
            reasons = tuple(text.inline(choice.explanation) for choice in question.choices)
            questions.append(QuestionHtml(shown, explanation, choices, reasons))
    return QuizHtml(text.block(quiz.intro), tuple(questions)), problems


def _with_values(html: str, values: list[str]) -> tuple[str, str]:
    """A numeric question's HTML with each `{input}` (and its noun) in a <span class="quiz-value"> holding its value,
    which new numbers replace; and what is wrong when a placeholder is where no value can go."""
    from calckit.quiz import PLACEHOLDER, PLACEHOLDER_AND_NOUN

    shown = iter(values)
    parts, in_math, problem = _TAG.split(html), False, ""
    for at, part in enumerate(parts):
        found = PLACEHOLDER.search(part)
        if at % 2:  # a tag: the one that opens a formula, the one that closes it, or another
            if part.startswith(('<span class="arithmatex"', '<div class="arithmatex"')):
                in_math = True
            elif in_math and part.startswith(("</span", "</div")):
                in_math = False
            elif found:
                problem = f"{found[0]} is inside a link's address, where new numbers cannot go"
        elif in_math and found:
            problem = f"{found[0]} is inside a formula, which is typeset at build: write it outside the $...$"
        else:
            parts[at] = PLACEHOLDER_AND_NOUN.sub(
                lambda _: f'<span class="quiz-value">{escape(next(shown, ""))}</span>', part
            )
    return "".join(parts), problem


def _plain(html: str) -> str:
    """The words of a line of HTML, for an attribute (an accessible name)."""
    return " ".join(unescape(_TAG.sub("", html)).split())


def _page_data(quiz: Quiz) -> QuizPageData:
    """The answer key as the page carries it: `grading_data`, less the explanations (the page has them as HTML, in
    templates), with each numeric question's values in place of its `{input}`s (what new numbers replace)."""
    from calckit.quiz import grading_data

    data: dict[str, Any] = dict(grading_data(quiz))
    questions = []
    for question, key in zip(quiz.questions, data["questions"], strict=True):
        shown: dict[str, Any] = {name: value for name, value in key.items() if name != "explanation"}
        if question.kind == "numeric":
            shown["values"] = question.shown_values(question.inputs_for(question.given))
            del shown["text"]
        elif question.kind == "sort":
            shown["items"] = [{"bucket": item["bucket"]} for item in shown["items"]]
        else:
            shown["choices"] = len(shown["choices"])
        questions.append(shown)
    return cast("QuizPageData", data | {"questions": questions})  # tests/unit/test_contracts.py checks its keys


def _json(data: object) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False, allow_nan=False, sort_keys=True)


def old_anchor_attribute(old_anchor: str) -> str:
    """The attribute by which entry.js finds a block that a link to its old, numbered anchor means (`#quiz-2`)."""
    return f' data-old-anchor="{escape(old_anchor)}"' if old_anchor else ""


def quiz_version(quiz: Quiz) -> str:
    """Saved progress is dropped when the answer key changes, so an edited question never shows a stale verdict."""
    from calckit.quiz import grading_data

    return hashlib.sha256(_json(grading_data(quiz)).encode()).hexdigest()[:12]


def render_quiz(uid: str, quiz: Quiz, html: QuizHtml, key: str, s: Strings, old_anchor: str = "") -> str:
    """The quiz with id `uid` in the page, its author's text as `html` (authored_html); `key` is where the reader's
    progress is saved; `old_anchor` is the anchor that links made before anchors followed ids name it by (entry.js
    sends them on to `uid`); `s` the plugin's words in the book's language."""
    version = quiz_version(quiz)
    data = _json(_page_data(quiz))
    total = len(quiz.questions)
    questions = "".join(
        _question(f"{uid}-q{number}", question, shown, (number, total), f"{quiz.id}/{question.id}", s)
        for number, (question, shown) in enumerate(zip(quiz.questions, html.questions, strict=True), 1)
    )
    # A numeric question's values, written as the language writes numbers (quiz_numeric.js writes new ones so).
    questions = _VALUE.sub(lambda value: value[1] + s.number(value[2]) + value[3], questions)
    intro = f'<div class="quiz-intro">{html.intro}</div>' if html.intro else ""
    return (
        f'<div class="quiz" id="{uid}" role="group" aria-labelledby="{uid}-title"{old_anchor_attribute(old_anchor)} '
        f'data-quiz="{escape(quiz.id)}" '
        f'data-quiz-key="{escape(key)}" data-quiz-version="{version}" data-quiz-data="{escape(data)}">'
        f'<p class="quiz-title" id="{uid}-title">{escape(quiz.title) if quiz.title else s.html("quiz.title")}</p>'
        f"{intro}"
        f'<div class="quiz-questions">{questions}</div>'
        # After the questions, so that hiding it as the quiz mounts moves none of them.
        f'<p class="quiz-note" data-search-exclude data-file-text="{s.html("quiz.file")}">{s.html("quiz.note")}</p>'
        # Each part of the footer is out of search, not the footer: Material's search parser tells elements apart by
        # their tag alone, so an excluded <div> is searched again after the first </div> inside it.
        '<div class="quiz-footer" hidden>'
        '<div class="quiz-nav" data-search-exclude>'
        f'<button type="button" class="quiz-prev md-button">{s.html("quiz.previous")}</button>'
        f'<button type="button" class="quiz-next md-button">{s.html("quiz.next")}</button>'
        "</div>"
        f'<p class="quiz-score" role="status" data-search-exclude>{s.html("quiz.score", right=0, total=total)}</p>'
        f'<button type="button" class="quiz-reset md-button" data-search-exclude>{s.html("quiz.reset")}</button>'
        '<p class="quiz-undo" data-search-exclude hidden><span role="status"></span> '
        f'<button type="button" class="quiz-undo-button md-button">{s.html("quiz.undo")}</button></p>'
        "</div>"
        "</div>"
    )


def _template(class_name: str, html: str) -> str:
    """An explanation, shown by quiz.js after a Check: out of search (it gives the answer away) and of print."""
    return f'<template class="{class_name}" data-search-exclude>{html}</template>' if html else ""


def _question(qid: str, question: Question, html: QuestionHtml, place: tuple[int, int], salt: str, s: Strings) -> str:
    """One question, `place` its number and the quiz's count; `salt` draws the order its options are built in."""
    inputs, new = "", ""
    if question.kind == "sort":
        body = _sort(qid, question, html, question.shown_order(salt), s)
    elif question.kind == "numeric":
        body = _numeric(qid, question, s)
        inputs = f' data-inputs="{escape(_json(question.grading_data()["inputs"]))}"'
        if question.vary:
            new = f'<button type="button" class="quiz-new md-button" hidden>{s.html("quiz.new")}</button>'
    else:
        body = _choices(qid, question, html, question.shown_order(salt), s)
    # A legend holds a line: a question that is more than one starts there and goes on below it.
    line, more = _legend_and_rest(html.text)
    more = f'<div class="quiz-text-more">{more}</div>' if more else ""
    return (
        f'<form class="quiz-question" id="{qid}" data-question="{escape(question.id)}" data-kind="{question.kind}"'
        f"{inputs} novalidate>"
        "<fieldset>"
        f'<legend class="quiz-legend" id="{qid}-legend" tabindex="-1">'
        f'<span class="quiz-counter" data-search-exclude>{s.html("quiz.counter", number=place[0], total=place[1])}'
        "</span> "
        f'<span class="quiz-text">{line}</span></legend>'
        f"{more}{body}"
        "</fieldset>"
        '<div class="quiz-actions" data-search-exclude>'
        f'<button type="submit" class="quiz-check md-button md-button--primary">{s.html("quiz.check")}</button>'
        f'<button type="button" class="quiz-retry md-button" hidden>{s.html("quiz.retry")}</button>'
        f"{new}"
        "</div>"
        '<p class="quiz-status" role="status" data-search-exclude></p>'
        '<div class="quiz-feedback" aria-live="polite" data-search-exclude></div>'
        f"{_template('quiz-explanation', html.explanation)}"
        "</form>"
    )


def _legend_and_rest(html: str) -> tuple[str, str]:
    """A question's line for its legend (a legend holds a line, and names the question), and the blocks after it."""
    if is_line(html):
        return html, ""
    first = _FIRST_PARAGRAPH.match(html)
    return (first[1], html[first.end() :].strip()) if first else ("", html)


def _choices(qid: str, question: ChoiceQuestion, html: QuestionHtml, order: list[int], s: Strings) -> str:
    single = question.kind == "single"
    hint = s.html("quiz.choose.one" if single else "quiz.choose.many")
    choices = "".join(
        f'<div class="quiz-choice" data-choice="{index}">'
        f'<label><input type="{"radio" if single else "checkbox"}" name="{qid}-choice" value="{index}">'
        f'<span class="quiz-choice-text">{html.options[index]}</span></label>'
        '<div class="quiz-mark" hidden></div>'
        f"{_template('quiz-why', html.reasons[index])}"
        "</div>"
        for index in order
    )
    return f'<p class="quiz-hint" data-search-exclude>{hint}</p><div class="quiz-choices">{choices}</div>'


def _sort(qid: str, question: SortQuestion, html: QuestionHtml, order: list[int], s: Strings) -> str:
    items = "".join(
        f'<li class="quiz-slot" data-item="{index}">'
        f'<button type="button" class="quiz-item" aria-pressed="false">{html.options[index]}</button>'
        '<div class="quiz-mark" hidden></div>'
        f"{_template('quiz-why', html.reasons[index])}"
        "</li>"
        for index in order
    )
    buckets = "".join(
        _zone(qid, bucket.id, shown, "") for bucket, shown in zip(question.buckets, html.buckets, strict=True)
    )
    return (
        f'<p class="quiz-hint" id="{qid}-help" data-search-exclude>{s.html("quiz.sort.help")}</p>'
        '<div class="quiz-sort">'
        f"{_zone(qid, '', s.html('quiz.sort.pool'), items)}"
        f'<div class="quiz-buckets">{buckets}</div>'
        "</div>"
        '<p class="quiz-announce" aria-live="assertive" data-search-exclude></p>'
    )


def _zone(qid: str, zone: str, label: str, items: str) -> str:
    """A place items can go: the pool (zone '') or a bucket (`label`: its line of HTML). Its button is the target
    for a tap or a key."""
    kind = "quiz-bucket" if zone else "quiz-pool"
    unsearched = "" if zone else " data-search-exclude"  # the pool's name is the quiz's words, not the author's
    return (
        f'<div class="quiz-zone {kind}" data-zone="{escape(zone)}">'
        f'<button type="button" class="quiz-target" aria-describedby="{qid}-help"{unsearched}>{label}</button>'
        f'<ul class="quiz-items" aria-label="{escape(_plain(label))}">{items}</ul>'
        "</div>"
    )


def _tolerance(question: NumericQuestion, s: Strings) -> str:
    """calckit's `Tolerance.text` in the book's language: its figures as the language writes them, and its words
    ('± 1 percentage point') from the catalogue."""
    from calckit.units import format_number

    tolerance = question.tolerance
    if question.unit == "%" and not tolerance.relative:
        count = 1 if tolerance.amount == 1 else 2
        return s.plural("quiz.tolerance.points", count, amount=s.number(format_number(tolerance.amount)))
    return s.number(tolerance.text(question.unit))


def _numeric(qid: str, question: NumericQuestion, s: Strings) -> str:
    unit = f' <span class="quiz-unit">({escape(question.unit)})</span>' if question.unit else ""
    return (
        '<div class="quiz-numeric" data-search-exclude>'
        f'<label for="{qid}-answer">{s.html("quiz.answer")}{unit}</label>'
        f'<input id="{qid}-answer" name="answer" type="text" inputmode="decimal" autocomplete="off" '
        f'spellcheck="false" aria-describedby="{qid}-tolerance">'
        f'<p class="quiz-hint" id="{qid}-tolerance">'
        f"{s.html('quiz.tolerance', tolerance=_tolerance(question, s))}</p>"
        "</div>"
    )
