// @ts-check
/**
 * Exercises on the page: the prompt and starter code the build rendered (blocks/exercise/render.py writes the markup), made
 * into an editor whose code runs in an interpreter of its own (exercise_runtime.js), never the calculators' one.
 *
 * Run executes the code and shows what it printed and its error, with the line. Check draws fresh cases with a seed
 * of its own, has the calculators' worker (runtime.js, which reader code cannot reach) compute the expected values,
 * gives the reader's code the inputs alone, and grades what comes back here (grading.js); it shows the first case
 * that fails: its inputs, the expected value and what came back. Either stops after TIME_LIMIT_MS; each runs in a
 * fresh interpreter, ended after it, so nothing the code changes carries over to the next run or to the page. The
 * code, whether it passed (by this page's grading alone) and how many honest attempts were made are kept through
 * progress.js under `data-exercise-key`; after HONEST_ATTEMPTS failing checks of changed code, a solution can be shown.
 *
 * The editor (CodeMirror, about 300 kB) loads only when a reader reaches for an exercise: a pointer over it, a touch
 * or a focus inside it; an exercise that is only scrolled past starts its interpreters booting, but makes no editor.
 * Until then the pre-rendered code is itself editable (plain text), Run and Check use it, and the editor takes over
 * what was typed there, with the caret, when it arrives.
 */
import { plural, t } from "./i18n.js";
import { TIME_LIMIT_S, bootRuntime, callPython, setPageGeneration, watchRuntime } from "./runtime.js";
import { TimeLimitError, gradeOutputs, runExercise, warmExercises } from "./exercise_runtime.js";
import { keepRuntimeOffline } from "./offline.js";
import { load as loadProgress, save, watch as watchProgress } from "./progress.js";
import { claim, stageText } from "./status.js";
import { caretIn, loadEditorModule, makeEditable, whenNearScreen, whenReachedFor } from "./exercise_code.js";
import { element, showError, showFailure, showOutput } from "./exercise_result.js";

const TIME_LIMIT_MS = TIME_LIMIT_S * 1000; // the plugin's time_limit: the book's code has as long
const HONEST_ATTEMPTS = 3;
const STYLESHEET = new URL("./exercise.css", import.meta.url).href;

/** @typedef {import("./contracts.js").ExerciseData} ExerciseData */
/** @typedef {import("./contracts.js").ExerciseProgress} Progress */

/**
 * Make each exercise element live; called for every page Material shows.
 * @param {HTMLElement[]} elements
 * @param {number} generation the page's number, for replies from the worker
 */
export function mountExercises(elements, generation) {
  setPageGeneration(generation);
  if (!document.querySelector(`link[href="${STYLESHEET}"]`)) {
    const link = Object.assign(document.createElement("link"), { rel: "stylesheet", href: STYLESHEET });
    document.head.append(link);
  }
  for (const element of elements) mountExercise(element);
  keepRuntimeOffline();
}

/** @param {string} key @param {string} version @returns {Progress} */
function load(key, version) {
  const saved = loadProgress(key);
  if (!saved) return { version, passed: false, attempts: 0 };
  // Code survives an edit of the exercise; a pass counts only for the version that was checked.
  return { version, code: saved.code, passed: saved.version === version && Boolean(saved.passed), attempts: Number(saved.attempts) | 0 };
}

/** @param {HTMLElement} root */
function mountExercise(root) {
  if (!claim(root)) return;
  const data = /** @type {ExerciseData} */ (JSON.parse(root.dataset.exerciseData ?? "{}"));
  const key = /** @type {string} */ (root.dataset.exerciseKey);
  const progress = load(key, /** @type {string} */ (root.dataset.exerciseVersion));
  const { function: name, parameters, tolerance } = data;
  const find = (/** @type {string} */ selector) => /** @type {HTMLElement} */ (root.querySelector(selector));
  const holder = find(".exercise-editor");
  const status = find(".exercise-status");
  const controls = find(".exercise-controls");
  const result = find(".exercise-result");
  const run = /** @type {HTMLButtonElement} */ (find(".exercise-run"));
  const check = /** @type {HTMLButtonElement} */ (find(".exercise-check"));
  const reset = /** @type {HTMLButtonElement} */ (find(".exercise-reset"));
  const confirm = find(".exercise-confirm");
  const solution = find(".exercise-solution");
  const label = find(".exercise-code-label");
  const keys = element("p", { class: "exercise-keys", id: `${root.id}-keys` }, [t("exercise.keys")]);
  label.after(keys);

  let code = progress.code ?? data.starter;
  let busy = false;
  let inOwnPython = false; // the reader's code's interpreter is starting or running: its status, not the calculators'
  /** @type {import("./editor.js").Editor | null} */
  let editor = null;

  const remember = () => save(key, { ...progress, code });
  const setStatus = (/** @type {string} */ text) => {
    status.textContent = text;
  };
  setStatus(progress.passed ? t("exercise.passed.before") : "");
  if (progress.attempts >= HONEST_ATTEMPTS) solution.hidden = false;
  // Another tab's save of this exercise, or a reset or an import on the progress page, reaches this tab: what is stored
  // now is the verdict and the count of attempts, so this tab's next save neither brings back a pass that was reset
  // there nor loses one made there. The code here stays as it is: the reader may be typing in it.
  watchProgress(key, root, () => {
    const stored = load(key, progress.version);
    if (stored.passed && !progress.passed) setStatus(t("exercise.passed.tab"));
    else if (!stored.passed && progress.passed) setStatus(t("exercise.reset.tab"));
    progress.passed = stored.passed;
    progress.attempts = stored.attempts;
    solution.hidden = progress.attempts < HONEST_ATTEMPTS;
  });

  const plain = /** @type {HTMLElement} */ (holder.querySelector("code"));
  if (plain.textContent !== code) plain.textContent = code;
  makeEditable(plain, label.id, keys.id);
  plain.addEventListener("input", () => {
    code = plain.textContent ?? "";
    remember();
  });
  controls.hidden = false;

  /** @type {Promise<import("./editor.js").Editor> | null} */
  let editorReady = null;
  /** The editor, created on first need, with what the reader typed in the plain code and the caret where it was. */
  function ensureEditor() {
    editorReady ??= loadEditorModule().then(
      ({ createEditor }) => {
        const focused = plain.contains(document.activeElement);
        const caret = caretIn(plain);
        code = plain.textContent ?? "";
        holder.textContent = "";
        editor = createEditor({
          parent: holder,
          code,
          labelledBy: label.id,
          describedBy: keys.id,
          onChange(text) {
            code = text;
            remember();
          },
        });
        if (focused) editor.focusAt(caret ?? 0);
        return editor;
      },
      (error) => {
        setStatus(t("exercise.editor.failed"));
        throw error;
      },
    );
    return editorReady;
  }
  const warm = () => {
    warmExercises();
    bootRuntime().catch(() => {}); // the calculators' worker computes each Check's expected values
  };
  whenNearScreen(root, warm);
  whenReachedFor(root, () => {
    ensureEditor().catch(() => {});
    warm();
  });
  /** Put `text` in, in the editor or the plain code, whichever holds it now. @param {string} text */
  const replaceCode = (text) => {
    code = text;
    if (editor) editor.replace(text);
    else plain.textContent = text;
  };

  const stopWatching = watchRuntime(({ stage, error }) => {
    if (!root.isConnected) return stopWatching();
    if (!busy || inOwnPython) return;
    if (stage === "failed") setStatus(t("exercise.python.failed", { error }));
    else if (stageText(stage)) setStatus(stageText(stage));
    else if (stage === "ready") setStatus(t("exercise.running"));
  });

  /**
   * Run `work` with Run and Check unavailable meanwhile; null when stopped, failed or left. They are marked
   * aria-disabled, not disabled: a disabled button loses the focus, which a keyboard or screen reader user would then
   * have to find again from the top of the page.
   * @template {{stdout: string}} R
   * @param {() => Promise<R | null>} work
   * @returns {Promise<R | null>}
   */
  async function call(work) {
    busy = true;
    for (const button of [run, check]) button.setAttribute("aria-disabled", "true");
    setStatus(t("exercise.running"));
    try {
      const reply = await work();
      setStatus("");
      if (reply !== null && (typeof reply !== "object" || typeof reply.stdout !== "string")) {
        throw new Error("a reply of no known shape");
      }
      return reply;
    } catch (error) {
      result.replaceChildren();
      if (error instanceof TimeLimitError) {
        result.append(
          element("p", { class: "exercise-error" }, [
            plural("exercise.stopped", TIME_LIMIT_S),
          ]),
        );
        setStatus("");
      } else {
        setStatus(t("exercise.python.error", { error: /** @type {Error} */ (error).message }));
      }
      return null;
    } finally {
      busy = false;
      for (const button of [run, check]) button.removeAttribute("aria-disabled");
    }
  }

  /** Run a job in a fresh interpreter, saying meanwhile that Python is starting. @param {import("./contracts.js").ExerciseJob} job */
  const runInOwnPython = async (job) => {
    inOwnPython = true;
    try {
      return await runExercise(job, TIME_LIMIT_MS, {
        onBooting: () => setStatus(stageText("runtime")),
        onRunning: () => setStatus(t("exercise.running")),
      });
    } finally {
      inOwnPython = false;
    }
  };

  /** Put the cursor on `line` of the code, in the editor (loaded for it), or else into the plain code. @param {number} line */
  const goToLine = (line) => ensureEditor().then((ready) => ready.goToLine(line), () => plain.focus());

  run.addEventListener("click", async () => {
    if (busy) return;
    const reply = await call(() => runInOwnPython({ type: "run", code }));
    if (!reply || !root.isConnected) return;
    result.replaceChildren();
    if (reply.ok) {
      result.append(
        element("p", { class: "exercise-ran" }, [
          t(reply.stdout ? "exercise.ran" : "exercise.ran.silent"),
        ]),
      );
    }
    showOutput(result, reply.stdout);
    if (reply.error) showError(result, reply.error, "", goToLine);
  });

  check.addEventListener("click", async () => {
    if (busy) return;
    const checked = code;
    const reply = await call(async () => {
      const seed = Array.from(crypto.getRandomValues(new Uint32Array(2)), (word) => word.toString(16)).join("");
      const drawn = await callPython("exercise_cases", { ...data.draw, seed });
      if (!drawn) return null;
      const cases = drawn.cases.map((one) => one.inputs);
      const ran = await runInOwnPython({ type: "cases", code: checked, function: name, parameters, floats: drawn.floats, cases });
      return ran && typeof ran === "object" ? gradeOutputs(ran, drawn.cases, tolerance, t) : ran;
    });
    if (!reply || !root.isConnected) return;
    result.replaceChildren();
    if (reply.ok) {
      progress.passed = true;
      result.append(element("p", { class: "exercise-pass" }, [plural("exercise.pass", reply.total)]));
    } else {
      // An honest attempt: changed since the starter and since the last check.
      if (checked.trim() !== data.starter.trim() && checked !== progress.checked) progress.attempts += 1;
      progress.passed = false;
      if (reply.error) showError(result, reply.error, t("exercise.broken"), goToLine);
      else showFailure(result, reply, data, goToLine);
      if (progress.attempts >= HONEST_ATTEMPTS) solution.hidden = false;
    }
    progress.checked = checked;
    showOutput(result, reply.stdout);
    remember();
  });

  reset.addEventListener("click", () => {
    confirm.hidden = false;
    /** @type {HTMLElement} */ (confirm.querySelector(".exercise-reset-no")).focus();
  });
  confirm.querySelector(".exercise-reset-yes")?.addEventListener("click", () => {
    confirm.hidden = true;
    replaceCode(data.starter);
    remember();
    result.replaceChildren();
    setStatus(t("exercise.reset.done"));
    if (editor) editor.focus();
    else plain.focus();
  });
  confirm.querySelector(".exercise-reset-no")?.addEventListener("click", () => {
    confirm.hidden = true;
    reset.focus();
  });
  confirm.addEventListener("keydown", (event) => {
    if (event.key === "Escape") {
      confirm.hidden = true;
      reset.focus();
    }
  });

  const show = /** @type {HTMLButtonElement} */ (solution.querySelector(".exercise-show-solution"));
  show.addEventListener("click", () => {
    const shown = /** @type {HTMLElement} */ (solution.querySelector(".exercise-solution-code"));
    /** @type {HTMLElement} */ (shown.querySelector("code")).textContent = data.solution;
    shown.hidden = false;
    show.hidden = true;
    shown.setAttribute("tabindex", "-1");
    shown.focus();
  });
}
