// @ts-check
/**
 * Makes the memory snapshot that the browser worker restores instead of starting Python from scratch (snapshot.py
 * runs this at build time and caches the result). Under Node it boots the pinned Pyodide with the private
 * `_makeSnapshot` option, installs the wheels exactly as worker.js does (each wheel file on sys.path), makes the
 * book's package the one calckit uses (`calckit.book.use`) and runs every calculator once, so that a restored worker has nothing left to import or compile, then
 * writes `pyodide.makeMemorySnapshot()` gzip-compressed.
 *
 * Usage: node snapshot.mjs PYODIDE_DIR OUT PACKAGE WHEEL...
 * Prints {"pyodide": version, "raw": bytes, "gzipped": bytes} on stdout.
 *
 * What the snapshot holds is Python's memory only: the files the wheel put in the virtual file system are not in it,
 * which is why the worker writes the wheels again after restoring (the same bytes, so imports made now stay valid).
 */
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { basename, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";

// Must match worker.js: where the wheels go, and how each is put on sys.path.
const WHEELS = "/lib/wheels";

const [pyodideDir, out, packageName, ...wheelPaths] = process.argv.slice(2);
if (!pyodideDir || !out || !packageName || wheelPaths.length === 0) {
  process.stderr.write("usage: node snapshot.mjs PYODIDE_DIR OUT PACKAGE WHEEL...\n");
  process.exit(2);
}

// A failure is said as Python said it (a PythonError's message is its traceback), on stderr, with exit code 1: never
// Node's report of an uncaught error, which quotes a line of Pyodide's minified source (tens of kilobytes of it).
try {
  const { loadPyodide, version } = await import(pathToFileURL(resolve(pyodideDir, "pyodide.mjs")).href);
  const pyodide = await loadPyodide({ _makeSnapshot: true, stdout: () => {}, stderr: () => {} });

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
import calckit.api, calckit.book
book = calckit.book.use(${JSON.stringify(packageName)})
`);
  // Run each calculator once on its defaults: whatever it imports or builds lazily is then in the snapshot too. Each
  // says first on stderr that it starts, so that snapshot.py, which gives each one the time limit, can name one that
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

  const snapshot = pyodide.makeMemorySnapshot();
  const gzipped = gzipSync(snapshot, { level: 6 });
  writeFileSync(`${out}.partial`, gzipped);
  renameSync(`${out}.partial`, out);
  process.stdout.write(JSON.stringify({ pyodide: version, raw: snapshot.length, gzipped: gzipped.length }));
} catch (error) {
  process.stderr.write(`${String(/** @type {any} */ (error)?.message ?? error).slice(-4000)}\n`);
  process.exit(1);
}
