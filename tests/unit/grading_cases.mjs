// The browser's grading.js on the shared table (grading_cases.json): prints one JSON line, {checked, wrong}, for
// tests/unit/test_grading.py, which runs this with Node and compares it with the Python on the same rows.
import { readFile } from "node:fs/promises";
import { allows, readAnswer, readNumber, verdict } from "../../plugins/mkdocs_calculators/assets/grading.js";

const table = JSON.parse(await readFile(new URL("./grading_cases.json", import.meta.url), "utf-8"));
const wrong = [];
/** @param {() => number} read */
function outcome(read) {
  try {
    return { value: read() };
  } catch (error) {
    return { error: error.message };
  }
}
const close = (a, b) => a === b || Math.abs(a - b) <= 1e-12 * Math.max(Math.abs(a), Math.abs(b));
for (const row of table.cases) {
  let got;
  if ("number" in row) got = outcome(() => readNumber(row.number));
  else if ("answer" in row) got = outcome(() => readAnswer(row.answer, row.unit));
  else if ("allows" in row) got = allows(row.given, row.correct, row.tolerance);
  else got = verdict(row.returned, row.expected, row.tolerance);
  const want = "allows" in row ? row.allows : "verdict" in row ? row.verdict : row;
  const same =
    typeof want === "object"
      ? "error" in want
        ? got.error === want.error
        : got.value !== undefined && close(got.value, want.value)
      : got === want;
  if (!same) wrong.push({ row, got });
}
console.log(JSON.stringify({ checked: table.cases.length, wrong }));
