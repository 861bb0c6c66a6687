// @ts-check
/**
 * The module worker that runs the book's package in Pyodide, off the page's main thread, through calckit. It boots
 * once, on the first "boot" or "call" message, and answers every "call" by running one of `calckit.api.FUNCTIONS`
 * (for example `run`, which gives the same data the build pre-rendered).
 *
 * It starts from the build's memory snapshot when there is one (Python with the book's package already imported, see
 * runtime/snapshot.py), and boots Pyodide plainly when the snapshot is missing, corrupt or made for another runtime. A file
 * that Python cannot start without (the wasm, the standard library, a wheel) fails the boot with its name.
 * Booted, it has no network (closeNetwork): it needs none, and the book's own code then cannot reach one either.
 * Readers' exercise code never runs here (exercise_worker.js is its own worker).
 */
import { loadPyodide, version } from "./pyodide/pyodide.mjs";
import { snapshotBytes } from "./snapshot_bytes.js";

// The build's values (runtime/layout.py's BuildInfo): the content-hashed names of the wheels written beside this file
// (calckit, then the book's package) and the book's package, which calckit is told to use (calckit.book.use); the
// memory snapshot's file name ("" when the build made none; see runtime/snapshot.py) and "<Pyodide version> <wheel> <wheel>"
// that it was made with, which must be what this worker runs; {file: content hash} for the files this worker fetches
// ({} when the site has no service worker), kept in the offline cache that sw.js serves from, under the same keys
// (URL?v=hash); and the modules that the book's package imports and the browser lacks: none, unless the build was
// not strict (`mkdocs serve`), which said so at their lines. Each is a stand-in (calckit/stand_ins.py), so that only
// the calculators whose code uses one fail, saying so, and the page's others compute.
import {
  cached as CACHED,
  missing as MISSING,
  bookPackage as PACKAGE,
  pyodideFiles as PYODIDE_FILES,
  runtimeCache,
  snapshot as SNAPSHOT,
  snapshotFor as SNAPSHOT_FOR,
  wheels as WHEELS,
} from "./build-info.js";

const RUNTIME_CACHE = runtimeCache + new URL("../../", import.meta.url).href; // the cache sw.js keeps the runtime in
const INDEX_URL = new URL("./pyodide/", import.meta.url).href;
const WHEEL_DIR = "/lib/wheels"; // as in snapshot.mjs: each wheel's file goes here and onto sys.path
// PYODIDE_FILES are fetched by Pyodide itself: a missing or broken one fails the boot at once instead of leaving it
// hanging. The wasm comes first.
const [WASM] = PYODIDE_FILES;

/** A runtime file that cannot be had: the boot fails (no fallback can do without it). */
class Unavailable extends Error {}

/** Whether the page that started this worker was under the service worker's control, which then caches downloads. */
let controlled = false;
/** @type {Promise<unknown>[]} */
const storing = [];
/** @type {(error: Error) => void} */
let abortBoot = () => {};
const aborted = new Promise((_, reject) => {
  abortBoot = reject;
});
aborted.catch(() => {});
const network = self.fetch.bind(self);

/** @type {Promise<any> | null} */
let api = null;
/** Where the page asks Python to stop (2, SIGINT): only when it is cross-origin isolated (see runtime.js). */
/** @type {Int32Array | null} */
let interrupt = null;

/** When each stage of the boot ended, in ms since it started: sent with "ready", for `make bench` (T2 by stage). */
/** @type {Record<string, number>} */
const stages = {};
let bootStarted = 0;
/** @param {string} name */
function mark(name) {
  stages[name] ??= Math.round(performance.now() - bootStarted);
}

/** @param {string} stage */
function progress(stage) {
  postMessage({ type: "progress", stage });
}

/**
 * A runtime file, from the offline cache when it holds this build's copy, else from the network (and then kept in
 * the cache, unless the service worker controls this worker and keeps it itself). The files on the boot's critical
 * path (the wasm and the snapshot) are asked for with high priority, ahead of the page's own downloads.
 * @param {string} name path relative to this script
 * @param {RequestPriority} [priority]
 * @returns {Promise<Response>}
 */
async function fetchRuntime(name, priority = "auto") {
  const url = new URL(name, import.meta.url).href;
  const key = CACHED[name] ? `${url}?v=${CACHED[name]}` : "";
  const cache = key && "caches" in self ? await caches.open(RUNTIME_CACHE).catch(() => null) : null;
  const hit = await cache?.match(key);
  if (hit) return hit;
  const response = await network(url, { priority });
  if (cache && response.ok && !controlled) storing.push(cache.put(key, response.clone()).catch(() => {}));
  return response;
}

/**
 * A file the runtime cannot start without; a failure aborts the boot with a message naming it.
 * @param {string} name @param {RequestPriority} [priority]
 */
async function required(name, priority) {
  const file = name.split("/").pop();
  mark(`${file} asked`);
  try {
    const response = await fetchRuntime(name, priority);
    if (!response.ok) throw new Unavailable(`${file} could not be loaded: HTTP ${response.status}`);
    if (name.endsWith(".wasm")) await checkWasm(response, file);
    mark(`${file} answered`);
    return response;
  } catch (error) {
    const failure = error instanceof Unavailable ? error : new Unavailable(`${file} could not be downloaded`);
    abortBoot(failure);
    throw failure;
  }
}

/** Pyodide swallows a failed compile and never settles, so look at the first bytes. @param {Response} response @param {string | undefined} file */
async function checkWasm(response, file) {
  const reader = /** @type {ReadableStream<Uint8Array>} */ (response.clone().body).getReader();
  const { value } = await reader.read();
  reader.cancel().catch(() => {});
  const magic = [0x00, 0x61, 0x73, 0x6d]; // "\0asm"
  if (!value || value.length < 4 || magic.some((byte, i) => value[i] !== byte)) {
    throw new Unavailable(`${file} is not WebAssembly`);
  }
}

/**
 * Pyodide's own downloads, started when the boot starts (see `boot`) rather than when Pyodide gets to each: it asks
 * for the wasm only once pyodide.asm.mjs has loaded and run, by which time the wasm could be half downloaded.
 * @type {Map<string, Promise<Response>>}
 */
const early = new Map();

/**
 * Pyodide's wasm, compiled as it downloads from the moment the boot starts (see compileWasm). Pyodide itself would
 * compile it only once the memory snapshot is downloaded and decompressed (it sizes the memory from the snapshot
 * before it instantiates the module), so the compile would follow the snapshot instead of running beside it.
 * @type {Promise<WebAssembly.Module> | null}
 */
let compiledWasm = null;

// Pyodide's own downloads go through `required`, so they are cached and checked like ours; each early download is
// handed out once (a plain boot after a failed restore asks again). When one fails, the boot is already aborted with
// the reason, so Pyodide's request is left pending rather than rejected unhandled. The wasm, already compiled, is
// not downloaded again: Pyodide gets an empty answer, which instantiateStreaming (below) does not read.
self.fetch = (input, init) => {
  const url = input instanceof Request ? input.url : String(input);
  const name = PYODIDE_FILES.find((file) => new URL(file, import.meta.url).href === url);
  if (!name) return network(input, init);
  if (name === WASM && compiledWasm) return Promise.resolve(new Response(null));
  const response = early.get(name) ?? required(name);
  early.delete(name);
  return response.catch(() => new Promise(() => {}));
};

/**
 * Compile the wasm as its bytes arrive (compileStreaming needs the type application/wasm, which static hosts give
 * .wasm; from a host that does not, the bytes are compiled once all in). A wasm that does not compile fails the boot
 * saying so: Pyodide would swallow the failure and never settle.
 * @param {Promise<Response>} download
 */
async function compileWasm(download) {
  const response = await download;
  const type = response.headers.get("content-type")?.split(";")[0].trim();
  try {
    const module = await (type === "application/wasm"
      ? WebAssembly.compileStreaming(response)
      : WebAssembly.compile(await response.arrayBuffer()));
    mark("wasm compiled");
    return module;
  } catch (error) {
    const failure = new Unavailable(`pyodide.asm.wasm could not be compiled: ${describe(error)}`);
    abortBoot(failure);
    throw failure;
  }
}

// Pyodide instantiates the module compiled beside the downloads (compileWasm) rather than the response it fetched.
const instantiateStreaming = WebAssembly.instantiateStreaming;
WebAssembly.instantiateStreaming = async (
  /** @type {Response | PromiseLike<Response>} */ source,
  /** @type {WebAssembly.Imports | undefined} */ imports,
) => {
  if (!compiledWasm) return instantiateStreaming(source, imports);
  const module = await compiledWasm;
  const instance = await WebAssembly.instantiate(module, imports);
  mark("wasm instantiated");
  return { module, instance };
};

/**
 * The build's snapshot, downloaded with high priority (it is on the boot's critical path), decompressed and checked.
 * @returns {Promise<Uint8Array>}
 */
async function fetchSnapshot() {
  const response = await fetchRuntime(SNAPSHOT, "high");
  const bytes = await snapshotBytes(response, () => mark("snapshot downloaded"));
  mark("snapshot decompressed");
  return bytes;
}

/**
 * Put the wheels on sys.path, as snapshot.mjs did before taking the snapshot.
 * @param {import("./pyodide/pyodide.mjs").PyodideAPI} pyodide @param {Uint8Array[]} wheels in the order of WHEELS
 */
function installWheels(pyodide, wheels) {
  pyodide.FS.mkdirTree(WHEEL_DIR);
  const paths = WHEELS.map((name, index) => {
    const path = `${WHEEL_DIR}/${name}`;
    pyodide.FS.writeFile(path, wheels[index]);
    return path;
  });
  pyodide.runPython(
    `import sys\nfor path in reversed(${JSON.stringify(paths)}):\n    if path not in sys.path: sys.path.insert(0, path)`,
  );
}

/** @template T @param {Promise<T>} promise @returns {Promise<T>} */
function unlessAborted(promise) {
  return Promise.race([promise, aborted]);
}

/**
 * Restore the build's memory snapshot: Python with the book's package already imported.
 * @param {Promise<Uint8Array[]>} wheels
 * @param {Promise<Uint8Array> | null} snapshot downloading since the boot started (unless made for another runtime)
 */
async function restore(wheels, snapshot) {
  if (SNAPSHOT_FOR !== [version, ...WHEELS].join(" ") || !snapshot) {
    throw new Error(`it was made for ${SNAPSHOT_FOR}, not for Pyodide ${version} with ${WHEELS.join(" ")}`);
  }
  // Pyodide takes the snapshot as a promise: the wasm compiles meanwhile (compileWasm).
  const pyodide = await unlessAborted(loadPyodide({ indexURL: INDEX_URL, _loadSnapshot: snapshot }));
  mark("memory restored");
  progress("package");
  installWheels(pyodide, await wheels);
  const origin = pyodide.runPython(`import sys; getattr(sys.modules.get(${JSON.stringify(PACKAGE)}), '__file__', '')`);
  const own = `${WHEEL_DIR}/${WHEELS[WHEELS.length - 1]}/`;
  if (!String(origin).startsWith(own)) throw new Error(`it does not hold this build's ${PACKAGE} package`);
  return pyodide;
}

async function boot() {
  const started = performance.now();
  bootStarted = started;
  progress("runtime");
  // The boot's critical path is the wasm's download and compile, beside the snapshot's download and decompression:
  // both are asked for first, with high priority, and the wasm compiles as it arrives.
  compiledWasm = compileWasm(required(WASM, "high"));
  compiledWasm.catch(() => {}); // the boot is aborted with the reason
  const snapshot = SNAPSHOT && SNAPSHOT_FOR === [version, ...WHEELS].join(" ") ? fetchSnapshot() : null;
  snapshot?.catch(() => {}); // Pyodide sees the failure when it gets to the snapshot; not unhandled before that
  for (const name of PYODIDE_FILES.filter((file) => file !== WASM)) {
    const response = required(name);
    response.catch(() => {}); // the boot is aborted with the reason; Pyodide's own request sees it
    early.set(name, response);
  }
  const wheels = Promise.all(
    WHEELS.map((name) => required(name).then(async (response) => new Uint8Array(await response.arrayBuffer()))),
  ).then((bytes) => {
    mark("wheels downloaded");
    return bytes;
  });
  wheels.catch(() => {});
  let pyodide = null;
  let mode = "snapshot";
  if (SNAPSHOT) {
    try {
      pyodide = await restore(wheels, snapshot);
    } catch (error) {
      if (error instanceof Unavailable) throw error;
      console.warn(`calculators: starting Python without the memory snapshot: ${describe(error)}`);
    }
  }
  if (!pyodide) {
    mode = "plain";
    pyodide = await unlessAborted(loadPyodide({ indexURL: INDEX_URL }));
    mark("Python booted");
    progress("package");
    installWheels(pyodide, await wheels);
  }
  mark("wheels installed");
  if (interrupt) pyodide.setInterruptBuffer(interrupt);
  if (MISSING.length) {
    console.warn(`calculators: the browser has no ${MISSING.join(", ")}: calculators whose code uses it will say so`);
    pyodide.pyimport("calckit.stand_ins").use_with_stand_ins(PACKAGE, MISSING);
  } else if (mode !== "snapshot") {
    // After a restore the book is in use already: snapshot.mjs made it so, for these very wheels (restore checks that
    // the snapshot was made for them); loading it again looked over every module of the package for nothing.
    pyodide.pyimport("calckit.book").use(PACKAGE);
  }
  const module = pyodide.pyimport("calckit.api");
  // Everything Python holds by now (the standard library, calckit, the book's package) lives as long as the worker:
  // kept out of the garbage collector's reach, a collection during a call walks only what that call made.
  pyodide.runPython("import gc; gc.freeze()");
  mark("package imported");
  closeNetwork();
  const ms = performance.now() - started;
  mark("ready");
  // Each download's last byte, from the browser's own timing (what `mark` cannot see: Pyodide's own script import).
  for (const entry of /** @type {PerformanceResourceTiming[]} */ (performance.getEntriesByType("resource"))) {
    const file = new URL(entry.name).pathname.split("/").pop();
    if (file && entry.startTime >= bootStarted && entry.responseEnd) {
      stages[`${file} received`] ??= Math.round(entry.responseEnd - bootStarted);
    }
  }
  /** @type {any} */ (self).calculatorsBoot = { mode, ms, stages }; // for tests and `make bench`
  postMessage({ type: "ready", ms, boot: mode, stages });
  // What this worker downloaded is in the offline cache: the page may now ask sw.js to cache the rest (offline.js).
  Promise.allSettled(storing).then(() => postMessage({ type: "stored" }));
  return module;
}

/**
 * Booted, the worker needs no network: take away every way to reach a host, so that no code run in Python (through
 * its `js` module) can.
 */
function closeNetwork() {
  const refuse = () => {
    throw new TypeError("this worker has no network");
  };
  self.fetch = () => Promise.reject(new TypeError("this worker has no network"));
  for (const name of ["XMLHttpRequest", "WebSocket", "WebTransport", "EventSource", "Worker", "SharedWorker"]) {
    if (name in self) Object.defineProperty(self, name, { value: refuse, configurable: false, writable: false });
  }
}

/**
 * A failure in a reader's words: for a Python error (a PythonError's message is its traceback), its last line and the
 * package file and line it came from, never the whole traceback. @param {unknown} error
 */
function describe(error) {
  const text = String(/** @type {any} */ (error)?.message ?? error);
  if (!text.includes("Traceback (most recent call last)")) return text;
  const lines = text.trim().replaceAll(/\/lib\/wheels\/[^/"]+\.whl\//g, "").split("\n");
  const exception = lines.findLast((line) => line.trim() && !line.startsWith(" ")) ?? "";
  // A frame in calckit or the book's package (its path is relative once the wheel's is taken away).
  const own = new RegExp(`^\\s*File "(?:calckit|${PACKAGE})/`);
  const frame = lines.findLast((line) => own.test(line))?.match(/File "([^"]+)", line (\d+)/);
  return frame ? `${exception} (${frame[1]}:${frame[2]})` : exception;
}

function booted() {
  if (!api) {
    api = boot();
    api.catch(async (error) => {
      await Promise.allSettled(storing);
      postMessage({ type: "failed", error: describe(error) });
    });
  }
  return api;
}

addEventListener("message", async (event) => {
  const data = /** @type {import("./contracts.js").ToWorker} */ (event.data);
  if (data.type === "boot") {
    controlled = Boolean(data.controlled);
    interrupt = data.interrupt ?? null;
    booted();
  } else if (data.type === "call") {
    const { id, generation } = data;
    try {
      const module = await booted();
      if (interrupt) Atomics.store(interrupt, 0, 0); // a stop asked for an earlier call is not for this one
      postMessage({ type: "started", id }); // its time limit runs from now (runtime.js): not while queued or booting
      const started = performance.now();
      // The answer goes to the page as Python wrote it, JSON text, and is parsed there: a string crosses to the page
      // in one copy, where an object would be cloned node by node on both sides.
      const json = String(module.call_json(data.function, JSON.stringify(data.arguments)));
      postMessage({ type: "result", id, generation, json, ms: performance.now() - started }); // ms: for make bench
    } catch (error) {
      postMessage({ type: "error", id, generation, error: describe(error) });
    }
  }
});
