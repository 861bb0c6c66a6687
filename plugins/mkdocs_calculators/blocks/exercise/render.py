"""The HTML of an exercise: the prompt, the starter code and the hints readable before any script runs, and how to
draw its cases, as data for `exercise.js`, which turns the starter into an editor and runs the reader's code in an
exercise worker of its own. The page carries no expected value: the calculators' worker computes them for each Check.

The prompt and the hints are Markdown with the page's extensions (pages/authored_text.py: code, emphasis, links, math;
raw HTML stays text); the title and the code are text. The checking data travels in a `data-`
attribute holding JSON (Material's instant navigation re-runs a new page's scripts without their type). The class
names and data attributes here are the contract with `exercise.js`.
"""

from __future__ import annotations

import hashlib
import json
from html import escape
from typing import TYPE_CHECKING

from ..quiz.render import old_anchor_attribute

if TYPE_CHECKING:
    from calckit.contracts import ExercisePageData
    from calckit.exercise import Exercise
    from calckit.spec import Calculator

    from ...i18n import Strings
    from ...pages.authored_text import AuthoredText

__all__ = ["exercise_version", "render_exercise"]


def _json(data: object) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False, allow_nan=False, sort_keys=True)


def _task(exercise: Exercise, calculators_page: str, calculator: Calculator | None, s: Strings) -> str:
    """What the function returns and what checks it: 'Write f(...), returning the attainable compute, in TFLOP/s.
    Check compares it with the Roofline calculator on 12 cases, ...'."""
    from calckit.quiz import output_spec

    unit = s.html("exercise.task.unit", unit=exercise.unit) if exercise.unit and exercise.unit != "%" else ""
    count = len(exercise.cases)
    common = {
        "signature": f"<code>{escape(exercise.signature)}</code>",
        "unit": unit,
        "check": f"<strong>{s.html('exercise.check')}</strong>",
        "tolerance": escape(_within(exercise, s)),
    }
    if calculator is None:
        return s.markup("exercise.task.function", count, **common)
    output = output_spec(calculator, exercise.output)
    label = output.label if output else exercise.output
    label = escape(label[0].lower() + label[1:] if label[1:2].islower() else label)  # 'attainable compute', 'MBU'
    reference = f'<a href="{escape(calculators_page)}#{escape(calculator.name)}">{escape(calculator.title)}</a>'
    return s.markup("exercise.task.calculator", count, output=label, calculator=reference, **common)


def _within(exercise: Exercise, s: Strings) -> str:
    """The tolerance as readers see it (calckit's `Tolerance.text`, in the book's language): 'within 0.1%'."""
    tolerance = exercise.tolerance
    if not tolerance.relative:
        return s("exercise.within", amount=f"{tolerance.amount:g}")
    if tolerance.amount >= 1e-4:
        return s("exercise.within.percent", amount=f"{tolerance.amount * 100:g}")
    return s("exercise.within.part", count=f"{round(1 / tolerance.amount):,}")


def _page_data(exercise: Exercise) -> ExercisePageData:
    return {
        "function": exercise.function,
        "parameters": list(exercise.parameters),
        "draw": exercise.drawing_data(),
        "tolerance": exercise.tolerance.as_dict(),
        "id": exercise.id,
        "title": exercise.title,
        "starter": exercise.starter,
        "solution": exercise.solution,
    }


def exercise_version(exercise: Exercise) -> str:
    """Saved progress records the version it passed: an edited exercise asks for a new check."""
    return hashlib.sha256(_json(_page_data(exercise)).encode()).hexdigest()[:12]


def render_exercise(
    uid: str,
    exercise: Exercise,
    key: str,
    calculators_page: str,
    calculator: Calculator | None,
    text: AuthoredText,
    s: Strings,
    old_anchor: str = "",
) -> str:
    """The exercise with id `uid` in the page; `key` is where the reader's code is saved; `calculators_page` is the
    address of the calculator reference from this page; `calculator` is the one that checks it (None when a function
    of the book's package does, `exercise.reference`); `text` renders the prompt and the hints; `s` has the plugin's
    words; `old_anchor` is the anchor that links made before anchors followed ids name it by (entry.js sends them on
    to `uid`)."""
    encoded = _json(_page_data(exercise))
    version = exercise_version(exercise)
    hints = "".join(
        f'<details class="exercise-hint" data-search-exclude>'
        f"<summary>{s.html('exercise.hint', number=number)}</summary>"
        f"{text.block(hint)}</details>"
        for number, hint in enumerate(exercise.hints, 1)
    )
    labelled = f'id="{uid}" role="group" aria-labelledby="{uid}-title"{old_anchor_attribute(old_anchor)}'
    return (
        f'<div class="exercise" {labelled} '
        f'data-exercise="{escape(exercise.id)}" data-exercise-key="{escape(key)}" data-exercise-version="{version}" '
        f'data-exercise-data="{escape(encoded)}">'
        f'<p class="exercise-title" id="{uid}-title">{s.html("exercise.title", title=exercise.title)}</p>'
        f'<div class="exercise-prompt">{text.block(exercise.prompt)}</div>'
        f'<p class="exercise-task">{_task(exercise, calculators_page, calculator, s)}</p>'
        f'<p class="exercise-code-label" id="{uid}-code" data-search-exclude>{s.html("exercise.code")}</p>'
        '<div class="exercise-editor"><pre><code class="language-python">'
        f"{escape(exercise.starter)}</code></pre></div>"
        f'<p class="exercise-status" role="status" data-search-exclude>{s.html("exercise.file")}</p>'
        '<div class="exercise-controls" data-search-exclude hidden>'
        f'<button type="button" class="md-button exercise-run">{s.html("exercise.run")}</button>'
        f'<button type="button" class="md-button md-button--primary exercise-check">{s.html("exercise.check")}</button>'
        f'<button type="button" class="md-button exercise-reset">{s.html("exercise.reset")}</button>'
        "</div>"
        '<div class="exercise-confirm" role="alertdialog" data-search-exclude hidden '
        f'aria-labelledby="{uid}-confirm" aria-describedby="{uid}-confirm">'
        f'<p id="{uid}-confirm">{s.html("exercise.confirm")}</p>'
        f'<button type="button" class="md-button exercise-reset-yes">{s.html("exercise.confirm.yes")}</button>'
        f'<button type="button" class="md-button exercise-reset-no">{s.html("exercise.confirm.no")}</button>'
        "</div>"
        '<div class="exercise-result" aria-live="polite" data-search-exclude></div>'
        # Each hint, and each part of the solution, is out of search, not the <div> around them: Material's search
        # parser tells elements apart by their tag alone, so an excluded <div> is searched again after the first
        # </div> inside it.
        f'<div class="exercise-hints">{hints}</div>'
        '<div class="exercise-solution" hidden>'
        f'<button type="button" class="md-button exercise-show-solution" data-search-exclude>'
        f"{s.html('exercise.solution.show')}</button>"
        f'<div class="exercise-solution-code" data-search-exclude hidden><p>{s.html("exercise.solution.intro")}</p>'
        '<pre><code class="language-python">'
        "</code></pre></div>"
        "</div>"
        "</div>"
    )
