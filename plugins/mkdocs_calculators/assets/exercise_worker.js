// @ts-check
/**
 * The worker that runs a reader's exercise code: a Pyodide of its own, never the one that computes the calculators
 * (worker.js), started for one Run or Check and ended after it (exercise_runtime.js keeps a warm spare).
 *
 * It boots plainly (the memory snapshot holds the book's package, which the reader's code must not reach), installs
 * calckit alone (its exercise runner, calckit.exercise_run) and then, before any reader code runs, takes away every
 * JavaScript global that reaches beyond this worker: the network, storage, caches, other workers and channels, and
 * its own postMessage, kept here in a closure. Reader code can reach any JavaScript object from Python (pyodide_js,
 * a JsProxy's constructor's constructor gives `globalThis`), so the lockdown is of the globals themselves and of the
 * prototypes they come from; it is checked, and a worker where any of them is still reachable refuses to run code.
 *
 * It is given the code and the cases' inputs, never the expected values: the page grades what comes back.
 * To it:   {type: "run", code} | {type: "cases", code, function, parameters, floats, cases}
 * From it: {type: "ready"} | {type: "failed", error} | {type: "done", reply} (calckit.exercise_run's JSON)
 */
import { wheels } from "./build-info.js";
import { loadPyodide } from "./pyodide/pyodide.mjs";

const CALCKIT = wheels[0]; // the content-hashed name of calckit's wheel, written beside this file: the first
const INDEX_URL = new URL("./pyodide/", import.meta.url).href;
const WHEEL_DIR = "/lib/wheels";
// Python's own limit, below the depth at which the browser's stack runs out for plain Python recursion.
const RECURSION_LIMIT = 400;
// Code that nests deeper in C (json.dumps of a list nested 100,000 deep) runs out of the browser's stack before
// Python's own check: Pyodide then fails with a JavaScript RangeError, said to the reader as Python would say it.
const STACK_EXHAUSTED = {
  type: "RecursionError",
  message: "maximum recursion depth exceeded (the code nests deeper than the browser's stack allows)",
  line: null,
};

/**
 * What reader code must not reach, by the name the worker's global scope gives it: the network, storage and caches
 * of the site, other contexts, and ways to start more JavaScript with a fresh, unlocked global scope.
 */
export const DENIED = [
  "fetch", "XMLHttpRequest", "WebSocket", "WebSocketStream", "WebTransport", "EventSource", "importScripts",
  "caches", "CacheStorage", "Cache", "indexedDB", "IDBFactory", "BroadcastChannel", "Worker", "SharedWorker",
  "Notification", "StorageManager", "LockManager", "FileSystemHandle", "FileSystemDirectoryHandle",
  "webkitRequestFileSystem", "webkitRequestFileSystemSync", "webkitResolveLocalFileSystemURL",
  "webkitResolveLocalFileSystemSyncURL", "cookieStore", "postMessage", "RTCPeerConnection",
];
/** And on `navigator`: the origin's storage (and its private file system), locks, service workers, permissions. */
export const DENIED_ON_NAVIGATOR = ["storage", "locks", "serviceWorker", "permissions", "usb", "hid", "serial"];

const send = self.postMessage.bind(self);

/** Remove `name` from `object` and from every prototype it inherits from, then pin it undefined on `object`. */
function remove(/** @type {object} */ object, /** @type {string} */ name) {
  for (let holder = object; holder; holder = Object.getPrototypeOf(holder)) {
    if (Object.getOwnPropertyDescriptor(holder, name)) {
      try {
        delete (/** @type {any} */ (holder))[name];
      } catch {
        // not configurable: pinned below
      }
    }
  }
  try {
    Object.defineProperty(object, name, { value: undefined, writable: false, configurable: false });
  } catch {
    // checked by `lockDown`
  }
}

/** Take away what DENIED names; throws when any of it is still reachable. */
function lockDown() {
  const { navigator } = self;
  for (const name of DENIED) remove(self, name);
  for (const name of DENIED_ON_NAVIGATOR) remove(navigator, name);
  const left = [
    ...DENIED.filter((name) => /** @type {any} */ (self)[name] !== undefined),
    ...DENIED_ON_NAVIGATOR.filter((name) => /** @type {any} */ (navigator)[name] !== undefined).map((n) => `navigator.${n}`),
  ];
  if (left.length) throw new Error(`this browser keeps ${left.join(", ")} reachable: exercise code is not run here`);
}

async function boot() {
  const wheel = fetch(new URL(CALCKIT, import.meta.url)).then(async (response) => {
    if (!response.ok) throw new Error(`${CALCKIT} could not be loaded: HTTP ${response.status}`);
    return new Uint8Array(await response.arrayBuffer());
  });
  wheel.catch(() => {});
  // Python's `js` module is an empty object rather than this worker's global scope.
  const pyodide = await loadPyodide({ indexURL: INDEX_URL, jsglobals: Object.create(null) });
  pyodide.FS.mkdirTree(WHEEL_DIR);
  pyodide.FS.writeFile(`${WHEEL_DIR}/${CALCKIT}`, await wheel);
  pyodide.runPython(
    `import sys\nsys.path.insert(0, ${JSON.stringify(`${WHEEL_DIR}/${CALCKIT}`)})\nsys.setrecursionlimit(${RECURSION_LIMIT})`,
  );
  const runner = pyodide.pyimport("calckit.exercise_run");
  const call = runner.call_json;
  lockDown();
  return call;
}

const booted = boot();
booted.then(
  () => send({ type: "ready" }),
  (error) => send({ type: "failed", error: String(error?.message ?? error) }),
);

addEventListener("message", async (event) => {
  const data = /** @type {import("./contracts.js").ExerciseJob | null} */ (event.data);
  if (data?.type !== "run" && data?.type !== "cases") return;
  const call = await booted;
  const { type, ...args } = data;
  // Pyodide reports its own failure on the console ("Pyodide has suffered a fatal error..."): held back, and left
  // out when the failure is the reader's code exhausting the stack, which the reader is told in Python's words.
  /** @type {unknown[][]} */
  const held = [];
  const report = console.error;
  console.error = (...parts) => held.push(parts);
  let reply;
  let exhausted = false;
  try {
    reply = JSON.parse(call(type, JSON.stringify(args)));
  } catch (error) {
    // Not Python's error (the runner catches those): the interpreter itself failed. This worker is ended after the
    // run, so a broken interpreter is never used again.
    const text = String(/** @type {any} */ (error)?.message ?? error);
    const message = text.split("\n").findLast((line) => line.trim()) ?? text;
    exhausted = /Maximum call stack size exceeded/.test(text);
    reply = { ok: false, stdout: "", results: [], error: exhausted ? STACK_EXHAUSTED : { type: "Error", message, line: null } };
  } finally {
    console.error = report;
  }
  if (!exhausted) for (const parts of held) report(...parts);
  send({ type: "done", reply });
});
