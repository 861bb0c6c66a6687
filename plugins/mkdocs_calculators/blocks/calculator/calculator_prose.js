// @ts-check
/**
 * The prose around a calculator. Values that follow it (pages/values.py, `data-follows`) say what it shows; inputs
 * adjustable in its sentences (pages/adjustables.py, `data-adjusts`) show what its fields hold and set them, as a
 * reader's typing would, so that the calculator recomputes through its usual path (outputs, chart, followers, the
 * shared link).
 *
 * An adjustable input is written as plain text (it reads so without script and in print); mountAdjustables makes it a
 * spinbutton: Arrow Up and Down move it one step, Page Up and Down ten, Home and End to its range's ends, and dragging
 * it sideways (a mouse, a pen or a finger) moves it a step every few pixels, within its range and on its steps. It is
 * not a live region: a screen reader says its value as it changes, and the calculator's results once the reader
 * pauses (hush).
 */
import { FIELD } from "./calculator_form.js";
import { NumberError } from "./grading.js";
import { fieldShows, number, readField, t } from "./i18n.js";
import { runCalculator } from "./runtime.js";

/**
 * Every value in the page's prose that follows this calculator says what it now shows: its own output from the same
 * answer, or, for a value with inputs of its own on top, the worker's answer for those (a newer answer wins). Not
 * announced: a reader changing the calculator hears its results, not every sentence.
 * @param {HTMLElement} root @param {string} name @param {import("./contracts.js").Computed} result
 * @param {Record<string, string>} sent
 */
export function showFollowers(root, name, result, sent) {
  const generation = (followGeneration.get(root) ?? 0) + 1;
  followGeneration.set(root, generation);
  clearTimeout(followTimers.get(root));
  /** @type {HTMLDataElement[]} */
  const own = [];
  for (const value of document.querySelectorAll(`data.calc-value[data-follows="${CSS.escape(root.id)}"]`)) {
    const element = /** @type {HTMLDataElement} */ (value);
    if (element.dataset.given && element.dataset.given !== "{}") own.push(element);
    else putOutput(element, result);
  }
  if (!own.length) return;
  // Values with inputs of their own need answers of their own: asked for once the reader pauses, so that dragging a
  // slider costs the worker no more than the calculator's own calls (a newer answer of the calculator wins).
  followTimers.set(
    root,
    setTimeout(() => {
      for (const element of own) {
        const given = /** @type {Record<string, unknown>} */ (JSON.parse(element.dataset.given || "{}"));
        const inputs = { ...sent, ...Object.fromEntries(Object.entries(given).map(([key, raw]) => [key, String(raw)])) };
        runCalculator(name, inputs)
          .then((answer) => {
            if (answer?.ok && element.isConnected && followGeneration.get(root) === generation) putOutput(element, answer);
          })
          .catch(() => {}); // the sentence keeps its last number; the calculator says what went wrong
      }
    }, FOLLOW_AFTER_MS),
  );
}

/** Write the answer's figure for the output `element` shows. @param {HTMLDataElement} element @param {import("./contracts.js").Computed} answer */
function putOutput(element, answer) {
  const output = answer.outputs.find((each) => each.key === element.dataset.output);
  if (!output || typeof output.value !== "number") return;
  setText(element, number(output.text));
  if (element.value !== String(output.value)) element.value = String(output.value);
}

/** How long the reader must leave a calculator alone before values with inputs of their own ask for their answers. */
const FOLLOW_AFTER_MS = 250;
/** @type {WeakMap<HTMLElement, ReturnType<typeof setTimeout>>} */
const followTimers = new WeakMap();

/** Each calculator's latest answer shown to the values that follow it. */
const followGeneration = new WeakMap();

/** @param {Element} element @param {string} text */
function setText(element, text) {
  if (element.textContent !== text) element.textContent = text;
}

/** How far a drag goes for one step (of the drag's own size: see dragStep). */
const PIXELS_PER_STEP = 8;
/** Keys and the steps they move: Home and End go to the range's ends. @type {Record<string, number>} */
const KEY_STEPS = { ArrowUp: 1, ArrowDown: -1, PageUp: 10, PageDown: -10 };

/**
 * A number as the sentence shows it, the twin of pages/adjustables.py's adjust_text: its digits as the form's field
 * has them, thousands grouped, then its unit (1024 -> "1,024", 0.819 TB/s -> "0.819 TB/s").
 * @param {number} value @param {string} unit
 */
export function adjustText(value, unit) {
  let digits = String(value);
  const sign = digits.startsWith("-") ? "-" : "";
  if (sign) digits = digits.slice(1);
  if (!digits.includes("e")) {
    const [whole, fraction] = digits.split(".");
    digits = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",") + (fraction === undefined ? "" : `.${fraction}`);
  }
  return `${sign}${digits} ${unit}`.trim();
}

/** @param {string | undefined} text @returns {number | null} */
function bound(text) {
  return text ? Number(text) : null;
}

/** The element's range and step, as the build wrote them. @param {HTMLElement} element */
function rules(element) {
  return { min: bound(element.dataset.min), max: bound(element.dataset.max), step: Number(element.dataset.step) || 1 };
}

/** A sum of steps written plainly: 0.1 + 0.2 is 0.3. @param {number} value */
function plain(value) {
  return Number(value.toPrecision(12));
}

/** `value` within the element's range. @param {HTMLElement} element @param {number} value */
function clamp(element, value) {
  const { min, max } = rules(element);
  return plain(Math.min(max ?? Infinity, Math.max(min ?? -Infinity, value)));
}

/**
 * The value `count` steps from `value`: the next one on the step's grid and on from there (from 7.5 with a step of 1,
 * one up is 8 and one down 7).
 * @param {number} value @param {number} count @param {number} step
 */
export function stepped(value, count, step) {
  const units = value / step;
  const base = count > 0 ? Math.floor(units + 1e-9) : Math.ceil(units - 1e-9);
  return plain((base + count) * step);
}

/**
 * How much a drag moves the value for each PIXELS_PER_STEP: the step, or a power of ten of it for a value hundreds of
 * steps from zero (1,024 chips move ten at a time), so that a drag across a line of text spans a useful range.
 * @param {number} value @param {number} step
 */
function dragStep(value, step) {
  const steps = Math.abs(value) / step;
  return steps < 1 ? step : plain(step * 10 ** Math.max(0, Math.floor(Math.log10(steps)) - 2));
}

/**
 * Make each adjustable input live (entry.js mounts them on each page that has one).
 * @param {HTMLElement[]} elements
 */
export function mountAdjustables(elements) {
  for (const element of elements) mountAdjustable(/** @type {HTMLDataElement} */ (element));
}

/** @param {HTMLDataElement} element */
function mountAdjustable(element) {
  if (element.dataset.live !== undefined) return;
  element.dataset.live = "";
  const { min, max } = rules(element);
  const label = element.dataset.label ?? "";
  element.setAttribute("role", "spinbutton");
  element.tabIndex = 0;
  element.setAttribute("aria-label", label);
  if (min !== null) element.setAttribute("aria-valuemin", String(min));
  if (max !== null) element.setAttribute("aria-valuemax", String(max));
  const calculator = document.getElementById(element.dataset.adjusts ?? "")?.querySelector(".calc-title")?.textContent;
  element.title = calculator ? t("adjust.title", { label, calculator }) : t("adjust.title.untitled", { label });
  paint(element, Number(element.value));

  element.addEventListener("keydown", (event) => {
    const { step } = rules(element);
    const value = Number(element.value);
    let next = null;
    if (event.key in KEY_STEPS) next = stepped(value, KEY_STEPS[event.key], step);
    else if (event.key === "Home" && min !== null) next = min;
    else if (event.key === "End" && max !== null) next = max;
    if (next === null || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    adjust(element, next);
  });

  /** @type {{pointer: number, x: number, value: number, step: number} | null} */
  let drag = null;
  element.addEventListener("pointerdown", (event) => {
    if (event.button !== 0) return;
    const value = Number(element.value);
    drag = { pointer: event.pointerId, x: event.clientX, value, step: dragStep(value, rules(element).step) };
    element.setPointerCapture(event.pointerId);
    element.classList.add("calc-adjusting");
    element.focus({ preventScroll: true });
    event.preventDefault(); // no text selection as the pointer moves
  });
  const follow = (/** @type {PointerEvent} */ event) => {
    if (!drag || event.pointerId !== drag.pointer) return;
    const steps = Math.round((event.clientX - drag.x) / PIXELS_PER_STEP);
    adjust(element, drag.value + steps * drag.step);
  };
  element.addEventListener("pointermove", follow);
  const end = (/** @type {PointerEvent} */ event) => {
    if (event.type === "pointerup") follow(event); // where the finger left: its last moves may have come together
    if (!drag || event.pointerId !== drag.pointer) return;
    drag = null;
    element.classList.remove("calc-adjusting");
  };
  element.addEventListener("pointerup", end);
  element.addEventListener("pointercancel", end);
}

/**
 * Set the calculator's field to `value` (within the range), as a reader typing it would: the form's own input event
 * recomputes, records the link and updates every sentence (and mounts the calculator first if it was not yet).
 * @param {HTMLDataElement} element @param {number} value
 */
function adjust(element, value) {
  const next = clamp(element, value);
  if (next === Number(element.value)) return;
  paint(element, next);
  const root = document.getElementById(element.dataset.adjusts ?? "");
  const control = /** @type {HTMLInputElement | null} */ (
    root?.querySelector(`[data-input="${CSS.escape(element.dataset.input ?? "")}"] ${FIELD}`) ?? null
  );
  if (!control || !root) return;
  hush(root);
  control.value = fieldShows(String(next));
  control.dispatchEvent(new Event("input", { bubbles: true }));
}

/** How long the reader must leave an adjustable input alone before the calculator's results are announced again. */
const QUIET_MS = 600;
/** How many more pauses it waits for results still behind the inputs before it speaks all the same. */
const QUIET_WAITS = 10;
/** @type {WeakMap<HTMLElement, {timer: ReturnType<typeof setTimeout>, said: string}>} */
const hushed = new WeakMap();

/**
 * Keep the calculator's summary (a polite live region) quiet while a reader steps or drags an input in the prose, and
 * have it say the result once they pause: a screen reader hears the spinbutton's own value at each step, not a
 * sentence of results per key press. The summary still changes on screen with every answer.
 * @param {HTMLElement} root
 */
function hush(root) {
  const summary = /** @type {HTMLElement | null} */ (root.querySelector(".calc-summary"));
  if (!summary) return;
  const quiet = hushed.get(root);
  clearTimeout(quiet?.timer);
  if (!quiet) summary.setAttribute("aria-live", "off");
  const said = quiet?.said ?? summary.textContent ?? "";
  let waits = 0;
  const speak = () => {
    // Results still behind the inputs (Python starting, a slow answer): wait for them, a few pauses at most.
    if (root.matches(".calc-stale, .calc-loading") && waits++ < QUIET_WAITS) {
      hushed.set(root, { timer: setTimeout(speak, QUIET_MS), said });
      return;
    }
    hushed.delete(root);
    summary.setAttribute("aria-live", "polite");
    const text = summary.textContent ?? "";
    if (text === said) return; // nothing new to say (an answer still to come is said as it arrives)
    summary.textContent = ""; // written again once live, so that it is said once
    requestAnimationFrame(() => {
      if (summary.textContent === "") summary.textContent = text;
    });
  };
  hushed.set(root, { timer: setTimeout(speak, QUIET_MS), said });
}

/**
 * Show `value` in the element, for eyes and for a screen reader, as the book's language writes numbers (the build
 * wrote its first text so: page.py's _in_language). @param {HTMLDataElement} element @param {number} value
 */
function paint(element, value) {
  const text = number(adjustText(value, element.dataset.unit ?? ""));
  setText(element, text);
  if (element.value !== String(value)) element.value = String(value);
  if (element.getAttribute("role") !== "spinbutton") return; // not live yet: the text alone
  element.setAttribute("aria-valuenow", String(value));
  element.setAttribute("aria-valuetext", text);
}

/**
 * Each adjustable input of this calculator shows what its field now holds (after a reader typed in the form, a shared
 * link or a reset): a field that holds no number in range leaves it as it was, the form saying what is wrong.
 * @param {HTMLElement} root
 */
export function showAdjustables(root) {
  for (const found of document.querySelectorAll(`data.calc-adjust[data-adjusts="${CSS.escape(root.id)}"]`)) {
    const element = /** @type {HTMLDataElement} */ (found);
    const control = /** @type {HTMLInputElement | null} */ (
      root.querySelector(`[data-input="${CSS.escape(element.dataset.input ?? "")}"] ${FIELD}`)
    );
    let value;
    try {
      value = readField(control?.value ?? "");
    } catch (error) {
      if (error instanceof NumberError) continue;
      throw error;
    }
    if (Number.isFinite(value) && clamp(element, value) === plain(value)) paint(element, plain(value));
  }
}
