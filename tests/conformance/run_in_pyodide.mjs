// Runs golden cases through a book's wheels (calckit's and the book package's) in Pyodide under Node
// (node_modules/pyodide), the same runtime the browser gets, by the browser worker's one entry point,
// calckit.api.call_json, with the book's package in use (calckit.book.use), as worker.js does.
// Usage: node run_in_pyodide.mjs CASES.json PACKAGE WHEEL...
//   -> prints {python, outputs: [per case, call_json's JSON text, or {raised: Python's traceback}]}.
// A failure to start is printed as Python (or Node) said it, capped, never as Node's report of an uncaught error,
// which quotes a line of Pyodide's minified source.
import { readFileSync } from "node:fs";
import { loadPyodide } from "pyodide";

/** @param {unknown} error */
const said = (error) => String(/** @type {any} */ (error)?.message ?? error).slice(-4000);

try {
  const [casesFile, packageName, ...wheels] = process.argv.slice(2);
  const cases = JSON.parse(readFileSync(casesFile, "utf8"));
  const pyodide = await loadPyodide({ stdout: () => {}, stderr: (text) => process.stderr.write(text + "\n") });
  await pyodide.loadPackage(wheels, { messageCallback: () => {} });
  pyodide.pyimport("calckit.book").use(packageName);
  const api = pyodide.pyimport("calckit.api");
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
