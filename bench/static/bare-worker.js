// @ts-check
/**
 * make bench, T2: boot Pyodide from the site's vendored copy, as the calculators' worker does, and nothing else.
 * Replies {worker_ms: since this worker started, load_ms: the `await loadPyodide()` alone} or {error}.
 */
import { loadPyodide } from "/assets/calculators/pyodide/pyodide.mjs";

const started = performance.now(); // a worker's clock starts with the worker; by now pyodide.mjs is loaded
try {
  await loadPyodide({ indexURL: new URL("/assets/calculators/pyodide/", location.href).href });
  const now = performance.now();
  postMessage({ worker_ms: now, load_ms: now - started });
} catch (error) {
  postMessage({ error: String(/** @type {any} */ (error)?.message ?? error) });
}
