// @ts-check
/**
 * Previous, Play and Next for a calculator input that walks through time (an Input declared with `player=True`,
 * pages/render.py): each button sets the field and sends it an `input` event, so that calculator.js recomputes exactly as
 * if the reader had typed the value, and the results' summary (aria-live) says what changed. Play steps once a
 * second (every two with prefers-reduced-motion: reduce), wrapping to the start at max, when the value reaches the
 * output named by `data-until` (a pass's count of cycles), or when the calculator refuses the value; Pause, Previous,
 * Next, Escape, the reader's own edit or leaving the page stop it.
 */
import { fieldShows, readField, t } from "./i18n.js";
import { NumberError } from "./grading.js";
import { claim } from "./status.js";

/** @param {HTMLElement[]} elements */
export function mountPlayers(elements) {
  for (const root of elements) {
    if (!claim(root)) continue;
    mountPlayer(root);
  }
}

/** @param {HTMLElement} root */
function mountPlayer(root) {
  const field = /** @type {HTMLInputElement} */ (document.getElementById(root.dataset.calcPlayer ?? ""));
  const error = /** @type {HTMLElement | null} */ (document.getElementById(`${field.id}-error`));
  const step = Number(root.dataset.step) || 1;
  const min = Number(root.dataset.min);
  const max = Number(root.dataset.max);
  const calculator = root.closest("[data-calculator]");
  const until = root.dataset.until
    ? calculator?.querySelector(`[data-output="${CSS.escape(root.dataset.until)}"] output`)
    : null;
  const [previous, play, next] = /** @type {HTMLButtonElement[]} */ ([...root.querySelectorAll("button")]);
  const calm = matchMedia("(prefers-reduced-motion: reduce)");
  /** @type {ReturnType<typeof setInterval> | null} */
  let timer = null;

  const current = () => {
    try {
      return readField(field.value); // the package's reading, in the book's language: `1,5` is 1.5
    } catch (error) {
      if (error instanceof NumberError) return min; // the package's message shows next to the field
      throw error;
    }
  };
  /** @param {number} value */
  function set(value) {
    field.value = fieldShows(String(Math.min(max, Math.max(min, value))));
    field.dispatchEvent(new Event("input", { bubbles: true }));
    showLimits();
  }
  function showLimits() {
    previous.disabled = current() <= min;
    next.disabled = current() >= max;
  }
  function stop() {
    if (timer !== null) clearInterval(timer);
    timer = null;
    play.textContent = t("player.play");
    play.setAttribute("aria-pressed", "false");
  }
  function tick() {
    if (!root.isConnected) return stop();
    const refused = error !== null && !error.hidden; // this value is past what the others allow: start again
    const end = until ? Number((until.textContent ?? "").replace(/,/g, "")) : NaN;
    const after = current() + step;
    set(refused || after > max || (Number.isFinite(end) && after >= end) ? min : after);
  }

  previous.addEventListener("click", () => {
    stop();
    set(current() - step);
  });
  next.addEventListener("click", () => {
    stop();
    set(current() + step);
  });
  play.addEventListener("click", () => {
    if (timer !== null) return stop();
    play.textContent = t("player.pause");
    play.setAttribute("aria-pressed", "true");
    tick();
    timer = setInterval(tick, calm.matches ? 2000 : 1000);
  });
  root.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && timer !== null) {
      stop();
      play.focus();
    }
  });
  /** @type {HTMLElement} */ (field.closest("[data-input]") ?? field).addEventListener("input", (event) => {
    if (event.isTrusted) stop(); // the reader typed or dragged the slider: their value wins
    showLimits();
  });
  showLimits();
  root.hidden = false;
}
