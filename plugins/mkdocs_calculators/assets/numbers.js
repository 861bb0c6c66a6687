// @ts-check
/**
 * Numbers in the reader's language: the figures calckit writes (`1,400.5`, as English writes them) shown with the
 * language's decimal and group symbols (`1 400,5` in French), CLDR's through Intl.NumberFormat. The twin of
 * mkdocs_calculators/i18n/numbers.py, which the build uses with Babel's symbols; tests/unit/number_texts.json holds
 * both to one table. Only what is plainly a number is rewritten (`H100`, `v5.1` and `1.5e+07` stay as written).
 */

const NUMBER = /(?<![A-Za-z0-9_.,])(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+\.\d+)(?![A-Za-z0-9_])/g;

/** The language's decimal and group symbols. @param {string} language @returns {[string, string]} */
export function symbols(language) {
  const parts = new Intl.NumberFormat(language, { useGrouping: "always" }).formatToParts(12345.6);
  const symbol = (/** @type {string} */ type, /** @type {string} */ otherwise) =>
    parts.find((part) => part.type === type)?.value ?? otherwise;
  return [symbol("decimal", "."), symbol("group", ",")];
}

/** `text` with each of its numbers written with the language's symbols. @param {string} text @param {string} language */
export function localized(text, language) {
  const [decimal, group] = symbols(language);
  if (decimal === "." && group === ",") return text;
  return text.replace(NUMBER, (found) => found.replace(/,/g, "\0").replace(/\./g, decimal).replace(/\0/g, group));
}
