// @ts-check
/**
 * Restores a memory snapshot that snapshot.mjs made, as the browser's worker.js does, to prove at build that readers'
 * browsers can (snapshot.py runs this once for each snapshot it makes). Under Node with the pinned Pyodide it reads
 * the gzip-compressed file, checks its first word, restores it with the private `_loadSnapshot` option, puts the
 * wheels on sys.path as worker.js does, and checks that the restored Python holds this build's package and can run
 * its first calculator on its defaults.
 *
 * Usage: node snapshot_check.mjs PYODIDE_DIR SNAPSHOT PACKAGE WHEEL...
 * Exit code 0 when restored; otherwise 1, with the reason on stderr (Pyodide's or Python's message, its last line
 * first).
 */
import { readFileSync } from "node:fs";
import { basename, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { gunzipSync } from "node:zlib";

// As in worker.js: where the wheels go, and the first 32-bit word of a Pyodide memory snapshot.
const WHEELS = "/lib/wheels";
const SNAPSHOT_MAGIC = 1886286592;

const [pyodideDir, snapshotPath, packageName, ...wheelPaths] = process.argv.slice(2);
if (!pyodideDir || !snapshotPath || !packageName || wheelPaths.length === 0) {
  process.stderr.write("usage: node snapshot_check.mjs PYODIDE_DIR SNAPSHOT PACKAGE WHEEL...\n");
  process.exit(2);
}

try {
  const bytes = new Uint8Array(gunzipSync(readFileSync(snapshotPath)));
  if (bytes.length < 64 || new DataView(bytes.buffer, bytes.byteOffset).getUint32(0, true) !== SNAPSHOT_MAGIC) {
    throw new Error("not a Pyodide memory snapshot");
  }
  const { loadPyodide } = await import(pathToFileURL(resolve(pyodideDir, "pyodide.mjs")).href);
  const pyodide = await loadPyodide({ _loadSnapshot: bytes, stdout: () => {}, stderr: () => {} });
  pyodide.FS.mkdirTree(WHEELS);
  const paths = wheelPaths.map((wheelPath) => {
    const path = `${WHEELS}/${basename(wheelPath)}`;
    pyodide.FS.writeFile(path, new Uint8Array(readFileSync(wheelPath)));
    return path;
  });
  const own = paths[paths.length - 1];
  pyodide.runPython(`
import json, sys
for path in reversed(${JSON.stringify(paths)}):
    if path not in sys.path:
        sys.path.insert(0, path)
package = sys.modules.get(${JSON.stringify(packageName)})
if not getattr(package, "__file__", "").startswith(${JSON.stringify(own + "/")}):
    raise RuntimeError("the restored Python does not hold this build's package")
import calckit.api, calckit.book
name = next(iter(calckit.book.use(${JSON.stringify(packageName)}).calculators))
result = json.loads(calckit.api.call_json("run", json.dumps({"name": name, "inputs": {}})))
if "failure" in result:
    raise RuntimeError(result["failure"]["message"])
`);
  process.stdout.write("restored\n");
} catch (error) {
  const message = String(/** @type {any} */ (error)?.message ?? error).trim();
  const lines = message.split("\n");
  process.stderr.write(`${lines[lines.length - 1].slice(0, 400)}\n`);
  process.exit(1);
}
