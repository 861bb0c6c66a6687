// @ts-check
/**
 * Makes the memory snapshots that the browser's workers restore instead of starting Python from scratch (runtime/snapshot.py
 * runs this at build time and caches the result). Under Node it boots the pinned Pyodide with the private
 * `_makeSnapshot` option, installs the wheels exactly as the worker does (each wheel file on sys.path), and then:
 *
 * - for the calculators' worker (worker.js): makes the book's package the one calckit uses (`calckit.book.use`) and
 *   runs every calculator once, so that a restored worker has nothing left to import or compile;
 * - with --exercise, for the readers' exercise worker (exercise_worker.js): calckit's wheel alone, with
 *   `calckit.exercise_run` imported and the recursion limit set, as that worker's plain boot leaves it before its
 *   lockdown; never the book's package, which readers' code must not reach. Python's `js` module is an empty object
 *   here, as there: a restored interpreter's `js` is the object the worker passes when it restores (Pyodide puts
 *   `jsglobals` back in the slot that `js` refers to), never this process's global scope.
 *
 * Then it writes `pyodide.makeMemorySnapshot()` gzip-compressed.
 *
 * Usage: node snapshot.mjs PYODIDE_DIR OUT PACKAGE WHEEL...
 *        node snapshot.mjs --exercise PYODIDE_DIR OUT CALCKIT_WHEEL
 * Prints {"pyodide": version, "raw": bytes, "gzipped": bytes} on stdout.
 *
 * What the snapshot holds is Python's memory only: the files the wheel put in the virtual file system are not in it,
 * which is why the worker writes the wheels again after restoring (the same bytes, so imports made now stay valid).
 */
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { basename, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";

// Must match worker.js and exercise_worker.js: where the wheels go, and how each is put on sys.path.
const WHEELS = "/lib/wheels";
// As in exercise_worker.js: Python's own limit for readers' code.
const EXERCISE_RECURSION_LIMIT = 400;

const exercise = process.argv[2] === "--exercise";
const [pyodideDir, out, ...rest] = process.argv.slice(exercise ? 3 : 2);
const [packageName, ...wheelPaths] = exercise ? ["", ...rest] : rest;
if (!pyodideDir || !out || wheelPaths.length === 0 || (exercise ? wheelPaths.length > 1 : !packageName)) {
  process.stderr.write(
    "usage: node snapshot.mjs PYODIDE_DIR OUT PACKAGE WHEEL...\n       node snapshot.mjs --exercise PYODIDE_DIR OUT CALCKIT_WHEEL\n",
  );
  process.exit(2);
}

// A failure is said as Python said it (a PythonError's message is its traceback), on stderr, with exit code 1: never
// Node's report of an uncaught error, which quotes a line of Pyodide's minified source (tens of kilobytes of it).
try {
  const { loadPyodide, version } = await import(pathToFileURL(resolve(pyodideDir, "pyodide.mjs")).href);
  const pyodide = await loadPyodide({
    _makeSnapshot: true,
    ...(exercise ? { jsglobals: Object.create(null) } : {}),
    stdout: () => {},
    stderr: () => {},
  });

  pyodide.FS.mkdirTree(WHEELS);
  const paths = wheelPaths.map((wheelPath) => {
    const path = `${WHEELS}/${basename(wheelPath)}`;
    pyodide.FS.writeFile(path, new Uint8Array(readFileSync(wheelPath)));
    return path;
  });
  pyodide.runPython(`
import json, sys
for path in reversed(${JSON.stringify(paths)}):
    if path not in sys.path:
        sys.path.insert(0, path)
`);
  if (exercise) pyodide.runPython(`sys.setrecursionlimit(${EXERCISE_RECURSION_LIMIT})\nimport calckit.exercise_run`);
  else snapshotCalculators(pyodide);

  const snapshot = pyodide.makeMemorySnapshot();
  const gzipped = gzipSync(snapshot, { level: 6 });
  writeFileSync(`${out}.partial`, gzipped);
  renameSync(`${out}.partial`, out);
  process.stdout.write(JSON.stringify({ pyodide: version, raw: snapshot.length, gzipped: gzipped.length }));
} catch (error) {
  process.stderr.write(`${String(/** @type {any} */ (error)?.message ?? error).slice(-4000)}\n`);
  process.exit(1);
}

/**
 * The book's package in use, and every calculator run once on its defaults.
 * @param {any} pyodide
 */
function snapshotCalculators(pyodide) {
  pyodide.runPython(`import calckit.api, calckit.book\nbook = calckit.book.use(${JSON.stringify(packageName)})`);
  // Run each calculator once on its defaults: whatever it imports or builds lazily is then in the snapshot too. Each
  // says first on stderr that it starts, so that runtime/snapshot.py, which gives each one the time limit, can name one that
  // never returns (nothing here can interrupt Python).
  const names = JSON.parse(pyodide.runPython("json.dumps(list(book.calculators))"));
  for (const name of names) {
    process.stderr.write(`calculators: running ${name}\n`);
    pyodide.runPython(`
result = json.loads(calckit.api.call_json("run", json.dumps({"name": ${JSON.stringify(name)}, "inputs": {}})))
if "failure" in result:
    raise RuntimeError(result["failure"]["message"])
`);
  }
  process.stderr.write("calculators: ran every calculator\n");
}
