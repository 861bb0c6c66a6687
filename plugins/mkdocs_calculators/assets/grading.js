// @ts-check
/**
 * The one grading rule, as the page applies it: calckit/grading.py's twin, tested against it on one shared table of
 * cases (tests/unit/grading_cases.json, run by a unit test and by a Node test). A quiz grades its numeric answers
 * with it, and an exercise the outputs that the reader's code returned in its own worker.
 *
 * A tolerance has one convention: `amount` is in the answer's unit, or, when `relative`, a fraction of the answer
 * (0.02 for 2%). The slack on top covers float noise only.
 */

export const SLACK = 1e-9;

/** @typedef {import("./contracts.js").Tolerance} Tolerance */

/** Whether `given` is within `tolerance` of `answer`. @param {number} given @param {number} answer @param {Tolerance} tolerance */
export function allows(given, answer, tolerance) {
  const limit = tolerance.relative ? tolerance.amount * Math.abs(answer) : tolerance.amount;
  return Math.abs(given - answer) <= limit + SLACK * Math.max(Math.abs(given), Math.abs(answer), 1e-300);
}

/** Three significant digits, as calckit.grading._three writes them: "1,000", "0.001", "1e+07". @param {number} x */
export function threeDigits(x) {
  if (Math.abs(x) >= 1e-3 && Math.abs(x) < 1e6) {
    return Number(x.toPrecision(3)).toLocaleString("en-US", { maximumFractionDigits: 20 });
  }
  return shortest(x);
}

/** Python's `f"{x:.3g}"`. @param {number} x */
function shortest(x) {
  if (x === 0) return "0";
  const [mantissa, power] = x.toExponential(2).split("e");
  const exponent = Number(power);
  const trim = (/** @type {string} */ text) => (text.includes(".") ? text.replace(/\.?0+$/, "") : text);
  if (exponent < -4 || exponent >= 3) {
    return `${trim(mantissa)}e${exponent < 0 ? "-" : "+"}${String(Math.abs(exponent)).padStart(2, "0")}`;
  }
  return trim(x.toFixed(Math.max(0, 2 - exponent)));
}

/**
 * The plugin's English for what grading says (its keys in the catalogue, mkdocs_calculators/i18n/en.json, which a
 * unit test holds this table to): `verdict` and NumberError's message say it in English, as calckit.grading does,
 * and a page says it in the book's language by the key and its values (i18n.js).
 * @type {Record<string, string>}
 */
export const ENGLISH = {
  "grading.expected_none": "expected None: there is no such number for these inputs",
  "grading.got_none": "expected a number, got None",
  "grading.got_other": "expected a number, got {type}",
  "grading.got_something": "expected a number, got something else",
  "grading.not_finite": "expected a finite number",
  "grading.expected_zero": "expected 0",
  "grading.times": "{ratio} times the expected value",
  "grading.away": "{percent}% away from the expected value",
  "number.digits": "Write the number with the digits 0 to 9, such as 12.5",
  "number.comma": "Write the decimals after a point, such as 1.5; a comma only groups thousands, as in 1,400,000",
  "number.either": "{text} could be {thousands} or {decimal}: write {thousands}, or {decimal} with a point",
  "number.type": "Type a number, such as 12.5",
  "number.too_large": "This number is too large to work with: type a smaller one",
  "number.too_small": "This number is too small to tell from 0: type 0, or a larger number",
  "answer.number": "Write your answer as a number, such as 12.5",
  "answer.number_in": "Write your answer as a number in {unit}, such as 12.5",
  "answer.plain": "Write your answer as a plain number, without a unit",
  "answer.unit": "“{written}” is not a unit this answer can be in: write it in {unit}",
  "answer.unit_prefix": "“{written}” is not a unit this answer can be in: write it in {unit}, or with another prefix, such as {example}",
};

/** `key`'s English with its values. @param {string} key @param {Record<string, unknown>} [params] */
export function english(key, params = {}) {
  return ENGLISH[key].replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/**
 * Why what came back does not answer the case, as a catalogue key and its values, or null when it does
 * (calckit.grading.verdict). Anything that is not one of Returned's forms fails: the page trusts nothing of the
 * worker's reply but the numbers.
 * @param {unknown} got @param {number | null} expected @param {Tolerance} tolerance
 * @returns {{key: string, params: Record<string, string>} | null}
 */
export function judge(got, expected, tolerance) {
  const fields = got && typeof got === "object" ? /** @type {Record<string, unknown>} */ (got) : {};
  const kind = fields.kind;
  const said = (/** @type {string} */ key, /** @type {Record<string, string>} */ params = {}) => ({ key, params });
  if (expected === null) return kind === "none" ? null : said("grading.expected_none");
  if (kind === "none") return said("grading.got_none");
  if (kind === "other") {
    const type = fields.type;
    return typeof type === "string" ? said("grading.got_other", { type }) : said("grading.got_something");
  }
  const value = fields.value;
  if (kind !== "number" || typeof value !== "number" || !Number.isFinite(value)) return said("grading.not_finite");
  if (allows(value, expected, tolerance)) return null;
  if (!expected) return said("grading.expected_zero");
  const ratio = value / expected;
  if (ratio >= 2 || (ratio > 0 && ratio <= 0.5)) return said("grading.times", { ratio: threeDigits(ratio) });
  return said("grading.away", { percent: threeDigits((100 * Math.abs(value - expected)) / Math.abs(expected)) });
}

/**
 * "" when what came back answers the case; otherwise why not, in a reader's words, in English (judge).
 * @param {unknown} got @param {number | null} expected @param {Tolerance} tolerance
 */
export function verdict(got, expected, tolerance) {
  const judged = judge(got, expected, tolerance);
  return judged ? english(judged.key, judged.params) : "";
}

// The one number reader (calckit/numbers.py): a decimal comma where unambiguous, commas, spaces and underscores
// between groups of three digits, nothing read as 0 or infinity that is not; full-width forms read as ASCII, and
// the digits of other scripts refused (JavaScript's \d is ASCII already; Python's is not, so numbers.py says so).
const FULL_WIDTH = /[\uff01-\uff5e]/g;
const OTHER_DIGITS = /(?![0-9])\p{Nd}/u;
const MINUSES = /[\u2212\u2013]/g;
const GROUP_SPACE = /(?<=\d)[ \u00a0\u202f](?=\d{3}(?:\D|$))/g;
const UNDERSCORE = /(?<=\d)_(?=\d)/g;
const EXPONENT = "(?:[eE][+-]?\\d+)?";
const THOUSANDS = new RegExp(`^[+-]?[1-9]\\d{0,2}(?:,\\d{3})+(?:\\.\\d*)?${EXPONENT}$`);
const DECIMAL_COMMA = new RegExp(`^[+-]?\\d+,\\d+${EXPONENT}$`);
const EITHER_COMMA = new RegExp(`^[+-]?[1-9]\\d{0,2},\\d{3}${EXPONENT}$`); // 1,500: 1500 or 1.5?
const NATIVE_POINTS = new RegExp(`^[+-]?[1-9]\\d{0,2}(?:\\.\\d{3})+(?:,\\d*)?${EXPONENT}$`); // 1.400,5
const PLAIN = new RegExp(`^[+-]?(?:\\d+\\.?\\d*|\\.\\d+)${EXPONENT}$`);

/** What to write instead of a number whose one comma may group thousands or mark decimals: both readings. @param {string} text */
function eitherComma(text) {
  const [thousands, decimal] = [text.replace(",", ""), text.replace(",", ".")];
  return new NumberError("number.either", { text, thousands, decimal });
}

/**
 * A text that is not a number: `message` says what to do in English (a sentence without its stop), `key` and
 * `params` the same in the catalogue's words (i18n.js says it in the book's language).
 */
export class NumberError extends Error {
  /** @param {string} key @param {Record<string, string>} [params] */
  constructor(key, params = {}) {
    super(english(key, params));
    this.key = key;
    this.params = params;
  }
}

/**
 * `text` as both twins start reading it: full-width forms as ASCII, white space trimmed; a NumberError if it has
 * digits of another script (calckit.numbers.plain_text). @param {string} text
 */
function plainText(text) {
  const plain = text.replace(FULL_WIDTH, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0)).trim();
  if (OTHER_DIGITS.test(plain)) throw new NumberError("number.digits");
  return plain;
}

/** The decimal and group symbols numbers are written with unless a language says otherwise. @type {[string, string]} */
export const ENGLISH_SYMBOLS = [".", ","];

/**
 * A number written with a decimal comma (`symbols`, its language's decimal and group symbols), as English writes it
 * (`1.400,5` in German is 1,400.5; `1,500` in French is 1.5); any other text as it was (calckit.numbers._in_english).
 * @param {string} cleaned @param {[string, string]} symbols
 */
function inEnglish(cleaned, [decimal, group]) {
  if (decimal !== ",") return cleaned;
  if (group === "." && NATIVE_POINTS.test(cleaned)) return cleaned.replaceAll(".", "").replace(",", ".");
  if (DECIMAL_COMMA.test(cleaned)) return cleaned.replace(",", ".");
  return cleaned;
}

/**
 * The number in `text`, or a NumberError saying why it is not one; `symbols` are the decimal and group symbols of
 * the language it is written in (calckit.numbers.read_number). @param {string} text
 * @param {[string, string]} [symbols] @returns {number}
 */
export function readNumber(text, symbols = ENGLISH_SYMBOLS) {
  let cleaned = plainText(text).replace(MINUSES, "-").replace(GROUP_SPACE, "").replace(UNDERSCORE, "");
  cleaned = inEnglish(cleaned, symbols);
  if (cleaned.includes(",")) {
    if (EITHER_COMMA.test(cleaned)) throw eitherComma(cleaned);
    if (THOUSANDS.test(cleaned)) cleaned = cleaned.replaceAll(",", "");
    else if (DECIMAL_COMMA.test(cleaned)) cleaned = cleaned.replace(",", ".");
    else throw new NumberError("number.comma");
  }
  if (!PLAIN.test(cleaned)) throw new NumberError("number.type");
  const number = Number(cleaned);
  if (!Number.isFinite(number)) throw new NumberError("number.too_large");
  if (number === 0 && /[1-9]/.test(cleaned.split(/[eE]/)[0])) {
    throw new NumberError("number.too_small");
  }
  return number;
}

/** @type {Record<string, number>} */
const SI_PREFIXES = { "": 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18, m: 1e-3, "µ": 1e-6, n: 1e-9, p: 1e-12 };
/** @type {Record<string, number>} */
const BINARY_PREFIXES = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50 };
const MICRO = ["u", "\u03bc"]; // how keyboards write micro: u, or the Greek mu (µ is the micro sign)
/** @type {Record<string, string>} */
const NEIGHBOUR = { k: "M", M: "k", G: "T", T: "G", P: "T", E: "P", m: "µ", "µ": "m", n: "µ", p: "n" };
// Other ways readers write a unit, in any case (calckit.grading._spelled): words for prefixes and units, FLOPS or
// flop/s for FLOP/s, B for byte. The prefix a reader glued to FLOPS is kept as typed (tflops is tFLOP/s).
/** @type {Record<string, string>} */
const PREFIX_WORDS = { exa: "E", peta: "P", tera: "T", giga: "G", mega: "M", kilo: "k" };
Object.assign(PREFIX_WORDS, { milli: "m", micro: "µ", nano: "n", pico: "p" });
/** @type {Record<string, string>} */
const UNIT_WORDS = { seconds: "s", second: "s", secs: "s", sec: "s", minutes: "min", minute: "min" };
Object.assign(UNIT_WORDS, { mins: "min", hours: "h", hour: "h", hrs: "h", hr: "h", bytes: "B", byte: "B" });
const WORDS = new RegExp(
  `(?<![a-z])(${Object.keys(PREFIX_WORDS).join("|")})?-?(${Object.keys(UNIT_WORDS).join("|")})(?![a-z])`,
  "gi",
);
const FLOPS = /(?<![a-z])([kmgtpe]?)(?:flops|flop\/s)(?![a-z/])/gi;
const FLOP = /(?<![a-z])([kmgtpe]?)flops?(?![a-z])/gi;
/** @type {Record<string, number>} */
const DURATIONS = { min: 60, h: 3600 }; // what an answer in seconds (or ms, µs...) may be given in, in seconds
// \s is what trim() removes: numbers.SPACES spells the same set out for Python.
const ANSWER = /^([+\-\u2212\u2013]?[\d.,_ \u00a0\u202f]*\d[\d.,_]*(?:[eE][+\-\u2212]?\d+)?|[+-]?\.\d+)\s*([\s\S]*)$/;

/** @param {string} unit */
function spelled(unit) {
  return unit
    .replace(WORDS, (_, prefix, word) => (PREFIX_WORDS[(prefix ?? "").toLowerCase()] ?? "") + UNIT_WORDS[word.toLowerCase()])
    .replace(FLOPS, (_, prefix) => `${prefix}FLOP/s`)
    .replace(FLOP, (_, prefix) => `${prefix}FLOP`);
}

/** Whether `given` is `written` in another case, where case tells nothing apart: not B from b. @param {string} given @param {string} written */
function loosely(given, written) {
  if (given.length !== written.length) return false;
  return [...given].every((one, i) => one === written[i] || (one.toLowerCase() === written[i].toLowerCase() && !"Bb".includes(one)));
}

/** `unit` as a prefix and a base, the longest prefix first. @param {string} unit @returns {[string, string][]} */
function readings(unit) {
  /** @type {[string, string][]} */
  const found = Object.keys(SI_PREFIXES)
    .filter((prefix) => prefix && unit.startsWith(prefix) && unit.length > prefix.length)
    .map((prefix) => [prefix, unit.slice(prefix.length)]);
  return [...found.sort((a, b) => b[0].length - a[0].length), ["", unit]];
}

/** Every way of writing an answer in `unit` that is converted, and its factor. @param {string} unit */
function units(unit) {
  /** @type {Map<string, number>} */
  const found = new Map();
  const add = (/** @type {string} */ written, /** @type {number} */ factor) => {
    if (!found.has(written)) found.set(written, factor);
  };
  for (const [prefix, base] of readings(unit)) {
    const prefixes = base.startsWith("B") ? { ...SI_PREFIXES, ...BINARY_PREFIXES } : SI_PREFIXES;
    for (const [other, factor] of Object.entries(prefixes)) {
      add(other + base, factor / SI_PREFIXES[prefix]);
      if (other === "µ") for (const micro of MICRO) add(micro + base, factor / SI_PREFIXES[prefix]);
    }
    if (base === "s") for (const [duration, seconds] of Object.entries(DURATIONS)) add(duration, seconds / SI_PREFIXES[prefix]);
  }
  return found;
}

/**
 * What a number in unit `given` is multiplied by to be in `unit`, or null (calckit.grading.unit_factor).
 * @param {string} given @param {string} unit @returns {number | null}
 */
export function unitFactor(given, unit) {
  given = spelled(given.trim());
  const found = units(spelled(unit.trim()));
  const exact = found.get(given);
  if (exact !== undefined) return exact;
  const loose = new Set([...found].filter(([written]) => loosely(given, written)).map(([, factor]) => factor));
  return loose.size === 1 ? [...loose][0] : null;
}

/**
 * A quiz answer in the question's `unit`, converted from another prefix of it; a NumberError saying which unit was
 * expected otherwise (calckit.grading.read_answer); `symbols` are the book's language's decimal and group symbols.
 * @param {string} text @param {string} unit @param {[string, string]} [symbols] @returns {number}
 */
export function readAnswer(text, unit, symbols = ENGLISH_SYMBOLS) {
  const match = ANSWER.exec(plainText(text));
  if (!match) throw new NumberError(unit ? "answer.number_in" : "answer.number", { unit });
  const number = readNumber(match[1], symbols);
  const written = match[2].trim();
  if (!written) return number;
  if (!unit) throw new NumberError("answer.plain");
  const factor = unitFactor(written, unit);
  if (factor === null) {
    const [prefix, base] = readings(unit)[0];
    const example = `${NEIGHBOUR[prefix] ?? "k"}${base}`;
    throw new NumberError(prefix ? "answer.unit_prefix" : "answer.unit", { written, unit, example });
  }
  return number * factor;
}
