// @ts-check
/**
 * Restores a memory snapshot that snapshot.mjs made, as the browser's worker.js does, to prove at build that readers'
 * browsers can (runtime/snapshot.py runs this once for each snapshot it makes). Under Node with the pinned Pyodide it reads
 * the gzip-compressed file, checks its first word, restores it with the private `_loadSnapshot` option, puts the
 * wheels on sys.path as worker.js does, and checks that the restored Python holds this build's package and can run
 * its first calculator on its defaults.
 *
 * With --exercise, the exercise worker's snapshot, restored as exercise_worker.js does (calckit's wheel alone, `js` an
 * object of the restorer's): Python's `js` must be the object given now, `calckit.exercise_run` must come from this
 * build's wheel and run code, and the book's package must be neither imported nor importable.
 *
 * Usage: node snapshot_check.mjs PYODIDE_DIR SNAPSHOT PACKAGE WHEEL...
 *        node snapshot_check.mjs --exercise PYODIDE_DIR SNAPSHOT PACKAGE CALCKIT_WHEEL
 * Exit code 0 when restored; otherwise 1, with the reason on stderr (Pyodide's or Python's message, its last line
 * first).
 */
import { readFileSync } from "node:fs";
import { basename, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { gunzipSync } from "node:zlib";

// As in worker.js: where the wheels go; as in snapshot_bytes.js: the first 32-bit word of a Pyodide memory snapshot.
const WHEELS = "/lib/wheels";
const SNAPSHOT_MAGIC = 1886286592;

const exercise = process.argv[2] === "--exercise";
const [pyodideDir, snapshotPath, packageName, ...wheelPaths] = process.argv.slice(exercise ? 3 : 2);
if (!pyodideDir || !snapshotPath || !packageName || wheelPaths.length === 0 || (exercise && wheelPaths.length > 1)) {
  process.stderr.write(
    "usage: node snapshot_check.mjs PYODIDE_DIR SNAPSHOT PACKAGE WHEEL...\n" +
      "       node snapshot_check.mjs --exercise PYODIDE_DIR SNAPSHOT PACKAGE CALCKIT_WHEEL\n",
  );
  process.exit(2);
}
// What the exercise worker's Python must see as `js`: this object, not the scope the snapshot was made in.
const JS_GLOBALS = Object.assign(Object.create(null), { restoredBy: "snapshot_check" });

try {
  const bytes = new Uint8Array(gunzipSync(readFileSync(snapshotPath)));
  if (bytes.length < 64 || new DataView(bytes.buffer, bytes.byteOffset).getUint32(0, true) !== SNAPSHOT_MAGIC) {
    throw new Error("not a Pyodide memory snapshot");
  }
  const { loadPyodide } = await import(pathToFileURL(resolve(pyodideDir, "pyodide.mjs")).href);
  const pyodide = await loadPyodide({
    _loadSnapshot: bytes,
    ...(exercise ? { jsglobals: JS_GLOBALS } : {}),
    stdout: () => {},
    stderr: () => {},
  });
  pyodide.FS.mkdirTree(WHEELS);
  const paths = wheelPaths.map((wheelPath) => {
    const path = `${WHEELS}/${basename(wheelPath)}`;
    pyodide.FS.writeFile(path, new Uint8Array(readFileSync(wheelPath)));
    return path;
  });
  const own = paths[paths.length - 1];
  if (exercise) pyodide.runPython(exerciseChecks(own));
  else pyodide.runPython(`
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

/**
 * Python that fails unless the restored exercise interpreter is as exercise_worker.js needs it.
 * @param {string} own calckit's wheel, where it was written
 */
function exerciseChecks(own) {
  return `
import json, sys, importlib.util
own_path = ${JSON.stringify(own)}
if own_path not in sys.path:
    sys.path.insert(0, own_path)
import js
if getattr(js, "restoredBy", None) != "snapshot_check":
    raise RuntimeError("Python's js module is not the object given at restore")
runner = sys.modules.get("calckit.exercise_run")
if not getattr(runner, "__file__", "").startswith(own_path + "/"):
    raise RuntimeError("the restored Python does not hold this build's calckit.exercise_run")
package = ${JSON.stringify(packageName)}
if any(name == package or name.startswith(package + ".") for name in sys.modules):
    raise RuntimeError(f"the exercise snapshot holds the book's package {package}")
if importlib.util.find_spec(package) is not None:
    raise RuntimeError(f"the book's package {package} can be imported from the exercise snapshot")
reply = json.loads(runner.call_json("run", json.dumps({"code": "print(6 * 7)"})))
if reply.get("stdout") != "42\\n":
    raise RuntimeError(f"the restored exercise runner did not run code: {reply}")
`;
}
