// @ts-check
/**
 * A calculator in the page's address: every input a reader changed is recorded there (`?calc-1.intensity=50`), so that
 * the link reproduces the calculator; opening such a link puts its inputs back, and says which parts it left out.
 */
import { plural, t } from "./i18n.js";
import { authoredValue, fieldLabel, fieldValue, fields, setControl } from "./calculator_form.js";

/** Record the inputs that differ from the author's in the URL, so the link reproduces this calculator. @param {HTMLElement} root */
export function recordInUrl(root) {
  const url = new URL(location.href);
  for (const field of fields(root)) {
    const param = `${root.id}.${field.dataset.input}`;
    const value = fieldValue(field);
    if (value === authoredValue(field)) url.searchParams.delete(param);
    else url.searchParams.set(param, value);
  }
  if (url.href !== location.href) history.replaceState(history.state, "", url);
}

/** @param {HTMLElement} root */
export function forgetInUrl(root) {
  const url = new URL(location.href);
  for (const key of [...url.searchParams.keys()]) if (key.startsWith(`${root.id}.`)) url.searchParams.delete(key);
  if (url.href !== location.href) history.replaceState(history.state, "", url);
}

/**
 * Put the inputs that a shared link carries into the form. A part the form cannot take (a chip that is not in the
 * list, an input this calculator does not have) is left out, so that field keeps its default; each is described.
 * @param {HTMLElement} root @returns {string[]} what was ignored, in the reader's words
 */
export function restoreFromUrl(root) {
  /** @type {string[]} */
  const ignored = [];
  for (const [param, value] of new URL(location.href).searchParams) {
    const [id, key] = param.split(".", 2);
    if (id !== root.id || !key) continue;
    const field = /** @type {HTMLElement | null} */ (root.querySelector(`[data-input="${CSS.escape(key)}"]`));
    if (!field) {
      ignored.push(t("link.unknown", { key }));
      continue;
    }
    const label = fieldLabel(field);
    if (field.dataset.kind === "choices") {
      const known = new Set([...field.querySelectorAll("input[type=checkbox]")].map((box) => /** @type {HTMLInputElement} */ (box).value));
      const picked = value.split(",").filter((item) => item.trim());
      const unknown = picked.filter((item) => !known.has(item.trim()));
      for (const item of unknown) ignored.push(t("link.not_listed", { label, value: item }));
      setControl(root, key, picked.filter((item) => known.has(item.trim())).join(","));
      continue;
    }
    const select = field.querySelector("select");
    if (select && ![...select.options].some((option) => option.value === value)) {
      ignored.push(t("link.not_listed", { label, value }));
      continue;
    }
    setControl(root, key, value);
  }
  return ignored;
}

/** Say which parts of a shared link were left out, above the results. @param {HTMLElement} root @param {string[]} ignored */
export function showIgnored(root, ignored) {
  if (!ignored.length) return;
  const note = document.createElement("p");
  note.className = "calc-link-note";
  note.setAttribute("role", "status");
  note.textContent = plural("link.ignored", ignored.length, { parts: ignored.join(t("list.separator")) });
  root.querySelector(".calc-results")?.before(note);
}
