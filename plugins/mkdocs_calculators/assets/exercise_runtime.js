// @ts-check
/**
 * The workers that run readers' exercise code (exercise_worker.js): one for each Run or Check, ended after it, so that
 * nothing a reader's code changes outlives it, and a spare booting meanwhile so that the next one starts at once.
 * They are separate from the tab's calculators' worker (runtime.js), which the reader's code cannot reach.
 *
 * The page takes from a worker only the one reply to the job it sent, of the shape it expects; the verdict is the
 * page's own (gradeOutputs, with grading.js, against values computed in the calculators' worker).
 */
import { verdict } from "./grading.js";

/** @typedef {{worker: Worker, ready: Promise<void>, reply: Promise<any>}} Interpreter */

/** A run that went past its time limit: its worker was ended. */
export class TimeLimitError extends Error {}

/** @type {Interpreter | null} */
let spare = null;

/** Start a worker; `ready` settles when it has booted and locked itself down, `reply` with its one reply. */
function start() {
  const worker = new Worker(new URL("./exercise_worker.js", import.meta.url), { type: "module", name: "exercise" });
  /** @type {(value: any) => void} */
  let answer = () => {};
  /** @type {(error: Error) => void} */
  let refuse = () => {};
  const reply = new Promise((resolve, reject) => {
    answer = resolve;
    refuse = reject;
  });
  const ready = new Promise((resolve, reject) => {
    worker.addEventListener("message", ({ data }) => {
      if (data?.type === "ready") resolve(undefined);
      else if (data?.type === "failed") reject(new Error(String(data.error)));
      else if (data?.type === "done") answer(data.reply);
    });
    worker.addEventListener("error", (event) => {
      event.preventDefault();
      const error = new Error(event.message || "the exercise worker could not be loaded");
      reject(error);
      refuse(error);
    });
  });
  ready.catch(() => {});
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
 * @param {{type: "run" | "cases"} & Record<string, unknown>} job
 * @param {number} limitMs
 * @param {{onBooting?: () => void, onRunning?: () => void}} [stages]
 * @returns {Promise<any>}
 */
export async function runExercise(job, limitMs, { onBooting, onRunning } = {}) {
  const mine = spare ?? start();
  spare = null;
  let booting = true;
  setTimeout(() => booting && onBooting?.(), 0);
  try {
    await mine.ready;
    booting = false;
    onRunning?.();
    mine.worker.postMessage(job);
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
    mine.worker.terminate();
    warmExercises(); // the next run's interpreter, started once this one has stopped using the processor
  }
}

/**
 * The verdict on what a reader's code returned for `cases` (their inputs and expected values, from the calculators'
 * worker), made in the page from the outputs alone: {ok, passed, total, stdout, error, failure}, as the build's
 * calckit.exercise_run.check_code gives it. Anything in the reply that is not a value of the expected form fails.
 * @param {any} ran the exercise worker's reply
 * @param {{inputs: Record<string, number>, expected: number | null}[]} cases
 * @param {import("./grading.js").Tolerance} tolerance
 */
export function gradeOutputs(ran, cases, tolerance) {
  const graded = { ok: false, passed: 0, total: cases.length, stdout: String(ran.stdout ?? "") };
  if (ran.error) return { ...graded, error: ran.error };
  for (const [index, one] of cases.entries()) {
    const got = Array.isArray(ran.results) ? ran.results[index] : undefined;
    const failure = { index, inputs: one.inputs, expected: one.expected, got: "", reason: "", error: null };
    if (got?.kind === "raised") Object.assign(failure, { reason: "raised an error", error: got.error });
    else {
      const reason = got ? verdict(got, one.expected, tolerance) : "returned nothing";
      if (!reason) continue;
      Object.assign(failure, { got: String(got?.shown ?? ""), reason });
    }
    return { ...graded, passed: index, failure };
  }
  return { ...graded, ok: true, passed: cases.length };
}
