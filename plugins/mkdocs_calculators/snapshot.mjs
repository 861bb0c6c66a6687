// @ts-check
/**
 * Makes the memory snapshot that the browser worker restores instead of starting Python from scratch (snapshot.py
 * runs this at build time and caches the result). Under Node it boots the pinned Pyodide with the private
 * `_makeSnapshot` option, installs the calculators wheel exactly as worker.js does (the wheel file on sys.path), imports
 * the package and runs every calculator once, so that a restored worker has nothing left to import or compile, then
 * writes `pyodide.makeMemorySnapshot()` gzip-compressed.
 *
 * Usage: node snapshot.mjs PYODIDE_DIR WHEEL OUT
 * Prints {"pyodide": version, "raw": bytes, "gzipped": bytes} on stdout.
 *
 * What the snapshot holds is Python's memory only: the files the wheel put in the virtual file system are not in it,
 * which is why the worker writes the wheel again after restoring (the same bytes, so imports made now stay valid).
 */
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { basename, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";

// Must match worker.js: where the wheel goes, and how it is put on sys.path.
const WHEELS = "/lib/calculators";

const [pyodideDir, wheelPath, out] = process.argv.slice(2);
if (!pyodideDir || !wheelPath || !out) {
  process.stderr.write("usage: node snapshot.mjs PYODIDE_DIR WHEEL OUT\n");
  process.exit(2);
}

// A failure is said as Python said it (a PythonError's message is its traceback), on stderr, with exit code 1: never
// Node's report of an uncaught error, which quotes a line of Pyodide's minified source (tens of kilobytes of it).
try {
  const { loadPyodide, version } = await import(pathToFileURL(resolve(pyodideDir, "pyodide.mjs")).href);
  const pyodide = await loadPyodide({ _makeSnapshot: true, stdout: () => {}, stderr: () => {} });

  const path = `${WHEELS}/${basename(wheelPath)}`;
  pyodide.FS.mkdirTree(WHEELS);
  pyodide.FS.writeFile(path, new Uint8Array(readFileSync(wheelPath)));
  pyodide.runPython(`
import json, sys
if ${JSON.stringify(path)} not in sys.path:
    sys.path.insert(0, ${JSON.stringify(path)})
import calculators, calculators.api
# Run each calculator once on its defaults: whatever it imports or builds lazily is then in the snapshot too.
for name in calculators.CALCULATORS:
    result = json.loads(calculators.api.call_json("run", json.dumps({"name": name, "inputs": {}})))
    if "failure" in result:
        raise RuntimeError(result["failure"]["message"])
`);

  const snapshot = pyodide.makeMemorySnapshot();
  const gzipped = gzipSync(snapshot, { level: 6 });
  writeFileSync(`${out}.partial`, gzipped);
  renameSync(`${out}.partial`, out);
  process.stdout.write(JSON.stringify({ pyodide: version, raw: snapshot.length, gzipped: gzipped.length }));
} catch (error) {
  process.stderr.write(`${String(/** @type {any} */ (error)?.message ?? error).slice(-4000)}\n`);
  process.exit(1);
}
