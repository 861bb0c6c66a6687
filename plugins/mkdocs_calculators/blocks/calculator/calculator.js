// @ts-check
/**
 * A calculator on the page: the form the build rendered (see pages/render.py for the markup), made live. Inputs go to the
 * worker as typed; the package answers with outputs or with an error per field, exactly as it did at build time.
 *
 * The URL records every input a reader changed (`?calc-1.intensity=50`), so a configured calculator can be shared;
 * opening such a link restores the inputs and recomputes (calculator_link.js). calculator_form.js reads and writes
 * the form.
 */
import { fieldShows, number, t } from "./i18n.js";
import {
  bootRuntime,
  CallError,
  runCalculator,
  setPageGeneration,
  TIME_LIMIT_S,
  TimeLimitError,
  watchRuntime,
} from "./runtime.js";
import {
  CONTROL,
  FIELD,
  authoredInputs,
  fieldAdvice,
  fields,
  filterChoices,
  readInputs,
  setControl,
  syncAllSliders,
  syncFieldFromSlider,
  syncSliderFromField,
  updateVisibility,
} from "./calculator_form.js";
import { forgetInUrl, recordInUrl, restoreFromUrl, showIgnored } from "./calculator_link.js";
import { showAdjustables, showFollowers } from "./calculator_prose.js";
import { claim, stageText } from "./status.js";
import { drawChart, drawChartWhenVisible } from "./vega.js";

const CUSTOM = "custom";
// How long an answer may take before the results on show are marked as behind the form (see markStale).
const STALE_AFTER_MS = 120;
// How long the inputs stay as they are before the URL records them (see recordLater).
const URL_AFTER_MS = 400;

/** The URL writes waiting for the reader's pause (see recordLater), one per calculator at most. @type {Set<() => void>} */
const pendingWrites = new Set();

/**
 * Write them now: the reader is leaving the page. In the capture phase of a link's click, before Material's instant
 * navigation pushes the next address, so they land in this page's history entry and Back restores the inputs.
 * @param {Event} event
 */
function writePendingNow(event) {
  if (event.type === "click" && !(event.target instanceof Element && event.target.closest("a[href]"))) return;
  for (const write of [...pendingWrites]) write();
}
addEventListener("click", writePendingNow, true);
addEventListener("pagehide", writePendingNow);

/**
 * Make each calculator element live; called for every page Material shows.
 * @param {HTMLElement[]} elements
 * @param {number} generation
 */
export function mountCalculators(elements, generation) {
  setPageGeneration(generation);
  for (const element of elements) mountCalculator(element);
  bootWhenIdle(elements);
}

/**
 * Boot the runtime in idle time once a calculator is on screen, so the first edit finds it ready. Not sooner: the
 * page's own first paint and scripts come first. On a first visit the service worker is registered once this boot
 * has settled (entry.js), and the offline copy is made from what the worker downloaded (offline.js): one download of
 * each runtime file (test_one_worker_and_one_wasm_download_across_pages).
 * @param {HTMLElement[]} elements
 */
function bootWhenIdle(elements) {
  if (!("IntersectionObserver" in window)) return;
  const observer = new IntersectionObserver((entries) => {
    if (!entries.some((entry) => entry.isIntersecting)) return;
    observer.disconnect();
    const idle = window.requestIdleCallback ?? ((/** @type {() => void} */ callback) => setTimeout(callback, 200));
    idle(() => bootRuntime(), { timeout: 3000 });
  });
  for (const element of elements) observer.observe(element);
}

/**
 * The calculator's fields, made a <form> now that it mounts: the build writes them in a <div> (pages/render.py), as
 * Chromium's autofill reads every form of a page while it loads, and only the calculators a reader nears mount. The
 * fields keep what a reader did before (values, ticks), and the one focused keeps the focus and its selection.
 * @param {HTMLElement} root
 */
function formOf(root) {
  const holder = /** @type {HTMLElement} */ (root.querySelector(".calc-form"));
  if (holder instanceof HTMLFormElement) return holder;
  const form = document.createElement("form");
  for (const { name, value } of holder.attributes) form.setAttribute(name, value);
  form.noValidate = true;
  const focused = holder.contains(document.activeElement) ? /** @type {HTMLElement} */ (document.activeElement) : null;
  const text = focused instanceof HTMLInputElement && focused.type === "text" ? focused : null;
  const selection = text ? [text.selectionStart, text.selectionEnd] : null;
  form.append(...holder.childNodes);
  holder.replaceWith(form);
  focused?.focus({ preventScroll: true });
  if (text && selection) text.setSelectionRange(selection[0], selection[1]);
  return form;
}

/** @param {HTMLElement} root */
function mountCalculator(root) {
  if (!claim(root)) return;
  const name = /** @type {string} */ (root.dataset.calculator);
  const form = formOf(root);
  const status = /** @type {HTMLElement} */ (root.querySelector(".calc-status"));
  const chart = /** @type {HTMLElement | null} */ (root.querySelector(".calc-chart-view"));
  if (chart?.dataset.spec) drawChartWhenVisible(chart, /** @type {import("./contracts.js").Chart} */ (JSON.parse(chart.dataset.spec)));

  let interacted = false;
  let inFlight = false; // one call at a time: inputs that come meanwhile wait for it, and only the latest is sent
  let queued = false;
  let scheduled = false; // a recompute is due once the current task's inputs are all in (see schedule)
  let skipped = false; // the last answer was not shown, a newer input waiting (see recompute)
  // The form as it was when the results on show were computed: the build's, at first. Whenever the form says
  // otherwise (a shared link, an edit while Python starts), the results are marked stale until they catch up.
  const builtFor = JSON.stringify(authoredInputs(root));
  let shownFor = builtFor;
  let rejected = false; // the last inputs were refused: the results are for the last valid ones
  let failed = ""; // or the calculator itself raised for them: why, as Python said it
  let unavailable = false; // Python could not start: the build's results are all this calculator will show
  const staleNote = /** @type {HTMLElement} */ (root.querySelector(".calc-stale-note"));

  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let staleTimer;

  function markStale() {
    const behind = () => JSON.stringify(readInputs(root)) !== shownFor;
    const apply = () => {
      const stale = rejected || behind();
      root.classList.toggle("calc-stale", stale);
      staleNote.hidden = !stale;
      staleNote.textContent = unavailable
        ? t(shownFor === builtFor ? "calculator.stale.built" : "calculator.stale.stopped")
        : failed
          ? t("calculator.stale.failed", { error: failed })
          : t(rejected ? "calculator.stale.invalid" : "calculator.stale.waiting");
    };
    clearTimeout(staleTimer);
    // A warm recompute answers within a frame: dimming the results for it would only flicker, so a form that is
    // behind is marked only once an answer has taken longer (Python starting, a long compute). With no answer to
    // wait for (Python could not start) it is marked at once, and results that match are unmarked at once.
    if (unavailable || rejected || !behind()) apply();
    else staleTimer = setTimeout(apply, STALE_AFTER_MS);
  }

  const stopWatching = watchRuntime(({ stage, error }) => {
    if (!root.isConnected) return stopWatching();
    if (stage === "failed") {
      status.textContent = t("calculator.failed", { error });
      root.classList.remove("calc-loading");
      root.classList.add("calc-unavailable");
      unavailable = true;
      markStale(); // no answer will come: a form that differs from the build's inputs is marked now, not later
    } else if (interacted && stageText(stage)) {
      status.textContent = stageText(stage);
      root.classList.add("calc-loading");
    } else if (stage === "ready") {
      status.textContent = "";
      root.classList.remove("calc-loading");
    }
  });

  /**
   * Recompute once the task that changed the form is over: inputs that come together (a script setting several
   * fields, a reset, a chip's figures) make one call with the form as they leave it, not one per event. A microtask
   * rather than the next frame: waiting for a frame would add up to 16.7 ms to every answer, the whole budget of T3.
   */
  function schedule() {
    if (scheduled) return;
    scheduled = true;
    queueMicrotask(() => {
      scheduled = false;
      recompute();
    });
  }

  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let urlTimer;
  /** @type {(() => void) | undefined} */
  let pendingWrite;
  /**
   * Record the inputs in the URL once the reader pauses: history.replaceState costs milliseconds, which between two
   * inputs of a drag would hold up the next answer (the worker's reply waits for the page's thread). A reader who
   * follows a link before the pause ends gets the write at once (see writePendingNow), into this page's entry.
   */
  function recordLater() {
    clearTimeout(urlTimer);
    if (pendingWrite) pendingWrites.delete(pendingWrite);
    const here = location.pathname;
    const write = () => {
      clearTimeout(urlTimer);
      pendingWrites.delete(write);
      pendingWrite = undefined;
      // Never into the address of a page the reader has since gone to: instant navigation changes the address at
      // the click, while this page is still in place.
      if (root.isConnected && location.pathname === here) recordInUrl(root);
    };
    pendingWrite = write;
    pendingWrites.add(write);
    urlTimer = setTimeout(write, URL_AFTER_MS);
  }

  async function recompute() {
    if (inFlight) {
      queued = true;
      return;
    }
    inFlight = true;
    try {
      const sent = readInputs(root);
      const result = await runCalculator(name, sent);
      // An answer for inputs the reader has already changed again is not shown: the newer inputs are sent at once
      // (below), and showing this one would only paint a frame of numbers and a chart the reader has left. One in a
      // row at most, so that a calculator slower than the reader's dragging still shows every other answer.
      if (result && queued && !skipped) {
        skipped = true;
        return;
      }
      skipped = false;
      if (result && root.isConnected) {
        const current = JSON.stringify(readInputs(root)) === JSON.stringify(sent);
        show(root, result);
        if (result.ok) showFollowers(root, name, result, sent);
        if (result.ok) showAdjustables(root); // a chip's figures may have filled the fields they show
        rejected = !result.ok;
        failed = result.ok ? "" : (result.failure?.error ?? "");
        // A chip's figures were just filled in: the form now says what the results were computed for.
        if (result.ok) shownFor = JSON.stringify(current ? readInputs(root) : sent);
        markStale();
        if (result.ok) recordLater();
      }
    } catch (error) {
      skipped = false;
      // The runtime's failure is reported once, through watchRuntime; this calculator's own, beside it.
      if (root.isConnected && (error instanceof TimeLimitError || error instanceof CallError)) {
        rejected = true;
        failed = error instanceof TimeLimitError ? t("calculator.time_limit", { seconds: TIME_LIMIT_S }) : error.message;
        markStale();
      }
    } finally {
      inFlight = false;
      if (queued) {
        queued = false;
        recompute();
      }
    }
  }

  function firstTouch() {
    if (interacted) return;
    interacted = true;
    bootRuntime();
  }

  form.addEventListener("focusin", firstTouch);
  form.addEventListener("pointerdown", firstTouch);
  form.addEventListener("submit", (event) => event.preventDefault());
  form.addEventListener("input", (event) => {
    const target = /** @type {HTMLInputElement} */ (event.target);
    if (target.classList.contains("calc-filter")) return filterChoices(target);
    firstTouch();
    if (target.classList.contains("calc-slider")) syncFieldFromSlider(form, target);
    else syncSliderFromField(form, target);
    const field = /** @type {HTMLElement | null} */ (target.closest("[data-input]"));
    if (field?.dataset.filledBy) setControl(root, field.dataset.filledBy, CUSTOM);
    updateVisibility(root);
    showAdjustables(root);
    markStale();
    schedule();
  });
  form.addEventListener("reset", () => {
    // After the browser has put the author's values back.
    setTimeout(() => {
      for (const filter of form.querySelectorAll(".calc-filter")) filterChoices(/** @type {HTMLInputElement} */ (filter));
      syncAllSliders(form);
      updateVisibility(root);
      forgetInUrl(root);
      showAdjustables(root);
      root.querySelector(".calc-link-note")?.remove(); // the link's inputs are gone, and with them what it ignored
      markStale();
      schedule();
    });
  });

  // A shared link's inputs, or the values a browser put back into the form on return: both differ from the
  // results the build rendered, so those are marked stale at once and recomputed.
  showIgnored(root, restoreFromUrl(root));
  showAdjustables(root); // the link's values, in the sentences too
  if (JSON.stringify(readInputs(root)) !== shownFor) {
    syncAllSliders(form);
    updateVisibility(root);
    markStale();
    interacted = true;
    recompute();
  }
}

/** Put a result from the package on the page. @param {HTMLElement} root @param {import("./contracts.js").RunResult} result */
function show(root, result) {
  const errors = new Map(result.ok ? [] : result.errors.map((error) => [error.field, error]));
  for (const field of fields(root)) {
    const key = field.dataset.input ?? "";
    const message = /** @type {HTMLElement} */ (field.querySelector(".calc-error"));
    const control = field.dataset.kind === "choices" ? field : field.querySelector(CONTROL);
    const error = errors.get(key);
    const hint = error && fieldAdvice(field, control, error);
    message.hidden = !hint;
    message.textContent = hint ?? "";
    if (hint) control?.setAttribute("aria-invalid", "true");
    else control?.removeAttribute("aria-invalid");
  }
  if (!result.ok) return;
  fillFromPicker(root, result.inputs);
  // Only what changed is written: the page lays out and paints again only for that, and a live region whose text
  // is the same is not read out again.
  for (const output of result.outputs) {
    const box = root.querySelector(`[data-output="${CSS.escape(output.key)}"]`);
    const element = box?.querySelector("output");
    if (element) setText(element, output.text);
    const note = /** @type {HTMLElement | null} */ (box?.querySelector(".calc-note") ?? null);
    if (note) {
      setText(note, output.note ?? "");
      if (note.hidden !== !output.note) note.hidden = !output.note;
    }
  }
  setText(/** @type {HTMLElement} */ (root.querySelector(".calc-summary")), result.summary);
  const slot = /** @type {HTMLElement | null} */ (root.querySelector(".calc-table-slot"));
  const table = JSON.stringify(result.table ?? null);
  if (slot && tablesShown.get(slot) !== table) {
    slot.replaceChildren(...(result.table ? [tableElement(result.table)] : []));
    tablesShown.set(slot, table);
  }
  const chart = /** @type {HTMLElement | null} */ (root.querySelector(".calc-chart-view"));
  if (chart && result.chart) {
    const described = number(result.chart.description);
    if (chart.getAttribute("aria-label") !== described) {
      chart.setAttribute("aria-label", described);
    }
    drawChart(chart, result.chart); // a chart that fails to draw says so itself
  }
}

/** The table each calculator's slot shows, as JSON (none yet: the build's, which the first answer replaces). */
const tablesShown = new WeakMap();

/** Write `text`, its numbers as the book's language writes them (i18n.js). @param {Element} element @param {string} text */
function setText(element, text) {
  const shown = number(text);
  if (element.textContent !== shown) element.textContent = shown;
}

/** Show the figures a chip picker put into its fields (unless the reader is typing in one). @param {HTMLElement} root @param {Record<string, unknown>} inputs */
function fillFromPicker(root, inputs) {
  for (const field of fields(root)) {
    const key = field.dataset.input ?? "";
    const picker = field.dataset.filledBy;
    const control = /** @type {HTMLInputElement | null} */ (field.querySelector(FIELD));
    if (!picker || !control || inputs[picker] === CUSTOM || document.activeElement === control) continue;
    const shown = fieldShows(String(inputs[key])); // as the book's language writes it
    if (control.value !== shown) control.value = shown;
  }
}

/** The same markup as pages/render.py's render_table, built safely from text. @param {{caption: string, columns: string[], rows: string[][]}} table */
function tableElement(table) {
  const cell = (/** @type {string} */ tag, /** @type {string} */ text, /** @type {string} */ scope = "") => {
    const element = document.createElement(tag);
    element.textContent = number(text);
    if (scope) element.setAttribute("scope", scope);
    return element;
  };
  const wrap = document.createElement("div");
  wrap.className = "calc-table-wrap";
  wrap.setAttribute("role", "region");
  wrap.tabIndex = 0;
  wrap.setAttribute("aria-label", number(table.caption));
  const element = document.createElement("table");
  element.className = "calc-table";
  element.createCaption().textContent = number(table.caption);
  element.createTHead().insertRow().append(...table.columns.map((column) => cell("th", column, "col")));
  const body = element.createTBody();
  for (const [first, ...rest] of table.rows) {
    body.insertRow().append(cell("th", first, "row"), ...rest.map((text) => cell("td", text)));
  }
  wrap.append(element);
  return wrap;
}
