// grading.js's readings of texts given on stdin ([{number} | {answer, unit}, ...]): prints [{value} | {error}, ...]
// in the same order, for tests/unit/test_grading.py to hold against calckit's readings of the same texts.
import { readFileSync } from "node:fs";
import { readAnswer, readNumber } from "../../plugins/mkdocs_calculators/assets/grading.js";

const rows = JSON.parse(readFileSync(0, "utf-8"));
const outcomes = rows.map((/** @type {{number?: string, answer?: string, unit?: string}} */ row) => {
  try {
    return { value: row.number !== undefined ? readNumber(row.number) : readAnswer(row.answer ?? "", row.unit ?? "") };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
});
console.log(JSON.stringify(outcomes));
