// @ts-check
/**
 * Numbers in the reader's language: the figures calckit writes (`1,400.5`, as English writes them) shown with the
 * language's decimal and group symbols (`1 400,5` in French), CLDR's through Intl.NumberFormat. The twin of
 * mkdocs_calculators/i18n/numbers.py, which the build uses with Babel's symbols; tests/unit/number_texts.json holds
 * both to one table. Only what is plainly a number is rewritten (`H100`, `v5.1` and `1.5e+07` stay as written).
 */

const NUMBER = /(?<![A-Za-z0-9_.,])(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+\.\d+)(?![A-Za-z0-9_])/g;

/** @type {Map<string, [string, string]>} */
const found = new Map(); // each language's symbols, asked of Intl once (a recompute writes every output through here)
/** @type {Map<string, Intl.PluralRules>} */
const rulesOf = new Map();

/** The language's decimal and group symbols. @param {string} language @returns {[string, string]} */
export function symbols(language) {
  let pair = found.get(language);
  if (!pair) {
    const parts = new Intl.NumberFormat(language, { useGrouping: "always" }).formatToParts(12345.6);
    const symbol = (/** @type {string} */ type, /** @type {string} */ otherwise) =>
      parts.find((part) => part.type === type)?.value ?? otherwise;
    pair = [symbol("decimal", "."), symbol("group", ",")];
    found.set(language, pair);
  }
  return pair;
}

/** `text` with each of its numbers written with the language's symbols. @param {string} text @param {string} language */
export function localized(text, language) {
  const [decimal, group] = symbols(language);
  if (decimal === "." && group === ",") return text;
  return text.replace(NUMBER, (found) => found.replace(/,/g, "\0").replace(/\./g, decimal).replace(/\0/g, group));
}

const FIELD_NUMBER = /^[+-]?\d+\.\d+(?:[eE][+-]?\d+)?$/;

/**
 * A number as a form's field holds it (`0.819`) as the language writes it (`0,819` in French): its decimal symbol,
 * where that is a comma, which grading.js's readNumber reads back with the language's symbols; no groups, as English
 * fields have none. Any other text as it is (numbers.py's field_text). @param {string} text @param {string} language
 */
export function fieldText(text, language) {
  const [decimal] = symbols(language);
  return decimal === "," && FIELD_NUMBER.test(text) ? text.replace(".", decimal) : text;
}

/** calckit's words for large figures (`2.5 million`: calckit.units.format_number), each a key of the catalogue. */
export const SCALES = ["million", "billion", "trillion"];
const SCALE = /(?<![A-Za-z0-9_.,])(\d+(?:\.\d+)?) (million|billion|trillion)\b/g;

/**
 * `text` with calckit's words for large figures (`2.5 million`) in the language's (`2,5 millions`): `entries` are the
 * catalogue's `number.million`, ... by word, whose plural forms (Intl.PluralRules) hold the word around `{number}`;
 * then every number as the language writes it (numbers.py's `worded`).
 * @param {string} text @param {string} language @param {Record<string, string | Record<string, string>>} entries
 */
export function worded(text, language, entries) {
  if (!text) return text;
  let rules = rulesOf.get(language);
  if (!rules) rulesOf.set(language, (rules = new Intl.PluralRules(language)));
  const word = (/** @type {string} */ _, /** @type {string} */ figure, /** @type {string} */ scale) => {
    const entry = entries[scale];
    const form =
      typeof entry === "string" ? entry : (entry?.[/** @type {Intl.PluralRules} */ (rules).select(Number(figure))] ?? entry?.other ?? "");
    return form.replace("{number}", localized(figure, language));
  };
  return localized(text.replace(SCALE, word), language);
}
