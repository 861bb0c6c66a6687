// @ts-check
/**
 * The module worker that runs the calculators package in Pyodide, off the page's main thread. It boots once, on the
 * first "boot" or "call" message, and answers every "call" by running one of `calculators.api.FUNCTIONS` (for
 * example `run`, which gives the same data the build pre-rendered).
 */
import { loadPyodide } from "./pyodide/pyodide.mjs";

// Replaced at build by the content-hashed name of the wheel written beside this file.
const WHEEL = "__CALCULATORS_WHEEL__";

/** @type {Promise<any> | null} */
let api = null;

/** @param {string} stage */
function progress(stage) {
  postMessage({ type: "progress", stage });
}

async function boot() {
  const started = performance.now();
  progress("runtime");
  const pyodide = await loadPyodide({ indexURL: new URL("./pyodide/", import.meta.url).href });
  progress("package");
  await pyodide.loadPackage(new URL(`./${WHEEL}`, import.meta.url).href, { messageCallback: () => {} });
  const module = pyodide.pyimport("calculators.api");
  postMessage({ type: "ready", ms: performance.now() - started });
  return module;
}

function booted() {
  if (!api) {
    api = boot();
    api.catch((error) => postMessage({ type: "failed", error: String(error?.message ?? error) }));
  }
  return api;
}

self.addEventListener("message", async ({ data }) => {
  if (data.type === "boot") {
    booted();
  } else if (data.type === "call") {
    const { id, generation } = data;
    try {
      const module = await booted();
      const result = JSON.parse(module.call_json(data.function, JSON.stringify(data.arguments)));
      postMessage({ type: "result", id, generation, result });
    } catch (error) {
      postMessage({ type: "error", id, generation, error: String(/** @type {any} */ (error)?.message ?? error) });
    }
  }
});
