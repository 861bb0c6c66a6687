// numbers.js's writing of texts (with the catalogue's words for large figures) given on stdin ([{language, text}, ...]) and of each language's symbols: prints
// [{shown, symbols}, ...] in the same order, for tests/unit/test_i18n.py to hold against numbers.py's (Babel's).
import { readFileSync } from "node:fs";
import { SCALES, symbols, worded } from "../../plugins/mkdocs_calculators/assets/numbers.js";

/** The catalogue's words for large figures in `language` (its file, or its language's: pt-BR takes pt). @param {string} language */
function scaleWords(language) {
  const file = new URL(`../../plugins/mkdocs_calculators/i18n/${language.split("-")[0]}.json`, import.meta.url);
  const table = JSON.parse(readFileSync(file, "utf-8"));
  return Object.fromEntries(SCALES.map((scale) => [scale, table[`number.${scale}`]]));
}

const rows = JSON.parse(readFileSync(0, "utf-8"));
const outcomes = rows.map((/** @type {{language: string, text: string}} */ row) => ({
  shown: worded(row.text, row.language, scaleWords(row.language)),
  symbols: symbols(row.language),
}));
console.log(JSON.stringify(outcomes));
