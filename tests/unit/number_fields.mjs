// How a form's field reads and writes numbers in each language (grading.js's readNumber with the language's symbols,
// numbers.js's fieldText), and a quiz its answers (readAnswer), for the rows of number_fields.json given on stdin:
// prints {reading: [value or null], writing: [shown], answers: [value or null]}, for tests/unit/test_i18n.py to hold against calckit.numbers and numbers.py.
import { readFileSync } from "node:fs";
import { NumberError, readAnswer, readNumber } from "../../plugins/mkdocs_calculators/assets/grading.js";
import { fieldText, symbols } from "../../plugins/mkdocs_calculators/assets/numbers.js";

const table = JSON.parse(readFileSync(0, "utf-8"));
/** @param {() => number} reading */
function outcome(reading) {
  try {
    return reading();
  } catch (error) {
    if (error instanceof NumberError) return null;
    throw error;
  }
}
console.log(
  JSON.stringify({
    reading: table.reading.map((/** @type {{language: string, typed: string}} */ row) =>
      outcome(() => readNumber(row.typed, symbols(row.language))),
    ),
    answers: table.answers.map((/** @type {{language: string, answer: string, unit: string}} */ row) =>
      outcome(() => readAnswer(row.answer, row.unit, symbols(row.language))),
    ),
    writing: table.writing.map((/** @type {{language: string, text: string}} */ row) => fieldText(row.text, row.language)),
  }),
);
