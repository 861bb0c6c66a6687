// @ts-check
/**
 * The workers that run readers' exercise code (exercise_worker.js): one for each Run or Check, ended after it, so that
 * nothing a reader's code changes outlives it, and a spare booting meanwhile so that the next one starts at once.
 * They are separate from the tab's calculators' worker (runtime.js), which the reader's code cannot reach.
 *
 * The page takes from a worker only the one reply to the job it sent, of the shape it expects; the verdict is the
 * page's own (gradeOutputs, with grading.js, against values computed in the calculators' worker).
 */
import { english, judge } from "./grading.js";
import { t } from "./i18n.js";

/** @typedef {import("./contracts.js").Ran} Ran */
/** @typedef {import("./contracts.js").Case} Case */
/** @typedef {{worker: Promise<Worker>, ready: Promise<void>, reply: Promise<Ran>}} Interpreter */

/** A run that went past its time limit: its worker was ended. */
export class TimeLimitError extends Error {}

/** An interpreter that did not start (its script did not load, or Python did not boot): no reader code ran in it. */
class NotStartedError extends Error {}

/** @type {Interpreter | null} */
let spare = null;

/**
 * How each interpreter started so far booted, in order: "snapshot" (restored from the build's exercise snapshot) or
 * "plain" (it fell back to a plain boot). For tests and measurements; the reader is not told.
 * @type {("snapshot" | "plain")[]}
 */
export const boots = [];

/**
 * The policy the exercise workers run under: scripts from this site only, WebAssembly compiled, requests to this site
 * only. The worker's lockdown takes away every global that reaches further, but `import()` is syntax, not a global:
 * without this policy, reader code could load a script from any host (the worker's own globals would still be locked).
 * worker-src covers the blob and the modules it imports (a module worker fetches its static imports as a worker's);
 * script-src what the worker's code loads with import() later, Pyodide's own files and nothing from elsewhere. JavaScript
 * that reader code evaluates ('unsafe-eval', through a JsProxy's Function constructor) runs in the locked-down scope and
 * gains nothing by it; the tests that probe the lockdown from Python go that way, as a reader would.
 */
export const WORKER_POLICY =
  "default-src 'none'; script-src 'self' 'unsafe-eval' 'wasm-unsafe-eval'; connect-src 'self'; worker-src 'self' blob:";

/**
 * How long a new worker (and, for the first, the frame that makes it) may take to run the first line of its script,
 * which needs no download: one that has not by then never will (the browser did not start it). It is replaced, as one
 * whose script did not load is; each of the three failures has a reason of its own. Busy CI machines (load 8 on 2
 * cores) start one in well under a second.
 */
const START_LIMIT_MS = 15_000;
const NOT_LOADED = "the exercise worker could not be loaded";

/** @type {Promise<typeof Worker> | null} */
let policed = null;

/**
 * A Worker constructor whose workers run under WORKER_POLICY. A worker loaded from the site's own address takes its
 * policy from the response's headers, which a static host does not let the book set; a worker loaded from a blob:
 * address inherits the policy of the document that makes it. So the workers are made by a blank, same-origin frame
 * that carries the policy in a meta element, each from a blob that imports exercise_worker.js. The frame hangs from
 * the root element, outside the body that instant navigation replaces, so it outlives page changes.
 * @returns {Promise<typeof Worker>}
 */
function policedWorker() {
  policed ??= new Promise((resolve, reject) => {
    /** @param {string} why */
    const fail = (why) => {
      frame.remove();
      policed = null; // the next interpreter makes a fresh frame
      reject(new NotStartedError(why));
    };
    const frame = document.createElement("iframe");
    frame.hidden = true;
    frame.setAttribute("aria-hidden", "true");
    frame.tabIndex = -1;
    frame.title = t("exercise.sandbox");
    const policy = WORKER_POLICY.replaceAll("'", "&#39;");
    frame.srcdoc = `<!doctype html><meta http-equiv="Content-Security-Policy" content="${policy}"><title>exercises</title>`;
    // The frame needs no download: one that has not loaded when a worker should have started never will.
    const stuck = setTimeout(() => fail("the exercise sandbox did not load"), START_LIMIT_MS);
    frame.addEventListener("load", () => {
      clearTimeout(stuck);
      const made = /** @type {(Window & typeof globalThis) | null} */ (frame.contentWindow)?.Worker;
      if (made) resolve(made);
      else fail("the exercise sandbox could not be made");
    });
    document.documentElement.append(frame);
  });
  return policed;
}

/**
 * The worker's first script: it says it is alive, then imports exercise_worker.js, whose failure to load it reports
 * as a start that failed. @param {string} script
 */
const firstScript = (script) =>
  `postMessage({type: "alive"});\nimport(${JSON.stringify(script)}).catch(() => postMessage({type: "failed", error: ${JSON.stringify(NOT_LOADED)}}));\n`;

/** Start a worker; `ready` settles when it has booted and locked itself down, `reply` with its one reply. */
function start() {
  const script = new URL("./exercise_worker.js", import.meta.url).href;
  const source = URL.createObjectURL(new Blob([firstScript(script)], { type: "text/javascript" }));
  const worker = policedWorker().then((PolicedWorker) => new PolicedWorker(source, { type: "module", name: "exercise" }));
  /** @type {(value: Ran) => void} */
  let answer = () => {};
  /** @type {(error: Error) => void} */
  let refuse = () => {};
  /** @type {Promise<Ran>} */
  const reply = new Promise((resolve, reject) => {
    answer = resolve;
    refuse = reject;
  });
  worker.catch(refuse);
  /** @type {Promise<void>} */
  const ready = worker.then((created) => new Promise((resolve, reject) => {
    let started = false; // once it has, an error may come from the reader's code, which is never run twice
    const stuck = setTimeout(() => {
      created.terminate();
      reject(new NotStartedError("the exercise worker did not start"));
    }, START_LIMIT_MS);
    created.addEventListener("message", (event) => {
      const data = /** @type {import("./contracts.js").FromExerciseWorker | null} */ (event.data);
      if (data?.type === "alive") clearTimeout(stuck);
      else if (data?.type === "ready") {
        started = true;
        boots.push(data.boot);
        resolve(undefined);
      } else if (data?.type === "failed") reject(new NotStartedError(String(data.error)));
      else if (data?.type === "done") answer(data.reply);
    });
    created.addEventListener("error", (event) => {
      event.preventDefault();
      clearTimeout(stuck);
      const message = event.message || NOT_LOADED;
      const error = started ? new Error(message) : new NotStartedError(message);
      reject(error);
      refuse(error);
    });
  }));
  ready.finally(() => URL.revokeObjectURL(source)).catch(() => {});
  reply.catch(() => {});
  return { worker, ready, reply };
}

/** Have an interpreter booting for the first Run or Check: called when a reader reaches for an exercise. */
export function warmExercises() {
  spare ??= start();
}

/**
 * Run one job in a fresh interpreter: its reply, or TimeLimitError when it runs past `limitMs` (the boot is not
 * counted). `onBooting` is called if the interpreter is still starting, `onRunning` once the job is sent to it.
 * An interpreter that does not start (a download that failed once, on a flaky network or a busy machine) is replaced
 * once by a fresh one before the reader is told: none of their code had run in it.
 * @param {import("./contracts.js").ExerciseJob} job
 * @param {number} limitMs
 * @param {{onBooting?: () => void, onRunning?: () => void}} [stages]
 * @returns {Promise<Ran>}
 */
export async function runExercise(job, limitMs, stages = {}) {
  try {
    return await runIn(job, limitMs, stages);
  } catch (error) {
    if (!(error instanceof NotStartedError)) throw error;
    console.warn(`An exercise interpreter did not start (${error.message}): trying a fresh one.`);
    return runIn(job, limitMs, stages);
  }
}

/**
 * runExercise, in the spare interpreter (or a new one) and no other.
 * @param {import("./contracts.js").ExerciseJob} job
 * @param {number} limitMs
 * @param {{onBooting?: () => void, onRunning?: () => void}} stages
 * @returns {Promise<Ran>}
 */
async function runIn(job, limitMs, { onBooting, onRunning }) {
  const mine = spare ?? start();
  spare = null;
  let booting = true;
  setTimeout(() => booting && onBooting?.(), 0);
  try {
    await mine.ready;
    booting = false;
    onRunning?.();
    (await mine.worker).postMessage(job);
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    let timer;
    const late = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new TimeLimitError(`stopped after ${limitMs / 1000} s`)), limitMs);
    });
    try {
      return await Promise.race([mine.reply, late]);
    } finally {
      clearTimeout(timer);
    }
  } finally {
    booting = false;
    mine.worker.then((worker) => worker.terminate(), () => {});
    warmExercises(); // the next run's interpreter, started once this one has stopped using the processor
  }
}

/**
 * The verdict on what a reader's code returned for `cases` (their inputs and expected values, from the calculators'
 * worker), made in the page from the outputs alone: {ok, passed, total, stdout, error, failure}, as the build's
 * calckit.exercise_run.check_code gives it. Anything in the reply that is not a value of the expected form fails.
 * @param {Ran} ran the exercise worker's reply
 * @param {Case[]} cases
 * @param {import("./contracts.js").Tolerance} tolerance
 * @param {(key: string, params?: Record<string, string>) => string} [say] the words of each reason (the catalogue's,
 * i18n.js's `t` in the book's language; English, as calckit says them, by default)
 * @returns {import("./contracts.js").Checked}
 */
export function gradeOutputs(ran, cases, tolerance, say = english) {
  const graded = { ok: false, passed: 0, total: cases.length, stdout: String(ran.stdout ?? ""), error: null, failure: null };
  if (ran.error) return { ...graded, error: ran.error };
  for (const [index, one] of cases.entries()) {
    const got = Array.isArray(ran.results) ? ran.results[index] : undefined;
    /** @type {import("./contracts.js").CaseFailure} */
    const failure = { index, inputs: one.inputs, expected: one.expected, got: "", reason: "", error: null };
    if (got?.kind === "raised") Object.assign(failure, { reason: say("grading.raised"), error: got.error });
    else {
      const judged = got ? judge(got, one.expected, tolerance) : { key: "grading.nothing", params: {} };
      if (!judged) continue;
      const reason = say(judged.key, judged.params);
      Object.assign(failure, { got: String(got?.shown ?? ""), reason });
    }
    return { ...graded, passed: index, failure };
  }
  return { ...graded, ok: true, passed: cases.length };
}
