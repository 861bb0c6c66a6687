// @ts-check
/**
 * The worker that runs a reader's exercise code: a Pyodide of its own, never the one that computes the calculators
 * (worker.js), started for one Run or Check and ended after it (exercise_runtime.js keeps a warm spare).
 *
 * It starts from the build's exercise snapshot when there is one (runtime/snapshot.py: Python with calckit's exercise runner,
 * calckit.exercise_run, imported and nothing of the book's package, which the reader's code must not reach; never the
 * calculators' snapshot, which holds that package), and otherwise boots plainly and installs calckit alone, as it did
 * before: when the build made none (`snapshot: false`), or it is missing, corrupt or made for another runtime. Either
 * way Python's `js` module is the empty object given here (Pyodide restores `js` as the `jsglobals` passed when it
 * restores, not the scope the snapshot was made in). Then, before any reader code runs, it takes away every
 * JavaScript global that reaches beyond this worker: the network, storage, caches, other workers and channels, and
 * its own postMessage, kept here in a closure. Reader code can reach any JavaScript object from Python (pyodide_js,
 * a JsProxy's constructor's constructor gives `globalThis`), so the lockdown is of the globals themselves and of the
 * prototypes they come from; it is checked, and a worker where any of them is still reachable refuses to run code.
 *
 * It is given the code and the cases' inputs, never the expected values: the page grades what comes back.
 * To it:   {type: "run", code} | {type: "cases", code, function, parameters, floats, cases}
 * From it: {type: "ready", boot: "snapshot" | "plain"} | {type: "failed", error} | {type: "done", reply}
 * (calckit.exercise_run's JSON)
 */
import { exerciseSnapshot, exerciseSnapshotFor, wheels } from "./build-info.js";
import { loadPyodide, version } from "./pyodide/pyodide.mjs";
import { snapshotBytes } from "./snapshot_bytes.js";

const CALCKIT = wheels[0]; // the content-hashed name of calckit's wheel, written beside this file: the first
// The exercise snapshot's file name ("" when the build made none), when it was made for this Pyodide and this wheel.
const SNAPSHOT = exerciseSnapshotFor === `${version} ${CALCKIT}` ? exerciseSnapshot : "";
const INDEX_URL = new URL("./pyodide/", import.meta.url).href;
const WHEEL_DIR = "/lib/wheels";
// Python's own limit, below the depth at which the browser's stack runs out for plain Python recursion (the exercise
// snapshot is made with it too: snapshot.mjs).
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

/** @param {string} name a file beside this script @returns {Promise<Response>} */
function download(name) {
  return fetch(new URL(name, import.meta.url));
}

/**
 * Python restored from the exercise snapshot, or null (said on the console) when it cannot be.
 * @param {Promise<Response>} snapshot
 */
async function restore(snapshot) {
  try {
    const bytes = await snapshotBytes(await snapshot);
    return await loadPyodide({ indexURL: INDEX_URL, jsglobals: Object.create(null), _loadSnapshot: bytes });
  } catch (error) {
    console.warn(`calculators: starting the exercise interpreter without its memory snapshot: ${String(error)}`);
    return null;
  }
}

/** Python with calckit's exercise runner imported and nothing else of the site's: its `call_json`, and how it booted. */
async function boot() {
  const snapshot = SNAPSHOT ? download(SNAPSHOT) : null;
  snapshot?.catch(() => {}); // a failed download is a plain boot (restore)
  const wheel = download(CALCKIT).then(async (response) => {
    if (!response.ok) throw new Error(`${CALCKIT} could not be loaded: HTTP ${response.status}`);
    return new Uint8Array(await response.arrayBuffer());
  });
  wheel.catch(() => {});
  let mode = "snapshot";
  let pyodide = snapshot ? await restore(snapshot) : null;
  if (!pyodide) {
    mode = "plain";
    // Python's `js` module is an empty object rather than this worker's global scope.
    pyodide = await loadPyodide({ indexURL: INDEX_URL, jsglobals: Object.create(null) });
  }
  // The wheel's file again after a restore (the snapshot holds Python's memory, not its files), and the same path
  // and limit, which the restored Python already has.
  const path = `${WHEEL_DIR}/${CALCKIT}`;
  pyodide.FS.mkdirTree(WHEEL_DIR);
  pyodide.FS.writeFile(path, await wheel);
  pyodide.runPython(
    `import sys\nif ${JSON.stringify(path)} not in sys.path: sys.path.insert(0, ${JSON.stringify(path)})\nsys.setrecursionlimit(${RECURSION_LIMIT})`,
  );
  const runner = pyodide.pyimport("calckit.exercise_run");
  if (!String(runner.__file__).startsWith(`${path}/`)) throw new Error("the exercise runner is not this build's");
  const call = runner.call_json;
  lockDown();
  return { call, mode };
}

const booted = boot();
booted.then(
  ({ mode }) => send({ type: "ready", boot: mode }),
  (error) => send({ type: "failed", error: String(error?.message ?? error) }),
);

addEventListener("message", async (event) => {
  const data = /** @type {import("./contracts.js").ExerciseJob | null} */ (event.data);
  if (data?.type !== "run" && data?.type !== "cases") return;
  const { call } = await booted;
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
