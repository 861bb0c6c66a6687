// @ts-check
/**
 * A calculator's form as pages/render.py wrote it, read and written: its values as the package reads them and as the author
 * wrote them, a field set from a value, the fields shown for the current choices, a long list's filter, and the
 * sliders kept in step with their fields.
 */
import { NumberError } from "./grading.js";
import { fieldEnglish, fieldShows, language, number, plural, readField, t } from "./i18n.js";

// A field's own control: not its slider, and not the filter box of a long list.
export const FIELD = "input:not(.calc-slider):not(.calc-filter)";
export const CONTROL = `${FIELD}, select`;

/**
 * The form's values as the package reads them: text as typed (a number written the book's language's way, in
 * English: i18n.js's fieldEnglish), several choices joined by commas. @param {HTMLElement} root */
export function readInputs(root) {
  /** @type {Record<string, string>} */
  const inputs = {};
  for (const field of fields(root)) inputs[field.dataset.input ?? ""] = fieldValue(field);
  return inputs;
}

/** The form as the author wrote it: what the build computed the results on the page for. @param {HTMLElement} root */
export function authoredInputs(root) {
  /** @type {Record<string, string>} */
  const inputs = {};
  for (const field of fields(root)) inputs[field.dataset.input ?? ""] = authoredValue(field) ?? "";
  return inputs;
}

/** @param {HTMLElement} root @returns {HTMLElement[]} */
export function fields(root) {
  return [...root.querySelectorAll("[data-input]")].map((field) => /** @type {HTMLElement} */ (field));
}

/** @param {HTMLElement} field */
export function fieldValue(field) {
  if (field.dataset.kind === "choices") {
    return [...field.querySelectorAll("input[type=checkbox]:checked")]
      .map((box) => /** @type {HTMLInputElement} */ (box).value)
      .join(",");
  }
  const control = /** @type {HTMLInputElement | HTMLSelectElement | null} */ (field.querySelector(CONTROL));
  return control instanceof HTMLInputElement ? fieldEnglish(control.value) : (control?.value ?? "");
}

/** The value the author wrote (what "Reset" brings back). @param {HTMLElement} field */
export function authoredValue(field) {
  if (field.dataset.kind === "choices") {
    return [...field.querySelectorAll("input[type=checkbox]")]
      .filter((box) => /** @type {HTMLInputElement} */ (box).defaultChecked)
      .map((box) => /** @type {HTMLInputElement} */ (box).value)
      .join(",");
  }
  const select = field.querySelector("select");
  if (select) return [...select.options].find((option) => option.defaultSelected)?.value ?? select.options[0]?.value;
  return fieldEnglish(/** @type {HTMLInputElement} */ (field.querySelector(FIELD)).defaultValue);
}

/** @param {HTMLElement} root @param {string} key @param {string} value */
export function setControl(root, key, value) {
  const field = /** @type {HTMLElement | null} */ (root.querySelector(`[data-input="${CSS.escape(key)}"]`));
  if (!field) return;
  if (field.dataset.kind === "choices") {
    const picked = new Set(value.split(","));
    for (const box of field.querySelectorAll("input[type=checkbox]")) {
      /** @type {HTMLInputElement} */ (box).checked = picked.has(/** @type {HTMLInputElement} */ (box).value);
    }
    return;
  }
  const control = /** @type {HTMLInputElement | HTMLSelectElement | null} */ (field.querySelector(CONTROL));
  const shown = control instanceof HTMLInputElement ? fieldShows(value) : value; // as the book's language writes it
  if (control && control.value !== shown) control.value = shown;
}

/** Show the fields that apply to the current choices (a matrix multiply's M, N, K...). @param {HTMLElement} root */
export function updateVisibility(root) {
  const values = readInputs(root);
  for (const field of fields(root)) {
    const key = field.dataset.shownWhen;
    const hidden = Boolean(key) && !(field.dataset.shownValues ?? "").split(" ").includes(values[key ?? ""]);
    if (key && field.hidden !== hidden) field.hidden = hidden; // written only when it changes: no style work per input
  }
}

/**
 * Narrow a long list of choices (checkboxes, or a select's options) to those whose label, group or value contains
 * the filter's text; a select moves to the first match so that the result follows at once.
 * @param {HTMLInputElement} filter
 */
export function filterChoices(filter) {
  const needle = filter.value.trim().toLowerCase();
  const field = filter.closest("[data-input]");
  const matches = (/** @type {HTMLElement} */ element, /** @type {string} */ extra) =>
    needle === "" || `${element.textContent} ${extra}`.toLowerCase().includes(needle);
  for (const choice of field?.querySelectorAll(".calc-choice") ?? []) {
    const group = choice.closest(".calc-choice-group")?.querySelector(".calc-choice-group-label")?.textContent ?? "";
    /** @type {HTMLElement} */ (choice).hidden = !matches(/** @type {HTMLElement} */ (choice), group);
  }
  const select = field?.querySelector("select");
  if (!select) return;
  for (const option of select.options) {
    const group = option.parentElement instanceof HTMLOptGroupElement ? option.parentElement.label : "";
    option.hidden = !matches(option, `${group} ${option.value}`);
  }
  const first = [...select.options].find((option) => !option.hidden);
  if (needle && first && select.selectedOptions[0]?.hidden) {
    select.value = first.value;
    select.dispatchEvent(new Event("input", { bubbles: true }));
  }
}

/** A slider position as the number it stands for, written plainly. @param {HTMLInputElement} slider */
function sliderValue(slider) {
  const position = Number(slider.value);
  const value = slider.dataset.scale === "log" ? 10 ** position : position;
  return String(Number(value.toPrecision(3)));
}

/** @param {HTMLFormElement} form @param {HTMLInputElement} slider */
export function syncFieldFromSlider(form, slider) {
  const field = /** @type {HTMLInputElement | null} */ (form.elements.namedItem(slider.dataset.for ?? ""));
  if (!field) return;
  field.value = fieldShows(sliderValue(slider));
  slider.setAttribute("aria-valuetext", describe(field));
}

/** @param {HTMLFormElement} form @param {HTMLInputElement} field */
export function syncSliderFromField(form, field) {
  const slider = /** @type {HTMLInputElement | null} */ (
    form.querySelector(`.calc-slider[data-for="${CSS.escape(field.name)}"]`)
  );
  const value = readable(field.value);
  if (!slider || value === null || value <= 0) return;
  slider.value = String(slider.dataset.scale === "log" ? Math.log10(value) : value);
  slider.setAttribute("aria-valuetext", describe(field));
}

/** The number a field holds, read as the package reads it (`1,5` is 1.5), or null. @param {string} text */
function readable(text) {
  try {
    return readField(text);
  } catch (error) {
    if (error instanceof NumberError) return null; // the package's message shows next to the field
    throw error;
  }
}

/**
 * What the package said of a field's value (`error`: calckit's rule and its hint, which the browser's Python writes in
 * English), in the book's language: the same advice, from the rule and what the reader typed, in the catalogue's
 * words; a rule it has no words for keeps the package's hint, and so does an English book.
 * @param {HTMLElement} field @param {Element | null} control @param {{rule: string, hint: string}} error
 */
export function fieldAdvice(field, control, error) {
  if (language === "en") return error.hint;
  const typed = control instanceof HTMLInputElement ? control.value.trim() : "";
  const said = (/** @type {string} */ text) => (typed ? t("field.typed", { text, typed }) : t("sentence", { text }));
  if (typed && field.dataset.kind !== "choice") {
    try {
      readField(typed);
    } catch (problem) {
      if (problem instanceof NumberError) return said(t(problem.key, problem.params));
      throw problem;
    }
  }
  const bound = /^(>=|>|<=) (.+)$/.exec(error.rule);
  if (bound) return said(t({ ">=": "field.at_least", ">": "field.above", "<=": "field.at_most" }[bound[1]] ?? "", { bound: number(bound[2]) }));
  if (error.rule === "a whole number") return said(t("field.whole"));
  if (error.rule.startsWith("one of: ")) return t("field.choose", { label: fieldLabel(field) });
  const least = /^at least (\d+) choices$/.exec(error.rule);
  if (least) return plural("field.tick_at_least", Number(least[1]), { label: fieldLabel(field) });
  return error.hint;
}

/** @param {HTMLFormElement} form */
export function syncAllSliders(form) {
  for (const slider of form.querySelectorAll(".calc-slider")) {
    const field = form.elements.namedItem(/** @type {HTMLInputElement} */ (slider).dataset.for ?? "");
    if (field) syncSliderFromField(form, /** @type {HTMLInputElement} */ (field));
  }
}

/** The field's value with its unit, as a screen reader should say it. @param {HTMLInputElement} field */
function describe(field) {
  const unit = field.closest(".calc-field")?.querySelector(".calc-unit")?.textContent?.replace(/[()]/g, "") ?? "";
  return `${field.value} ${unit}`.trim();
}

/** A field's label as the form shows it, without its unit. @param {HTMLElement} field */
export function fieldLabel(field) {
  const label = field.querySelector("label, legend");
  return (label?.firstChild?.textContent ?? field.dataset.input ?? "").trim();
}
