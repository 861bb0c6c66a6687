// Typesets a build's formulas with KaTeX, all in this one process (math.py starts it once per build).
// Usage: node katex.mjs <path to node_modules/katex>; stdin: [{"tex": "...", "display": true}, ...];
// stdout: [{"html": "..."} or {"error": "KaTeX's message"}, ...], in the same order.
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";

const katex = createRequire(import.meta.url)(process.argv[2]);
const formulas = JSON.parse(readFileSync(0, "utf8"));
const results = formulas.map(({ tex, display }) => {
  try {
    const html = katex.renderToString(tex, {
      displayMode: Boolean(display),
      output: "htmlAndMathml", // what is seen, and MathML for screen readers
      throwOnError: true, // a formula that does not parse stops the build rather than showing red source
      // Unicode letters and signs in math mode (×, −, é) render, as readers expect; anything else KaTeX would only
      // warn about (unknown commands in text mode, for instance) is an error.
      strict: (code) => (code === "unicodeTextInMathMode" ? "ignore" : "error"),
      trust: false, // no \href, \url or HTML from a formula
      maxExpand: 1000,
    });
    return { html };
  } catch (error) {
    return { error: String(error instanceof Error ? error.message : error) };
  }
});
process.stdout.write(JSON.stringify(results));
