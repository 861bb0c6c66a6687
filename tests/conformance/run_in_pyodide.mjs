// Runs golden cases through the calculators wheel in Pyodide under Node (node_modules/pyodide), the same runtime
// the browser gets, by the browser worker's one entry point, calculators.api.call_json.
// Usage: node run_in_pyodide.mjs WHEEL CASES.json  ->  prints {python, outputs: [call_json's JSON text per case]}.
import { readFileSync } from "node:fs";
import { loadPyodide } from "pyodide";

const [wheel, casesFile] = process.argv.slice(2);
const cases = JSON.parse(readFileSync(casesFile, "utf8"));
const pyodide = await loadPyodide({ stdout: () => {}, stderr: (text) => process.stderr.write(text + "\n") });
await pyodide.loadPackage(wheel, { messageCallback: () => {} });
const api = pyodide.pyimport("calculators.api");
const version = pyodide.runPython("import sys; '.'.join(map(str, sys.version_info[:3]))");
const outputs = cases.map((call) => api.call_json(call.function, JSON.stringify(call.arguments)));
process.stdout.write(JSON.stringify({ python: version, outputs }));
