// @ts-check
/**
 * The order in which a quiz shows a question's options (choices, and items to sort): this reader's own, drawn from a
 * number kept in this browser, so that it is stable across their reloads, differs from reader to reader, and is never
 * the author's (where the right answer may always come first).
 */
const SEED_KEY = "quiz-order-seed"; // this reader's own number, from which each question's order of options is drawn

/** This reader's seed, made once and kept in this browser; null when storage is off (the build's order stays). */
function readerSeed() {
  try {
    let seed = localStorage.getItem(SEED_KEY);
    if (!seed) {
      seed = String(crypto.getRandomValues(new Uint32Array(1))[0]);
      localStorage.setItem(SEED_KEY, seed);
    }
    return seed;
  } catch {
    return null;
  }
}

/**
 * A shuffle of `count` options that is the same every time for the same text (FNV-1a, then mulberry32).
 * @param {number} count @param {string} text @returns {number[]}
 */
function shuffled(count, text) {
  let state = 0x811c9dc5;
  for (const char of text) state = Math.imul(state ^ /** @type {number} */ (char.codePointAt(0)), 0x01000193);
  const random = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const order = [...Array(count).keys()];
  for (let i = count - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}

/**
 * Show a question's options in this reader's order: stable across their reloads, its own for every reader, and
 * never the author's (where the right answer may always come first). Answers are saved by option, not by place.
 * @param {HTMLElement} list @param {string} selector the options, each with `attribute` holding its index
 * @param {string} attribute @param {string} salt
 */
export function shuffleOptions(list, selector, attribute, salt) {
  const seed = readerSeed();
  if (seed === null) return;
  const options = /** @type {HTMLElement[]} */ ([...list.querySelectorAll(selector)]);
  const byIndex = new Map(options.map((option) => [Number(option.getAttribute(attribute)), option]));
  const order = shuffled(options.length, `${seed}:${salt}`);
  list.append(.../** @type {HTMLElement[]} */ (order.map((index) => byIndex.get(index)).filter(Boolean)));
}
