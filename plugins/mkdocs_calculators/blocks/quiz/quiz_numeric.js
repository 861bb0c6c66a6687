// @ts-check
/**
 * A quiz's numeric questions: the reader's number, read and graded by grading.js (the twin of calckit's rule), and
 * "new numbers", the one thing a quiz asks Python for (`calckit.api.quiz_variant`, through runtime.js, loaded then).
 */
import { NumberError, allows, readAnswer } from "./grading.js";
import { element } from "./quiz_marks.js";
import { language, number, t } from "./i18n.js";
import { symbols } from "./numbers.js";
import { stageText } from "./status.js";

/** @typedef {import("./contracts.js").NumericData} NumericData */
/** @typedef {import("./contracts.js").Variant} Variant */
/** @typedef {import("./contracts.js").Answer} Answer */
/** @typedef {import("./quiz.js").Kind} Kind */

/**
 * A number worked out by the reader, graded against the answer the build (or the worker, for new numbers) computed.
 * @param {HTMLFormElement} form
 * @param {NumericData} spec
 * @param {{changed: () => void, generation: number}} context
 * @param {() => Answer} answer
 * @param {() => void} render
 * @returns {Kind}
 */
export function numericKind(form, spec, context, answer, render) {
  const input = /** @type {HTMLInputElement} */ (form.querySelector(".quiz-numeric input"));
  // Where the question shows its inputs' values (blocks/quiz/render.py), in the text's order: new numbers go there.
  const values = /** @type {HTMLElement[]} */ ([...form.querySelectorAll(".quiz-value")]);
  const status = /** @type {HTMLElement} */ (form.querySelector(".quiz-status"));
  const feedback = /** @type {HTMLElement} */ (form.querySelector(".quiz-feedback"));
  const newNumbers = /** @type {HTMLButtonElement | null} */ (form.querySelector(".quiz-new"));
  /** @type {Variant} */
  let current = spec;

  /** @param {Variant} variant */
  function apply(variant) {
    current = variant;
    values.forEach((node, index) => {
      const value = variant.values[index];
      if (value !== undefined) node.textContent = number(value);
    });
    form.dataset.inputs = JSON.stringify(variant.inputs);
  }

  /**
   * The reader's number in the question's unit (grading.js: a decimal comma, grouped thousands, the unit or another
   * prefix of it, read with the book's language's symbols: `1.400` is 1400 in German), or what to do instead. @returns {{value: number} | {error: string}}
   */
  function given() {
    try {
      return { value: readAnswer(input.value, spec.unit, symbols(language)) };
    } catch (error) {
      if (!(error instanceof NumberError)) throw error;
      return { error: t("sentence", { text: t(error.key, error.params) }) };
    }
  }

  if (newNumbers && spec.variant) {
    newNumbers.hidden = false;
    newNumbers.addEventListener("click", async () => {
      newNumbers.disabled = true;
      status.textContent = t("quiz.new.making");
      /** @type {(() => void) | null} */
      let stopWatching = null;
      try {
        const runtime = await import("./runtime.js");
        stopWatching = runtime.watchRuntime(({ stage }) => {
          const text = stageText(stage);
          if (text) status.textContent = text;
        });
        runtime.setPageGeneration(context.generation);
        const seed = crypto.getRandomValues(new Uint32Array(1))[0];
        /** @type {Variant | null} */
        const variant = await runtime.callPython("quiz_variant", { question: spec.variant, seed });
        if (!variant || !form.isConnected) return;
        apply(variant);
        Object.assign(answer(), { variant, value: "", checked: false, correct: false });
        input.value = "";
        render();
        status.textContent = "";
        feedback.replaceChildren(element("p", "quiz-detail", t("quiz.new.done")));
        input.focus();
        context.changed();
      } catch (error) {
        status.textContent = t("quiz.new.failed", { error: /** @type {Error} */ (error).message });
      } finally {
        stopWatching?.();
        newNumbers.disabled = false;
      }
    });
  }

  return {
    read: () => input.value,
    restore(value) {
      input.value = typeof value === "string" ? value : "";
    },
    missing: () => {
      const read = given();
      return "error" in read ? read.error : "";
    },
    grade() {
      const read = given();
      const correct = "value" in read && allows(read.value, current.answer, spec.tolerance);
      return { correct, details: correct ? [t("quiz.answer.is", { answer: number(current.answer_text) })] : [] };
    },
    clear() {},
    focus: () => input.focus(),
    reset() {
      apply(spec);
      status.textContent = "";
    },
    load(saved) {
      if (saved.variant) apply(saved.variant);
    },
  };
}
