// @ts-check
/**
 * Keeps the Python runtime for reading offline. entry.js loads this on pages with a calculator (pages without one
 * never cause a byte of Pyodide or Vega to be downloaded): once the service worker (sw.js) controls the page, it asks
 * it to put into its cache every runtime file that is not there yet, so that after one visit every calculator
 * recomputes with the network off.
 *
 * A runtime that started before the service worker took control of the page downloads on its own (the worker then
 * caches what it fetches, see worker.js): the request waits until that runtime has cached it, so that nothing, the 9 MB
 * wasm above all, is downloaded twice. A runtime started under control shares its downloads with the service worker.
 */
import { serviceWorker } from "./build-info.js";
import { runtimeDownloadsKept, startedUnderServiceWorker } from "./runtime.js";

let asked = false;

/** Ask once per tab, on a site with a service worker (none under `mkdocs serve`). */
export function keepRuntimeOffline() {
  const container = navigator.serviceWorker;
  if (asked || !container || !serviceWorker) return;
  asked = true;
  if (container.controller) askWhenQuiet(container.controller);
  else {
    container.addEventListener("controllerchange", () => container.controller && askWhenQuiet(container.controller), {
      once: true,
    });
  }
}

/** @param {ServiceWorker} controller */
async function askWhenQuiet(controller) {
  if (startedUnderServiceWorker() === false) await runtimeDownloadsKept();
  controller.postMessage({ type: "cache-runtime" });
}
