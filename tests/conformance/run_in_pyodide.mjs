// Runs golden cases through the calculators wheel in Pyodide under Node (node_modules/pyodide), the same runtime
// the browser gets, by the browser worker's one entry point, calculators.api.call_json.
// Usage: node run_in_pyodide.mjs WHEEL CASES.json
//   -> prints {python, outputs: [per case, call_json's JSON text, or {raised: Python's traceback}]}.
// A failure to start is printed as Python (or Node) said it, capped, never as Node's report of an uncaught error,
// which quotes a line of Pyodide's minified source.
import { readFileSync } from "node:fs";
import { loadPyodide } from "pyodide";

/** @param {unknown} error */
const said = (error) => String(/** @type {any} */ (error)?.message ?? error).slice(-4000);

try {
  const [wheel, casesFile] = process.argv.slice(2);
  const cases = JSON.parse(readFileSync(casesFile, "utf8"));
  const pyodide = await loadPyodide({ stdout: () => {}, stderr: (text) => process.stderr.write(text + "\n") });
  await pyodide.loadPackage(wheel, { messageCallback: () => {} });
  const api = pyodide.pyimport("calculators.api");
  const version = pyodide.runPython("import sys; '.'.join(map(str, sys.version_info[:3]))");
  const outputs = cases.map((/** @type {any} */ call) => {
    try {
      return api.call_json(call.function, JSON.stringify(call.arguments));
    } catch (error) {
      return { raised: said(error) };
    }
  });
  process.stdout.write(JSON.stringify({ python: version, outputs }));
} catch (error) {
  process.stderr.write(`${said(error)}\n`);
  process.exit(1);
}
