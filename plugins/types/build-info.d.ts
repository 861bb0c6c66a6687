// Written by `python -m mkdocs_calculators.runtime.twins` from runtime/layout.py's BuildInfo: do not edit (make lint
// fails when it is stale). The module build-info.js that the build writes beside the browser's scripts (site.py),
// declared for `tsc --checkJs` (tsconfig.json's rootDirs puts this folder beside assets/).
/**
 * the wheels the worker installs, in order: calckit's first (the exercises' worker takes it alone), the book's
 * last
 */
export const wheels: string[];
/** the book's package, which calckit is told to use */
export const bookPackage: string;
/** the memory snapshot's file name, or "" (runtime/snapshot.py) */
export const snapshot: string;
/** what it was made with: "<Pyodide version> <wheel> <wheel>" */
export const snapshotFor: string;
/** the exercise worker's memory snapshot's file name (calckit's exercise runner alone), or "" */
export const exerciseSnapshot: string;
/** what it was made with: "<Pyodide version> <calckit's wheel>" */
export const exerciseSnapshotFor: string;
/** {file: content hash} for the files the worker fetches itself, {} without a service worker */
export const cached: Record<string, string>;
/** modules the package imports that the browser lacks (a build that is not strict) */
export const missing: string[];
/** sw.js's path from the site's root, or "" (mkdocs serve: none) */
export const serviceWorker: string;
/** seconds for one call of the book's code */
export const timeLimit: number;
/** the files Pyodide fetches itself, relative to the scripts, the wasm first (WORKER_FETCHES) */
export const pyodideFiles: string[];
/** the runtime cache's name, less the site's address that follows it (RUNTIME_CACHE_PREFIX) */
export const runtimeCache: string;
