// @ts-check
/** A quiz's single-choice (radio buttons) and multiple-choice (checkboxes) questions: reading, marking, grading. */
import { plural, t } from "./i18n.js";
import { explanation, verdictLine } from "./quiz_marks.js";

/** @typedef {import("./contracts.js").ChoiceData} ChoiceData */
/** @typedef {import("./quiz.js").Kind} Kind */

/** Single choice (radio buttons) and multiple choice (checkboxes). @param {HTMLFormElement} form @param {ChoiceData} spec @returns {Kind} */
export function choiceKind(form, spec) {
  const inputs = /** @type {HTMLInputElement[]} */ ([...form.querySelectorAll(".quiz-choice input")]);
  const chosen = () => inputs.filter((input) => input.checked).map((input) => Number(input.value));
  return {
    read: chosen,
    restore(value) {
      for (const input of inputs) input.checked = Array.isArray(value) && value.includes(Number(input.value));
    },
    missing: () =>
      chosen().length ? "" : t(spec.kind === "single" ? "quiz.choose.one.first" : "quiz.choose.many.first"),
    grade() {
      const picked = chosen();
      for (const input of inputs) {
        const index = Number(input.value);
        if (!picked.includes(index)) continue;
        const mark = /** @type {HTMLElement} */ (input.closest(".quiz-choice")?.querySelector(".quiz-mark"));
        const right = spec.correct.includes(index);
        const choice = /** @type {HTMLElement} */ (input.closest(".quiz-choice"));
        mark.replaceChildren(verdictLine(right, t(right ? "quiz.choice.right" : "quiz.choice.wrong")));
        const why = explanation(choice, "quiz-why");
        if (why) mark.append(why);
        mark.hidden = false;
      }
      const hits = picked.filter((index) => spec.correct.includes(index)).length;
      const correct = hits === spec.correct.length && picked.length === spec.correct.length;
      const details =
        spec.kind === "multiple" && !correct
          ? [
              t("quiz.choice.detail", {
                right: plural("quiz.choice.right", hits, { choices: plural("quiz.choice.picked", picked.length, { hits }) }),
                answers: plural("quiz.choice.answers", spec.correct.length),
              }),
            ]
          : [];
      return { correct, details };
    },
    clear() {
      for (const mark of form.querySelectorAll(".quiz-choice .quiz-mark")) {
        mark.replaceChildren();
        /** @type {HTMLElement} */ (mark).hidden = true;
      }
    },
    focus: () => (inputs.find((input) => input.checked) ?? inputs[0])?.focus(),
  };
}
