// @ts-check
/**
 * The plugin's words for readers, in the book's language: the build's catalogue (mkdocs_calculators/i18n/, the
 * language's strings with the author's overrides) comes in strings.js, which the build writes (a module of its own,
 * not build-info.js, which every page's entry.js imports), and the scripts look each one up by key.
 * Plural forms follow the language's CLDR rules (Intl.PluralRules), as Babel's do at build.
 */
import { language, strings } from "./strings.js";
import { SCALES, fieldText, symbols, worded } from "./numbers.js";
import { NumberError, readNumber } from "./grading.js";

const PLACEHOLDER = /\{(\w+)\}/g;
/** @type {Intl.PluralRules | null} */
let rules = null;
/** The catalogue's words for calckit's large figures, by word (`million`: `number.million`). */
const SCALE_WORDS = Object.fromEntries(SCALES.map((scale) => [scale, strings[`number.${scale}`] ?? `{number} ${scale}`]));

/** @param {string} text @param {Record<string, unknown>} params */
function fill(text, params) {
  return text.replace(PLACEHOLDER, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** The text of `key`, its `{name}` placeholders filled from `params`. @param {string} key @param {Record<string, unknown>} [params] */
export function t(key, params = {}) {
  const entry = strings[key];
  if (entry === undefined) return key;
  return fill(typeof entry === "string" ? entry : (entry.other ?? ""), params);
}

/**
 * The form of `key` for `count` (which fills `{count}`), by the language's plural rules.
 * @param {string} key @param {number} count @param {Record<string, unknown>} [params]
 */
export function plural(key, count, params = {}) {
  const entry = strings[key];
  if (entry === undefined) return key;
  const all = { count, ...params };
  if (typeof entry === "string") return fill(entry, all);
  rules ??= new Intl.PluralRules(language);
  return fill(entry[rules.select(count)] ?? entry.other ?? "", all);
}

/** `text` with its numbers written the book's language's way (`1 400,5`, `2,5 millions` in French). @param {string} text */
export function number(text) {
  return worded(text, language, SCALE_WORDS);
}

/**
 * The number a form's field holds, read as the book's language writes numbers (`1.400` is 1400 in German, `1,5` is
 * 1.5), or a NumberError saying why it is not one. @param {string} text
 */
export function readField(text) {
  return readNumber(text, symbols(language));
}

/** A number as a field shows it in the book's language (`0.819` -> `0,819` in French). @param {string} text */
export function fieldShows(text) {
  return fieldText(text, language);
}

/**
 * A field's text as the package reads it, which reads English's symbols: a number written the book's language's way
 * in English (`1.400,5` in German -> `1400.5`); any other text as typed, for the package to say what is wrong with
 * it. An English book's (and any whose decimal symbol is a point) as typed. @param {string} text
 */
export function fieldEnglish(text) {
  if (symbols(language)[0] !== ",") return text;
  try {
    return String(readField(text));
  } catch (error) {
    if (error instanceof NumberError) return text;
    throw error;
  }
}

/** The book's language, as `theme.language` gives it (`fr`, `pt-BR`). */
export { language };
