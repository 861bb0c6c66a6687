// @ts-check
/**
 * What calculators, quizzes and exercises share about their state on the page: the words a reader sees while Python
 * starts in the browser (runtime.js's stages), and mounting each block once (Material's instant navigation may hand
 * the same element to a mount again).
 */

import { t } from "./i18n.js";

/** @type {Partial<Record<import("./runtime.js").Stage, string>>} */
const STAGE_KEY = { runtime: "status.runtime", package: "status.package" };

/** What a block says while Python starts, or "" at a stage with nothing to say. @param {import("./runtime.js").Stage} stage */
export function stageText(stage) {
  const key = STAGE_KEY[stage];
  return key ? t(key) : "";
}

/** Whether `root` is this mount's to make live: false when an earlier mount has it already. @param {HTMLElement} root */
export function claim(root) {
  if (root.dataset.mounted) return false;
  root.dataset.mounted = "true";
  return true;
}
