// @ts-check
/**
 * The tab's one Web Worker running Python, and the typed messages to and from it. The worker lives as long as the
 * tab: instant navigation keeps this module, so going to another page and back reuses the booted runtime.
 *
 * To the worker:   {type: "boot", controlled} | {type: "call", id, generation, function, arguments}
 * Readers' exercise code never runs in this worker: it has workers of its own (exercise_runtime.js).
 * From the worker: {type: "progress", stage} | {type: "ready", ms} | {type: "stored"} | {type: "failed", error}
 *                | {type: "result", id, generation, result} | {type: "error", id, generation, error}
 */

/** @typedef {"idle" | "runtime" | "package" | "ready" | "failed"} Stage */
/** @typedef {{stage: Stage, error?: string}} RuntimeState */

/** @type {Worker | null} */
let worker = null;
/** @type {Promise<void> | null} */
let ready = null;
let nextId = 1;
let pageGeneration = 0;
/** @type {RuntimeState} */
let state = { stage: "idle" };
/** Whether the service worker (sw.js) controlled the page when the worker started: it then caches its downloads. */
let controlled = false;
/** Settles once the worker has put what it downloaded into the offline cache, or has failed (see offline.js). */
let downloadsKept = Promise.resolve();
/** @type {() => void} */
let keepDone = () => {};
/** Calls sent and not yet answered. */
/** @type {Map<number, {resolve: (value: any) => void, reject: (reason: Error) => void}>} */
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
    worker.addEventListener("message", ({ data }) => {
      if (data.type === "progress") setState({ stage: data.stage });
      else if (data.type === "ready") {
        setState({ stage: "ready" });
        resolve();
      } else if (data.type === "stored") keepDone();
      else if (data.type === "failed") {
        fail(data.error);
        reject(new Error(data.error));
      } else if (data.type === "result" || data.type === "error") {
        const request = pending.get(data.id);
        pending.delete(data.id);
        if (!request) return;
        if (data.generation !== pageGeneration) request.resolve(null);
        else if (data.type === "result") request.resolve(data.result);
        else request.reject(new Error(data.error));
      }
    });
    worker.addEventListener("error", (event) => {
      event.preventDefault();
      const error = event.message || "the worker script could not be loaded";
      fail(error);
      reject(new Error(error));
    });
    controlled = Boolean(navigator.serviceWorker?.controller);
    worker.postMessage({ type: "boot", controlled });
  });
  ready.catch(() => {}); // callers see the failure through their own awaits and watchRuntime
  return ready;
}

/**
 * Call `calckit.api.FUNCTIONS[name]` in the worker with JSON keyword arguments. Resolves with its result, or
 * with null when the page has changed since the call was made.
 * @param {string} name
 * @param {Record<string, unknown>} args
 * @returns {Promise<any>}
 */
export async function callPython(name, args) {
  await bootRuntime();
  const id = nextId++;
  return new Promise((resolve, reject) => {
    const message = { type: "call", id, generation: pageGeneration, function: name, arguments: args };
    pending.set(id, { resolve, reject });
    worker?.postMessage(message);
  });
}

/**
 * Run calculator `name` on `inputs` (strings as typed): the package's result, or null for a page since left.
 * @param {string} name
 * @param {Record<string, string>} inputs
 */
export function runCalculator(name, inputs) {
  return callPython("run", { name, inputs });
}
