// @ts-check
/**
 * The tab's one Web Worker running Python, and the typed messages to and from it. The worker lives as long as the
 * tab: instant navigation keeps this module, so going to another page and back reuses the booted runtime.
 *
 * To the worker:   {type: "boot", controlled, interrupt} | {type: "call", id, generation, function, arguments}
 * (a call with a time limit, callPythonWithin, ends the worker when it runs past it, and starts a new one).
 * Readers' exercise code never runs in this worker: it has workers of its own (exercise_runtime.js).
 * From the worker: {type: "progress", stage} | {type: "ready", ms} | {type: "stored"} | {type: "failed", error}
 *                | {type: "started", id} | {type: "result", id, generation, json}
 *                | {type: "error", id, generation, error}
 */
import { timeLimit } from "./build-info.js";

/** Milliseconds the book's code may take for one call (the plugin's time_limit option, in seconds). */
const TIME_LIMIT_MS = timeLimit * 1000;

/** @typedef {import("./contracts.js").Stage} Stage */
/** @typedef {{stage: Stage, error?: string}} RuntimeState */
/** @typedef {import("./contracts.js").PythonResults} PythonResults */
/** @typedef {import("./contracts.js").PythonFunction} PythonFunction */
/** @typedef {import("./contracts.js").ToWorker} ToWorker */
/** @typedef {import("./contracts.js").FromWorker} FromWorker */

/** @type {Worker | null} */
let worker = null;
/** @type {Promise<void> | null} */
let ready = null;
let nextId = 1;
let pageGeneration = 0;
/** @type {RuntimeState} */
let state = { stage: "idle" };
/**
 * Where a call with a time limit asks Python to stop, without ending the worker: Pyodide's interrupt buffer, shared
 * memory that only a cross-origin isolated page has (a host sending COOP and COEP headers). Elsewhere, null.
 * @type {Int32Array | null}
 */
const interrupt = globalThis.crossOriginIsolated ? new Int32Array(new SharedArrayBuffer(4)) : null;
const INTERRUPT_GRACE_MS = 1000; // how long Python may take to stop when asked, before the worker is ended
/** Whether the service worker (sw.js) controlled the page when the worker started: it then caches its downloads. */
let controlled = false;
/** Settles once the worker has put what it downloaded into the offline cache, or has failed (see offline.js). */
let downloadsKept = Promise.resolve();
/** @type {() => void} */
let keepDone = () => {};
/** Calls sent and not yet answered, with their message, which a restarted worker is sent again. */
/** @type {Map<number, {resolve: (value: unknown) => void, reject: (reason: Error) => void, message?: ToWorker, started?: () => void}>} */
const pending = new Map();
/** @type {Set<(state: RuntimeState) => void>} */
const listeners = new Set();

/** @param {RuntimeState} next */
function setState(next) {
  state = next;
  for (const listener of listeners) listener(state);
}

/** Replies for an older page than this one are dropped. @param {number} generation */
export function setPageGeneration(generation) {
  pageGeneration = generation;
}

/** Whether this tab's runtime started under the service worker's control; null before it starts (see offline.js). */
export function startedUnderServiceWorker() {
  return worker ? controlled : null;
}

/** Settles when what this tab's runtime downloaded by itself is in the offline cache (at once before it starts). */
export function runtimeDownloadsKept() {
  return downloadsKept;
}

/** Follow the runtime's loading stages; called at once with the current one. @param {(state: RuntimeState) => void} listener */
export function watchRuntime(listener) {
  listeners.add(listener);
  listener(state);
  return () => listeners.delete(listener);
}

/** @param {string} error */
function fail(error) {
  keepDone();
  setState({ stage: "failed", error });
  for (const { reject } of pending.values()) reject(new Error(error));
  pending.clear();
}

/** Start the worker (once per tab) and resolve when Python and the calculators are loaded. */
export function bootRuntime() {
  if (ready) return ready;
  downloadsKept = new Promise((resolve) => {
    keepDone = resolve;
  });
  ready = new Promise((resolve, reject) => {
    try {
      worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module", name: "calculators" });
    } catch (error) {
      fail(String(error));
      reject(error);
      return;
    }
    worker.addEventListener("message", (event) => {
      const data = /** @type {FromWorker} */ (event.data);
      if (data.type === "progress") setState({ stage: data.stage });
      else if (data.type === "ready") {
        setState({ stage: "ready" });
        resolve();
      } else if (data.type === "stored") keepDone();
      else if (data.type === "started") pending.get(data.id)?.started?.();
      else if (data.type === "failed") {
        fail(data.error);
        reject(new Error(data.error));
      } else if (data.type === "result" || data.type === "error") {
        const request = pending.get(data.id);
        pending.delete(data.id);
        if (!request) return;
        if (data.generation !== pageGeneration) request.resolve(null);
        else if (data.type === "result") request.resolve(JSON.parse(data.json));
        else request.reject(new CallError(data.error));
      }
    });
    worker.addEventListener("error", (event) => {
      event.preventDefault();
      const error = event.message || "the worker script could not be loaded";
      fail(error);
      reject(new Error(error));
    });
    controlled = Boolean(navigator.serviceWorker?.controller);
    worker.postMessage({ type: "boot", controlled, interrupt });
  });
  ready.catch(() => {}); // callers see the failure through their own awaits and watchRuntime
  // entry.js registers the service worker once the tab's first boot settles (its install would compete with it).
  document.dispatchEvent(new CustomEvent("calculators:boot", { detail: ready }));
  return ready;
}

/**
 * Call `calckit.api.FUNCTIONS[name]` in the worker with JSON keyword arguments. Resolves with its result, or
 * with null when the page has changed since the call was made.
 * @template {PythonFunction} F
 * @param {F} name
 * @param {Record<string, unknown>} args
 * @returns {Promise<PythonResults[F] | null>}
 */
export async function callPython(name, args) {
  await bootRuntime();
  const id = nextId++;
  return new Promise((resolve, reject) => {
    /** @type {ToWorker} */
    const message = { type: "call", id, generation: pageGeneration, function: name, arguments: args };
    // What calckit answered for `name`: the worker runs the book's own code, which the build checked.
    const answered = (/** @type {unknown} */ value) => resolve(/** @type {PythonResults[F] | null} */ (value));
    pending.set(id, { resolve: answered, reject, message });
    worker?.postMessage(message);
  });
}

/** A call that ran past its time limit: the worker was ended, and a new one is starting. */
export class TimeLimitError extends Error {}

/** A call that Python answered with an error (the runtime itself still works). */
export class CallError extends Error {}

/**
 * Like callPython, for the book's code that may never return (a calculator's compute): when no reply comes within
 * `limitMs` of the worker starting on it, the call fails with a TimeLimitError. On a cross-origin isolated page Python
 * is first asked to stop (Pyodide's interrupt buffer); otherwise, or if it does not stop, the worker is ended and
 * started again, since a loop blocks the worker's thread. The other calls waiting on it are then sent again to the
 * new worker, so the page's other calculators keep working.
 * @template {PythonFunction} F
 * @param {F} name
 * @param {Record<string, unknown>} args
 * @param {number} limitMs
 * @returns {Promise<PythonResults[F] | null>}
 */
export async function callPythonWithin(name, args, limitMs) {
  await bootRuntime();
  const id = nextId++;
  return new Promise((resolve, reject) => {
    /** @type {ToWorker} */
    const message = { type: "call", id, generation: pageGeneration, function: name, arguments: args };
    const stopped = () => new TimeLimitError(`stopped after ${limitMs / 1000} s`);
    let asked = false; // to stop, through the interrupt buffer: the reply that follows is the stopped call's
    const end = () => {
      if (!pending.delete(id)) return;
      restartRuntime();
      reject(stopped());
    };
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    let timer;
    // The limit runs from when the worker starts on the call (sent again to a restarted worker: from its start
    // there), so neither the boot nor the calls queued before it count.
    const started = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        if (!interrupt) return end();
        asked = true;
        Atomics.store(interrupt, 0, 2); // SIGINT: Python raises KeyboardInterrupt in the reader's code
        timer = setTimeout(end, INTERRUPT_GRACE_MS);
      }, limitMs);
    };
    /** @param {() => void} settle */
    const done = (settle) => {
      clearTimeout(timer);
      if (asked) reject(stopped());
      else settle();
    };
    pending.set(id, {
      resolve: (value) => done(() => resolve(/** @type {PythonResults[F] | null} */ (value))),
      reject: (reason) => done(() => reject(reason)),
      message,
      started,
    });
    worker?.postMessage(message);
  });
}

/** End the worker and start another, then send it the calls the old one left unanswered. */
function restartRuntime() {
  if (interrupt) Atomics.store(interrupt, 0, 0); // the new worker starts with no stop asked for
  keepDone(); // whatever the old worker had not cached yet, sw.js may fetch now
  worker?.terminate();
  worker = null;
  ready = null;
  bootRuntime().then(
    () => {
      for (const { message } of pending.values()) if (message) worker?.postMessage(message);
    },
    () => {}, // the failure reaches every waiting call and watchRuntime
  );
}

/**
 * Run calculator `name` on `inputs` (strings as typed): the package's result, or null for a page since left.
 * @param {string} name
 * @param {Record<string, string>} inputs
 */
export function runCalculator(name, inputs) {
  // The book's code may never return for some inputs: past the limit the worker is ended and started again, and the
  // page's other calculators are answered by the new one.
  return callPythonWithin("run", { name, inputs }, TIME_LIMIT_MS);
}

/** The time limit of a calculator's run, in seconds, as the page says it. */
export const TIME_LIMIT_S = TIME_LIMIT_MS / 1000;
