// @ts-check
/**
 * Quizzes on the page: the questions the build rendered (blocks/quiz/render.py writes the markup), made answerable.
 *
 * Grading runs here, from the answer key the build computed (`data-quiz-data`): no Python, no waiting. Only "new
 * numbers" asks the worker, for a fresh variant of a numeric question (`calckit.api.quiz_variant`). Progress is
 * saved through progress.js under `data-quiz-key` (the page's path and the quiz's id), restored on return, and
 * follows what another tab of the book saves.
 *
 * This module is the flow every question shares (check, feedback, try again, the quiz's pages, score, reset, saving);
 * each kind of question is a module of its own that gives the flow a Kind: quiz_choice.js, quiz_numeric.js (read and
 * graded by grading.js, the twin of calckit's rule), quiz_sort.js. quiz_order.js draws the order of options.
 */
import { t } from "./i18n.js";
import { choiceKind } from "./quiz_choice.js";
import { element, explanation, verdictLine } from "./quiz_marks.js";
import { numericKind } from "./quiz_numeric.js";
import { shuffleOptions } from "./quiz_order.js";
import { sortKind } from "./quiz_sort.js";
import { answered, load as loadProgress, save, watch } from "./progress.js";
import { claim } from "./status.js";

/** @typedef {import("./contracts.js").QuestionData} QuestionData */
/** @typedef {import("./contracts.js").QuizData} QuizData */
/** @typedef {import("./contracts.js").Answer} Answer */
/** @typedef {import("./contracts.js").QuizProgress} Progress */
/** @typedef {{correct: boolean, details: string[]}} Verdict */
/**
 * What one kind of question does; the flow around it (check, try again, save) is shared.
 * @typedef {object} Kind
 * @property {() => unknown} read the reader's answer, as saved
 * @property {(value: unknown) => void} restore put a saved answer back
 * @property {() => string} missing what to do before the answer can be checked, or ""
 * @property {() => Verdict} grade mark each part of the answer, and say whether it is right
 * @property {() => void} clear remove the marks
 * @property {() => void} focus focus the first control
 * @property {() => void} [reset] back to the question as the build wrote it
 * @property {(answer: Answer) => void} [load] apply what a saved answer carries besides its value (a variant)
 */

/**
 * Make each quiz element answerable; called for every page Material shows.
 * @param {HTMLElement[]} elements
 * @param {number} generation the page's number, for replies from the worker
 */
export function mountQuizzes(elements, generation) {
  for (const element of elements) mountQuiz(element, generation);
}

/** This quiz's saved progress, if it is for this version of the quiz. @param {string} key @param {string} version @returns {Progress} */
function load(key, version) {
  const saved = loadProgress(key);
  if (saved && saved.version === version && saved.answers) return /** @type {Progress} */ (saved);
  return { version, current: 0, answers: {} };
}

/** @param {HTMLElement} root @param {number} generation */
function mountQuiz(root, generation) {
  if (!claim(root)) return;
  const data = /** @type {QuizData} */ (JSON.parse(root.dataset.quizData ?? '{"questions": []}'));
  const key = root.dataset.quizKey ?? `quiz:${location.pathname}#${root.dataset.quiz}`;
  const forms = /** @type {HTMLFormElement[]} */ ([...root.querySelectorAll(".quiz-question")]);
  const footer = /** @type {HTMLElement} */ (root.querySelector(".quiz-footer"));
  const nav = /** @type {HTMLElement} */ (root.querySelector(".quiz-nav"));
  const previous = /** @type {HTMLButtonElement} */ (root.querySelector(".quiz-prev"));
  const next = /** @type {HTMLButtonElement} */ (root.querySelector(".quiz-next"));
  const score = /** @type {HTMLElement} */ (root.querySelector(".quiz-score"));
  const resetButton = /** @type {HTMLButtonElement} */ (root.querySelector(".quiz-reset"));
  const undo = /** @type {HTMLElement} */ (root.querySelector(".quiz-undo"));
  const undoButton = /** @type {HTMLButtonElement} */ (undo.querySelector("button"));
  let progress = load(key, root.dataset.quizVersion ?? "");
  /** @type {Progress | null} */
  let beforeReset = null; // what "Undo reset" brings back, until the reader answers again

  function saveProgress() {
    showScore();
    save(key, progress);
  }
  function forgetUndo() {
    beforeReset = null;
    undo.hidden = true;
    /** @type {HTMLElement} */ (undo.querySelector("[role=status]")).textContent = "";
  }
  const context = {
    answers: () => progress.answers,
    changed: () => {
      forgetUndo();
      saveProgress();
    },
    generation,
  };
  forms.forEach((form, index) => {
    const spec = data.questions[index];
    if (spec.kind === "numeric" || spec.shuffle === false) return;
    const salt = `${key}#${spec.id}`;
    const choices = /** @type {HTMLElement | null} */ (form.querySelector(".quiz-choices"));
    if (choices) shuffleOptions(choices, ".quiz-choice", "data-choice", salt);
    const pool = /** @type {HTMLElement | null} */ (form.querySelector(".quiz-pool .quiz-items"));
    if (pool) shuffleOptions(pool, ".quiz-slot", "data-item", salt);
  });
  const questions = forms.map((form, index) => mountQuestion(form, data.questions[index], context));

  // The score is a live region: written only when it changes, so that typing an answer, which saves it on every
  // keystroke, does not have a screen reader say the same score again.
  function showScore() {
    const answers = Object.values(progress.answers);
    const right = answers.filter((answer) => answer.correct).length;
    const done = answers.filter(answered).length === forms.length;
    const text = t(done ? "quiz.score.done" : "quiz.score", { right, total: forms.length });
    if (score.textContent !== text) score.textContent = text;
  }

  /** @param {number} index @param {boolean} focus */
  function show(index, focus) {
    progress.current = Math.max(0, Math.min(index, forms.length - 1));
    forms.forEach((form, position) => (form.hidden = position !== progress.current));
    previous.disabled = progress.current === 0;
    next.disabled = progress.current === forms.length - 1;
    if (focus) /** @type {HTMLElement} */ (forms[progress.current].querySelector(".quiz-legend")).focus();
  }

  previous.addEventListener("click", () => {
    show(progress.current - 1, true);
    save(key, progress);
  });
  next.addEventListener("click", () => {
    show(progress.current + 1, true);
    save(key, progress);
  });
  // A reset clears every answer at once, so it can be undone: the button that undoes it takes the focus.
  resetButton.addEventListener("click", () => {
    beforeReset = progress;
    progress = { version: progress.version, current: 0, answers: {} };
    for (const question of questions) question.reset();
    show(0, false);
    saveProgress();
    undo.hidden = false;
    /** @type {HTMLElement} */ (undo.querySelector("[role=status]")).textContent = t("quiz.cleared");
    undoButton.focus();
  });
  undoButton.addEventListener("click", () => {
    if (!beforeReset) return;
    progress = beforeReset;
    forgetUndo();
    for (const question of questions) question.restore();
    show(progress.current, true);
    saveProgress();
  });

  for (const question of questions) question.restore();
  nav.hidden = forms.length < 2;
  footer.hidden = false;
  /** @type {HTMLElement} */ (root.querySelector(".quiz-note")).hidden = true;
  show(progress.current, false);
  showScore();
  // Another tab answered or reset this quiz: show its answers merged with ours (progress.js merged them).
  watch(key, root, () => {
    progress = { ...load(key, progress.version), current: progress.current };
    forgetUndo();
    for (const question of questions) {
      question.reset();
      question.restore();
    }
    show(progress.current, false);
    showScore();
  });
}

/**
 * The flow every question shares: check, feedback, try again, and saving the answer.
 * @param {HTMLFormElement} form
 * @param {QuestionData} spec
 * @param {{answers: () => Record<string, Answer>, changed: () => void, generation: number}} context
 */
function mountQuestion(form, spec, context) {
  const fieldset = /** @type {HTMLFieldSetElement} */ (form.querySelector("fieldset"));
  const check = /** @type {HTMLButtonElement} */ (form.querySelector(".quiz-check"));
  const retry = /** @type {HTMLButtonElement} */ (form.querySelector(".quiz-retry"));
  const feedback = /** @type {HTMLElement} */ (form.querySelector(".quiz-feedback"));
  const answer = () => (context.answers()[spec.id] ??= {});
  const changed = () => {
    if (!answer().checked) {
      answer().value = kind.read();
      context.changed();
    }
  };
  /** @type {Kind} */
  const kind =
    spec.kind === "sort"
      ? sortKind(form, spec, changed)
      : spec.kind === "numeric"
        ? numericKind(form, spec, context, answer, () => render())
        : choiceKind(form, spec);

  /** Show the saved state of this question: its answer, and its verdict if it was checked. */
  function render() {
    const saved = answer();
    kind.clear();
    feedback.replaceChildren();
    const checked = Boolean(saved.checked);
    if (checked) showVerdict(kind.grade());
    fieldset.disabled = checked;
    check.hidden = checked;
    retry.hidden = !checked;
  }

  /** @param {Verdict} verdict */
  function showVerdict({ correct, details }) {
    feedback.replaceChildren(verdictLine(correct, t(correct ? "quiz.correct" : "quiz.wrong")));
    for (const detail of details) feedback.append(element("p", "quiz-detail", detail));
    const why = explanation(form, "quiz-explanation");
    if (why) feedback.append(why);
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (answer().checked) return;
    const missing = kind.missing();
    if (missing) {
      feedback.replaceChildren(element("p", "quiz-missing", missing));
      return;
    }
    const verdict = kind.grade();
    Object.assign(answer(), { value: kind.read(), checked: true, correct: verdict.correct });
    showVerdict(verdict);
    fieldset.disabled = true;
    check.hidden = true;
    retry.hidden = false;
    retry.focus();
    context.changed();
  });
  // Trying again opens the question; a right answer keeps its point until the reader checks another.
  retry.addEventListener("click", () => {
    answer().checked = false;
    render();
    kind.focus();
    context.changed();
  });
  form.addEventListener("input", changed);
  form.addEventListener("change", changed);

  return {
    restore() {
      const saved = answer();
      kind.load?.(saved);
      if (saved.value !== undefined) kind.restore(saved.value);
      render();
    },
    reset() {
      kind.reset?.();
      kind.restore(undefined);
      render();
    },
  };
}
