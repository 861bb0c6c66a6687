// @ts-check
/**
 * A reader's progress through the book, in this browser's localStorage and nowhere else: one entry per quiz or
 * exercise, under a key that carries the site's own path (two books on one origin, such as two GitHub Pages sites of
 * one account, keep apart) and the block's key from the build (`quiz:docs/page.md#id`, `exercise:docs/page.md#id`).
 *
 * - Progress saved before keys carried the site (under the bare block key) is moved to the site's key when first read.
 * - A save merges with what is stored, so that two tabs of the book add up rather than the last one winning: each
 *   answer carries the time it changed, and a reset the time it happened (answers older than that are gone).
 * - Another tab's save reaches this one as a `storage` event; `watch` hands it to the block, which shows it.
 * - Saves in this tab are announced on `window` as PROGRESS_EVENT, for the page's progress line.
 * Every function here works with storage off or full: the blocks then work for the visit and remember nothing.
 */

import { t } from "./i18n.js";

export const PROGRESS_EVENT = "calculators:progress";
const ROOT = new URL("../../", import.meta.url).pathname; // the site's root: this file is assets/calculators/progress.js
const PREFIX = `calculators-progress:${ROOT}|`;

/** @typedef {import("./contracts.js").Entry} Entry */
/** @typedef {import("./contracts.js").Answer} Answer */

/** The localStorage key of a block's progress on this site. @param {string} key the block's key from the build */
export function storageKey(key) {
  return PREFIX + key;
}

/** @param {string} name @returns {Entry | null} */
function readRaw(name) {
  try {
    const value = JSON.parse(localStorage.getItem(name) ?? "null");
    return value && typeof value === "object" && !Array.isArray(value) ? value : null;
  } catch {
    return null; // storage off, or not JSON
  }
}

/** @param {string} name @param {Entry | null} entry @returns {boolean} whether it was stored */
function writeRaw(name, entry) {
  try {
    if (entry === null) localStorage.removeItem(name);
    else localStorage.setItem(name, JSON.stringify(entry));
    return true;
  } catch {
    return false; // storage full or off
  }
}

/**
 * What is stored for a block, moving progress saved under its bare key (before keys carried the site) to this site's.
 * @param {string} key @returns {Entry | null}
 */
export function read(key) {
  const stored = readRaw(storageKey(key));
  if (stored) return stored;
  const old = readRaw(key);
  if (!old) return null;
  if (writeRaw(storageKey(key), old)) writeRaw(key, null);
  return old;
}

/** @param {unknown} value without its time stamp, to tell whether it changed */
function content(value) {
  if (!value || typeof value !== "object") return JSON.stringify(value);
  const { at, ...rest } = /** @type {{at?: number}} */ (value);
  return JSON.stringify(rest);
}

/** Quizzes: answer by answer, the later one; answers older than the latest reset are gone. @param {Entry} mine @param {Entry | null} theirs */
function mergeQuiz(mine, theirs) {
  const resetAt = Math.max(mine.resetAt ?? 0, theirs?.resetAt ?? 0);
  const sameVersion = theirs?.version === mine.version;
  /** @type {Record<string, any>} */
  const answers = {};
  for (const source of sameVersion ? [theirs?.answers ?? {}, mine.answers ?? {}] : [mine.answers ?? {}]) {
    for (const [id, answer] of Object.entries(source)) {
      if (!answer || (answer.at ?? 0) <= resetAt) continue;
      if (!answers[id] || (answer.at ?? 0) >= (answers[id].at ?? 0)) answers[id] = answer;
    }
  }
  return { ...mine, answers, ...(resetAt ? { resetAt } : {}) };
}

/**
 * Exercises: the later save's code; solved in either tab is solved (for this version of the exercise); honest attempts
 * are the larger count.
 * @param {Entry} mine @param {Entry | null} theirs
 */
function mergeExercise(mine, theirs) {
  const resetAt = Math.max(mine.resetAt ?? 0, theirs?.resetAt ?? 0);
  const stamp = resetAt ? { resetAt } : {};
  if (!theirs || theirs.version === undefined || (theirs.at ?? 0) <= resetAt) return { ...mine, ...stamp };
  const same = theirs.version === mine.version;
  const later = (theirs.at ?? 0) > (mine.at ?? 0) ? theirs : mine;
  const attempts = Math.max(Number(mine.attempts) | 0, same ? Number(theirs.attempts) | 0 : 0);
  const passed = Boolean(mine.passed || (same && theirs.passed));
  return { ...mine, code: later.code, attempts, passed, ...stamp };
}

/** @param {string} key @param {Entry} mine @param {Entry | null} theirs @returns {Entry} */
export function merge(key, mine, theirs) {
  return key.startsWith("quiz:") ? mergeQuiz(mine, theirs) : mergeExercise(mine, theirs);
}

/** @type {Map<string, Record<string, string>>} what each answer of a quiz held when last read or saved here */
const seen = new Map();

/** @param {string} key @param {Entry} entry */
function remember(key, entry) {
  if (key.startsWith("quiz:")) {
    seen.set(key, Object.fromEntries(Object.entries(entry.answers ?? {}).map(([id, answer]) => [id, content(answer)])));
  }
}

/**
 * A block's saved progress, or null when there is none for this version of it (an edited block starts afresh: a
 * stale verdict would mislead). Exercises keep their code across versions; the block decides.
 * @param {string} key @returns {Entry | null}
 */
export function load(key) {
  const entry = read(key);
  if (entry) remember(key, entry);
  return entry;
}

/**
 * Save a block's progress, merged with what another tab stored meanwhile; returns what was stored.
 * A quiz answer that changed since it was last read or saved here gets the time; one that is gone means a reset.
 * @param {string} key @param {Entry} entry
 */
export function save(key, entry) {
  const now = Date.now();
  /** @type {Entry} */
  let mine = { ...entry, at: now };
  if (key.startsWith("quiz:")) {
    const before = seen.get(key) ?? {};
    const answers = /** @type {Record<string, any>} */ (entry.answers ?? {});
    for (const [id, answer] of Object.entries(answers)) {
      if (answer && before[id] !== content(answer)) answer.at = now;
    }
    if (Object.keys(before).some((id) => !(id in answers))) mine.resetAt = now - 1;
  } else if (entry.code === undefined && !entry.passed && !(Number(entry.attempts) | 0)) {
    mine.resetAt = now - 1;
  }
  mine = merge(key, mine, readRaw(storageKey(key)));
  writeRaw(storageKey(key), mine);
  remember(key, mine);
  dispatchEvent(new CustomEvent(PROGRESS_EVENT, { detail: { key } }));
  return mine;
}

/**
 * Call `changed` with the merged progress when another tab of this book saves this block's, for as long as the block's
 * element `root` is on the page (instant navigation replaces it).
 * @param {string} key @param {HTMLElement} root @param {(entry: Entry | null) => void} changed
 */
export function watch(key, root, changed) {
  const name = storageKey(key);
  /** @param {StorageEvent} event */
  const listener = (event) => {
    if (!root.isConnected) return removeEventListener("storage", listener);
    if (event.key !== name && event.key !== null) return; // null: the whole storage was cleared
    const entry = readRaw(name);
    if (entry) remember(key, entry);
    changed(entry);
  };
  addEventListener("storage", listener);
}

/** Every block's stored progress on this site, by block key. @returns {Record<string, Entry>} */
export function everything() {
  /** @type {Record<string, Entry>} */
  const found = {};
  try {
    for (let index = 0; index < localStorage.length; index += 1) {
      const name = localStorage.key(index);
      if (!name?.startsWith(PREFIX)) continue;
      const entry = readRaw(name);
      if (entry) found[name.slice(PREFIX.length)] = entry;
    }
  } catch {
    // storage off: nothing saved
  }
  return found;
}

/**
 * Put entries back as they were (an undone reset, an import), without merging; null removes one.
 * @param {Record<string, Entry | null>} entries @returns {boolean} whether every one was stored
 */
export function restore(entries) {
  let stored = true;
  for (const [key, entry] of Object.entries(entries)) {
    stored = writeRaw(storageKey(key), entry) && stored;
    if (entry) remember(key, entry);
    else seen.delete(key);
  }
  dispatchEvent(new CustomEvent(PROGRESS_EVENT, { detail: { key: null } }));
  return stored;
}

/**
 * Whether the reader has answered a quiz's question: checked now, or right before they chose to try again (a right
 * answer keeps its point until the reader checks another). @param {Answer | undefined} answer
 */
export function answered(answer) {
  return Boolean(answer?.checked || answer?.correct);
}

/**
 * What a reader has done on one block, in words and as a kind the styles use.
 * @param {{key: string, kind: string, version: string, total: number}} item @param {Entry | null | undefined} entry
 * @returns {{state: "none" | "started" | "done", text: string, phrase: string}} `text` on its own (the progress
 * page's rows), `phrase` within a sentence (the line under a page's title)
 */
export function summary(item, entry) {
  const current = entry && entry.version === item.version;
  if (item.kind === "quiz") {
    const answers = current ? Object.values(entry.answers ?? {}).filter(answered) : [];
    if (!answers.length) return { state: "none", text: t("progress.state.none"), phrase: t("progress.here.none") };
    const right = answers.filter((answer) => answer.correct).length;
    const done = answers.length >= item.total;
    const values = { right, total: item.total, answered: answers.length };
    const text = t(done ? "progress.state.right" : "progress.state.partial", values);
    return { state: done ? "done" : "started", text, phrase: text };
  }
  if (current && entry.passed) return { state: "done", text: t("progress.state.solved"), phrase: t("progress.here.solved") };
  if (entry && (entry.code !== undefined || entry.attempts)) {
    return { state: "started", text: t("progress.state.started"), phrase: t("progress.here.started") };
  }
  return { state: "none", text: t("progress.state.none"), phrase: t("progress.here.none") };
}
