// @ts-check
/**
 * What a reader sees of their progress (kept by progress.js): the line under a page's title (pages/progress_page.py writes
 * it hidden, with the page's quizzes and exercises), and the "Your progress" page: every block of the book by chapter
 * with its state, export to a file, import from one, and reset with undo. Nothing leaves the browser: export is a
 * download made here, import reads a file the reader picks.
 */
import { PROGRESS_EVENT, everything, merge, read, restore, summary } from "./progress.js";
import { plural, t } from "./i18n.js";
import { claim } from "./status.js";

const FORMAT = /** @type {const} */ ("calculators-progress");
const FORMAT_VERSION = 1;

/** @typedef {import("./contracts.js").ProgressItem} Item */

/** Call `update` now and whenever progress changes, here or in another tab, while `root` is in the page. @param {HTMLElement} root @param {() => void} update */
function follow(root, update) {
  update();
  const listener = () => {
    if (!root.isConnected) {
      removeEventListener(PROGRESS_EVENT, listener);
      removeEventListener("storage", listener);
      return;
    }
    update();
  };
  addEventListener(PROGRESS_EVENT, listener);
  addEventListener("storage", listener);
}

/** The line under a page's title. @param {HTMLElement[]} elements */
export function mountProgressHere(elements) {
  for (const root of elements) {
    if (!claim(root)) continue;
    const items = /** @type {Item[]} */ (JSON.parse(root.dataset.progressHere ?? "[]"));
    const state = /** @type {HTMLElement} */ (root.querySelector(".progress-here-state"));
    follow(root, () => {
      const parts = items.map((item) => {
        // "quiz", "exercise" in the book's language (the kind's name, as the build wrote it, for a book's own kind)
        const key = `progress.kind.${item.kind}`;
        const kind = t(key) === key ? item.kind : t(key);
        const state = summary(item, read(item.key)).phrase;
        return t(items.length === 1 ? "progress.here.one" : "progress.here.many", { kind, title: item.title, state });
      });
      state.textContent = t("progress.here.end", { list: parts.join(t("progress.here.separator")) });
    });
    root.hidden = false;
  }
}

/** The "Your progress" page. @param {HTMLElement[]} elements */
export function mountProgressBook(elements) {
  for (const root of elements) {
    if (!claim(root)) continue;
    mountBook(root);
  }
}

/** @param {HTMLElement} root */
function mountBook(root) {
  const { book } = /** @type {{book: string}} */ (JSON.parse(root.dataset.progressBook ?? "{}"));
  const find = (/** @type {string} */ selector) => /** @type {HTMLElement} */ (root.querySelector(selector));
  const rows = /** @type {HTMLElement[]} */ ([...root.querySelectorAll("[data-progress-item]")]);
  const items = rows.map((row) => /** @type {Item} */ (JSON.parse(row.dataset.progressItem ?? "{}")));
  const known = new Set(items.map((item) => item.key));
  const summaryLine = find(".progress-summary");
  const message = find(".progress-message");
  const undo = find(".progress-undo");
  const undoButton = /** @type {HTMLButtonElement} */ (find(".progress-undo-button"));
  const fileInput = /** @type {HTMLInputElement} */ (find(".progress-import"));
  /** @type {Record<string, import("./progress.js").Entry | null> | null} */
  let beforeReset = null;

  function update() {
    let done = 0;
    let started = 0;
    rows.forEach((row, index) => {
      const { state, text } = summary(items[index], read(items[index].key));
      const cell = /** @type {HTMLElement} */ (row.querySelector(".progress-state"));
      cell.textContent = text;
      cell.dataset.state = state;
      if (state === "done") done += 1;
      if (state === "started") started += 1;
    });
    summaryLine.textContent = plural(started ? "progress.summary.started" : "progress.summary", items.length, { done, started });
  }
  follow(root, update);
  find(".progress-actions").hidden = false;

  find(".progress-export").addEventListener("click", () => {
    const entries = Object.fromEntries(Object.entries(everything()).filter(([key]) => known.has(key)));
    /** @type {import("./contracts.js").ProgressExport} */
    const file = { format: FORMAT, version: FORMAT_VERSION, book, exported: new Date().toISOString(), progress: entries };
    const blob = new Blob([JSON.stringify(file, null, 1)], { type: "application/json" });
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    const day = file.exported.slice(0, 10);
    link.download = `${String(book).toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") || "book"}-progress-${day}.json`;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
    say(plural("progress.exported", Object.keys(entries).length, { file: link.download }));
  });

  fileInput.addEventListener("change", async () => {
    const file = fileInput.files?.[0];
    fileInput.value = "";
    if (!file) return;
    const refusal = (/** @type {string} */ why) => say(t("progress.import.refused", { file: file.name, why }));
    /** @type {Partial<import("./contracts.js").ProgressExport> | null} */
    let data;
    try {
      data = JSON.parse(await file.text());
    } catch {
      return refusal(t("progress.import.not_json"));
    }
    if (!data || typeof data !== "object" || data.format !== FORMAT || typeof data.progress !== "object" || !data.progress) {
      return refusal(t("progress.import.not_export"));
    }
    if (data.version !== FORMAT_VERSION) return refusal(t("progress.import.format", { version: data.version }));
    if (data.book !== book) return refusal(t("progress.import.book", { other: data.book, book }));
    /** @type {Record<string, import("./progress.js").Entry>} */
    const merged = {};
    for (const [key, entry] of Object.entries(data.progress)) {
      if (!known.has(key) || !entry || typeof entry !== "object" || Array.isArray(entry)) continue;
      merged[key] = merge(key, entry, read(key));
    }
    if (!restore(merged)) return say(t("progress.import.storage"));
    forgetUndo();
    const count = Object.keys(merged).length;
    say(plural("progress.imported", count, { file: file.name }));
  });

  find(".progress-reset").addEventListener("click", () => {
    const saved = Object.fromEntries(Object.entries(everything()).filter(([key]) => known.has(key)));
    if (!Object.keys(saved).length) return say(t("progress.reset.none"));
    beforeReset = saved;
    const now = Date.now();
    restore(Object.fromEntries(Object.keys(saved).map((key) => [key, { resetAt: now }])));
    undo.hidden = false;
    say(t("progress.reset.done"));
    undoButton.focus();
  });
  undoButton.addEventListener("click", () => {
    if (!beforeReset) return;
    const now = Date.now();
    // Stamped anew: the answers come back as the latest state, ahead of the reset another tab has merged.
    restore(Object.fromEntries(Object.entries(beforeReset).map(([key, entry]) => [key, restamp(entry, now)])));
    forgetUndo();
    say(t("progress.undone"));
    find(".progress-reset").focus();
  });

  /** @param {string} text */
  function say(text) {
    message.textContent = text;
  }
  function forgetUndo() {
    beforeReset = null;
    undo.hidden = true;
  }
}

/** @param {import("./progress.js").Entry | null} entry @param {number} now */
function restamp(entry, now) {
  if (!entry) return entry;
  const { resetAt, ...rest } = entry;
  const answers = rest.answers
    ? Object.fromEntries(Object.entries(rest.answers).map(([id, answer]) => [id, { ...answer, at: now }]))
    : undefined;
  return { ...rest, at: now, ...(answers ? { answers } : {}) };
}
