"""The HTML of a quiz: every question readable before any script runs, and the answer key as data for `quiz.js`.

Everything an author wrote is escaped; `quiz.js` only ever sets text. The answer key travels in a `data-` attribute
holding JSON, not in a `<script>`: Material's instant navigation re-runs a new page's scripts without their type.
The class names and data attributes here are the contract with `quiz.js`.
"""

from __future__ import annotations

import hashlib
import json
from html import escape
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from calckit.quiz import ChoiceQuestion, NumericQuestion, Question, Quiz, SortQuestion

__all__ = ["old_anchor_attribute", "render_quiz"]


SORT_HELP = (
    "Pick an item, then the bucket it belongs in: click or tap each, or press Enter on each. With a mouse you can "
    "also drag an item onto a bucket. While an item is picked, the arrow keys move between buckets and Escape puts it "
    "back."
)


def _json(data: object) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False, allow_nan=False, sort_keys=True)


def old_anchor_attribute(old_anchor: str) -> str:
    """The attribute by which entry.js finds a block that a link to its old, numbered anchor means (`#quiz-2`)."""
    return f' data-old-anchor="{escape(old_anchor)}"' if old_anchor else ""


def render_quiz(uid: str, quiz: Quiz, key: str, old_anchor: str = "") -> str:
    """The quiz with id `uid` in the page; `key` is where the reader's progress is saved; `old_anchor` is the anchor
    that links made before anchors followed ids name it by (entry.js sends them on to `uid`)."""
    from calckit.quiz import grading_data

    data = _json(grading_data(quiz))
    # Saved progress is dropped when the quiz changes, so an edited question never shows a stale verdict.
    version = hashlib.sha256(data.encode()).hexdigest()[:12]
    total = len(quiz.questions)
    questions = "".join(
        _question(f"{uid}-q{number}", question, number, total, f"{quiz.id}/{question.id}")
        for number, question in enumerate(quiz.questions, 1)
    )
    intro = f'<p class="quiz-intro">{escape(quiz.intro)}</p>' if quiz.intro else ""
    return (
        f'<div class="quiz" id="{uid}" role="group" aria-labelledby="{uid}-title"{old_anchor_attribute(old_anchor)} '
        f'data-quiz="{escape(quiz.id)}" '
        f'data-quiz-key="{escape(key)}" data-quiz-version="{version}" data-quiz-data="{escape(data)}">'
        f'<p class="quiz-title" id="{uid}-title">{escape(quiz.title or "Quiz")}</p>{intro}'
        f'<div class="quiz-questions">{questions}</div>'
        # After the questions, so that hiding it as the quiz mounts moves none of them.
        '<p class="quiz-note">Answers are checked by a script on this page, which needs the site served over http.</p>'
        '<div class="quiz-footer" hidden>'
        '<div class="quiz-nav">'
        '<button type="button" class="quiz-prev md-button">Previous</button>'
        '<button type="button" class="quiz-next md-button">Next</button>'
        "</div>"
        f'<p class="quiz-score" role="status">Score: 0 of {total}</p>'
        '<button type="button" class="quiz-reset md-button">Reset quiz</button>'
        '<p class="quiz-undo" hidden><span role="status"></span> '
        '<button type="button" class="quiz-undo-button md-button">Undo reset</button></p>'
        "</div>"
        "</div>"
    )


def _question(qid: str, question: Question, number: int, total: int, salt: str) -> str:
    """One question; `salt` draws the order its options are built in."""
    text, inputs, new = question.text, "", ""
    if question.kind == "sort":
        body = _sort(qid, question, question.shown_order(salt))
    elif question.kind == "numeric":
        body = _numeric(qid, question)
        data = question.grading_data()
        text, inputs = data["text"], f' data-inputs="{escape(_json(data["inputs"]))}"'
        if question.vary:
            new = '<button type="button" class="quiz-new md-button" hidden>New numbers</button>'
    else:
        body = _choices(qid, question, question.shown_order(salt))
    return (
        f'<form class="quiz-question" id="{qid}" data-question="{escape(question.id)}" data-kind="{question.kind}"'
        f"{inputs} novalidate>"
        "<fieldset>"
        f'<legend class="quiz-legend" id="{qid}-legend" tabindex="-1">'
        f'<span class="quiz-counter">Question {number} of {total}</span> '
        f'<span class="quiz-text">{escape(text)}</span></legend>'
        f"{body}"
        "</fieldset>"
        '<div class="quiz-actions">'
        '<button type="submit" class="quiz-check md-button md-button--primary">Check</button>'
        '<button type="button" class="quiz-retry md-button" hidden>Try again</button>'
        f"{new}"
        "</div>"
        '<p class="quiz-status" role="status"></p>'
        '<div class="quiz-feedback" aria-live="polite"></div>'
        "</form>"
    )


def _choices(qid: str, question: ChoiceQuestion, order: list[int]) -> str:
    single = question.kind == "single"
    hint = "Choose one answer." if single else "Choose every answer that applies."
    choices = "".join(
        f'<div class="quiz-choice" data-choice="{index}">'
        f'<label><input type="{"radio" if single else "checkbox"}" name="{qid}-choice" value="{index}">'
        f'<span class="quiz-choice-text">{escape(question.choices[index].text)}</span></label>'
        '<div class="quiz-mark" hidden></div>'
        "</div>"
        for index in order
    )
    return f'<p class="quiz-hint">{hint}</p><div class="quiz-choices">{choices}</div>'


def _sort(qid: str, question: SortQuestion, order: list[int]) -> str:
    items = "".join(
        f'<li class="quiz-slot" data-item="{index}">'
        f'<button type="button" class="quiz-item" aria-pressed="false">{escape(question.items[index].text)}</button>'
        '<div class="quiz-mark" hidden></div>'
        "</li>"
        for index in order
    )
    buckets = "".join(_zone(qid, bucket.id, bucket.text, "") for bucket in question.buckets)
    return (
        f'<p class="quiz-hint" id="{qid}-help">{escape(SORT_HELP)}</p>'
        '<div class="quiz-sort">'
        f"{_zone(qid, '', 'Not sorted yet', items)}"
        f'<div class="quiz-buckets">{buckets}</div>'
        "</div>"
        '<p class="quiz-announce" aria-live="assertive"></p>'
    )


def _zone(qid: str, zone: str, label: str, items: str) -> str:
    """A place items can go: the pool (zone '') or a bucket. Its button is the target for a tap or a key."""
    kind = "quiz-bucket" if zone else "quiz-pool"
    return (
        f'<div class="quiz-zone {kind}" data-zone="{escape(zone)}">'
        f'<button type="button" class="quiz-target" aria-describedby="{qid}-help">{escape(label)}</button>'
        f'<ul class="quiz-items" aria-label="{escape(label)}">{items}</ul>'
        "</div>"
    )


def _numeric(qid: str, question: NumericQuestion) -> str:
    unit = f' <span class="quiz-unit">({escape(question.unit)})</span>' if question.unit else ""
    return (
        '<div class="quiz-numeric">'
        f'<label for="{qid}-answer">Your answer{unit}</label>'
        f'<input id="{qid}-answer" name="answer" type="text" inputmode="decimal" autocomplete="off" '
        f'spellcheck="false" aria-describedby="{qid}-tolerance">'
        f'<p class="quiz-hint" id="{qid}-tolerance">Answers within '
        f"{escape(question.tolerance.text(question.unit))} count as right.</p>"
        "</div>"
    )
