// @ts-check
/**
 * A calculator on the page: the form the build rendered (see render.py for the markup), made live. Inputs go to the
 * worker as typed; the package answers with outputs or with an error per field, exactly as it did at build time.
 */
import { bootRuntime, runCalculator, setPageGeneration, watchRuntime } from "./runtime.js";
import { drawChart } from "./vega.js";

const STAGE_TEXT = {
  runtime: "Starting Python in your browser…",
  package: "Loading the calculators…",
};

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

/** Boot the runtime in idle time once a calculator is on screen, so the first edit finds it ready. @param {HTMLElement[]} elements */
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

/** @param {HTMLElement} root */
function mountCalculator(root) {
  if (root.dataset.mounted) return;
  root.dataset.mounted = "true";
  const name = /** @type {string} */ (root.dataset.calculator);
  const form = /** @type {HTMLFormElement} */ (root.querySelector(".calc-form"));
  const status = /** @type {HTMLElement} */ (root.querySelector(".calc-status"));
  const chart = /** @type {HTMLElement | null} */ (root.querySelector(".calc-chart-view"));
  if (chart?.dataset.spec) drawChart(chart, JSON.parse(chart.dataset.spec)).catch(() => {});

  let interacted = false;
  let inFlight = false;
  let queued = false;

  const stopWatching = watchRuntime(({ stage, error }) => {
    if (!root.isConnected) return stopWatching();
    if (stage === "failed") {
      status.textContent =
        `The interactive part could not start (${error}). The results shown are for the inputs as first ` +
        "written; the rest of the page works as usual.";
      root.classList.add("calc-unavailable");
    } else if (interacted && stage in STAGE_TEXT) {
      status.textContent = STAGE_TEXT[/** @type {"runtime" | "package"} */ (stage)];
      root.classList.add("calc-loading");
    } else if (stage === "ready") {
      status.textContent = "";
      root.classList.remove("calc-loading");
    }
  });

  async function recompute() {
    if (inFlight) {
      queued = true;
      return;
    }
    inFlight = true;
    try {
      const result = await runCalculator(name, readInputs(form));
      if (result && root.isConnected) show(root, result);
    } catch {
      // The runtime's failure is reported once, through watchRuntime.
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
    firstTouch();
    const target = /** @type {HTMLInputElement} */ (event.target);
    if (target.classList.contains("calc-slider")) syncFieldFromSlider(form, target);
    else syncSliderFromField(form, target);
    recompute();
  });
  form.addEventListener("reset", () => {
    // After the browser has put the author's values back.
    setTimeout(() => {
      for (const slider of form.querySelectorAll(".calc-slider")) {
        const field = form.elements.namedItem(/** @type {HTMLInputElement} */ (slider).dataset.for ?? "");
        if (field) syncSliderFromField(form, /** @type {HTMLInputElement} */ (field));
      }
      recompute();
    });
  });
}

/** @param {HTMLFormElement} form @returns {Record<string, string>} */
function readInputs(form) {
  /** @type {Record<string, string>} */
  const inputs = {};
  for (const field of form.querySelectorAll("[data-input]")) {
    const key = /** @type {HTMLElement} */ (field).dataset.input ?? "";
    const control = /** @type {HTMLInputElement | null} */ (form.elements.namedItem(key));
    if (control) inputs[key] = control.value;
  }
  return inputs;
}

/** A slider position as the number it stands for, written plainly. @param {HTMLInputElement} slider */
function sliderValue(slider) {
  const position = Number(slider.value);
  const value = slider.dataset.scale === "log" ? 10 ** position : position;
  return String(Number(value.toPrecision(3)));
}

/** @param {HTMLFormElement} form @param {HTMLInputElement} slider */
function syncFieldFromSlider(form, slider) {
  const field = /** @type {HTMLInputElement | null} */ (form.elements.namedItem(slider.dataset.for ?? ""));
  if (!field) return;
  field.value = sliderValue(slider);
  slider.setAttribute("aria-valuetext", describe(field));
}

/** @param {HTMLFormElement} form @param {HTMLInputElement} field */
function syncSliderFromField(form, field) {
  const slider = /** @type {HTMLInputElement | null} */ (form.querySelector(`.calc-slider[data-for="${field.name}"]`));
  const value = Number(field.value.replaceAll(",", ""));
  if (!slider || !Number.isFinite(value) || value <= 0) return;
  slider.value = String(slider.dataset.scale === "log" ? Math.log10(value) : value);
  slider.setAttribute("aria-valuetext", describe(field));
}

/** The field's value with its unit, as a screen reader should say it. @param {HTMLInputElement} field */
function describe(field) {
  const unit = field.closest(".calc-field")?.querySelector(".calc-unit")?.textContent?.replace(/[()]/g, "") ?? "";
  return `${field.value} ${unit}`.trim();
}

/** Put a result from the package on the page. @param {HTMLElement} root @param {any} result */
function show(root, result) {
  const errors = new Map(result.ok ? [] : result.errors.map((/** @type {any} */ e) => [e.field, e.hint]));
  for (const field of root.querySelectorAll("[data-input]")) {
    const key = /** @type {HTMLElement} */ (field).dataset.input ?? "";
    const message = /** @type {HTMLElement} */ (field.querySelector(".calc-error"));
    const control = /** @type {HTMLElement} */ (field.querySelector("input:not(.calc-slider), select"));
    const hint = errors.get(key);
    message.hidden = !hint;
    message.textContent = hint ?? "";
    if (hint) control.setAttribute("aria-invalid", "true");
    else control.removeAttribute("aria-invalid");
  }
  const note = /** @type {HTMLElement} */ (root.querySelector(".calc-stale-note"));
  root.classList.toggle("calc-stale", !result.ok);
  note.hidden = result.ok;
  if (!result.ok) return;
  for (const output of result.outputs) {
    const element = root.querySelector(`[data-output="${output.key}"] output`);
    if (element) element.textContent = output.text;
  }
  const summary = /** @type {HTMLElement} */ (root.querySelector(".calc-summary"));
  summary.textContent = result.summary;
  const chart = /** @type {HTMLElement | null} */ (root.querySelector(".calc-chart-view"));
  if (chart && result.chart) {
    chart.setAttribute("aria-label", result.chart.description);
    drawChart(chart, result.chart).catch(() => {});
  }
}
