// numbers.js's writing of texts given on stdin ([{language, text}, ...]) and of each language's symbols: prints
// [{shown, symbols}, ...] in the same order, for tests/unit/test_i18n.py to hold against numbers.py's (Babel's).
import { readFileSync } from "node:fs";
import { localized, symbols } from "../../plugins/mkdocs_calculators/assets/numbers.js";

const rows = JSON.parse(readFileSync(0, "utf-8"));
const outcomes = rows.map((/** @type {{language: string, text: string}} */ row) => ({
  shown: localized(row.text, row.language),
  symbols: symbols(row.language),
}));
console.log(JSON.stringify(outcomes));
