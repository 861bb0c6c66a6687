// @ts-check
/**
 * What an exercise shows under its code after Run or Check: what the code printed, its error with a button to the
 * line, and the first case that fails (its inputs, the expected value and what came back). Only ever text.
 */

import { plural, t } from "./i18n.js";

/** @typedef {import("./contracts.js").PythonError} PythonError */

/** @param {number | null} value */
function number(value) {
  if (value === null) return "None";
  if (Number.isInteger(value)) return String(value);
  return String(Number(value.toPrecision(8)));
}

/**
 * @param {string} tag
 * @param {Record<string, string>} [attributes]
 * @param {(Node | string)[]} [children]
 */
export function element(tag, attributes = {}, children = []) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

/**
 * The error's line, as a button that puts the cursor there (`goToLine`), and its message.
 * @param {HTMLElement} result @param {PythonError} error @param {string} prefix @param {(line: number) => void} goToLine
 */
export function showError(result, error, prefix, goToLine) {
  const parts = [];
  const line = Number(error.line);
  if (Number.isInteger(line) && line > 0) {
    const go = element("button", { type: "button", class: "exercise-line" }, [t("exercise.line", { line })]);
    go.addEventListener("click", () => goToLine(line));
    parts.push(go, t("exercise.line.separator"));
  }
  parts.push(`${String(error.type)}: ${String(error.message)}`);
  result.append(element("p", { class: "exercise-error" }, [prefix, ...parts]));
}

/** @param {HTMLElement} result @param {string} stdout */
export function showOutput(result, stdout) {
  if (!stdout) return;
  result.append(
    element("p", { class: "exercise-output-label" }, [t("exercise.printed")]),
    element("pre", { class: "exercise-stdout" }, [stdout]),
  );
}

/**
 * @param {HTMLElement} result
 * @param {import("./contracts.js").Checked} reply a failed Check's, which names its first failing case
 * @param {{function: string, parameters: string[]}} data the exercise's
 * @param {(line: number) => void} goToLine
 */
export function showFailure(result, reply, data, goToLine) {
  const { failure } = reply;
  if (!failure) return;
  const rows = data.parameters.map((name) =>
    element("tr", {}, [element("th", { scope: "row" }, [element("code", {}, [name])]), element("td", {}, [number(failure.inputs[name])])]),
  );
  rows.push(element("tr", {}, [element("th", { scope: "row" }, [t("exercise.expected")]), element("td", {}, [number(failure.expected)])]));
  if (!failure.error) {
    rows.push(element("tr", {}, [element("th", { scope: "row" }, [t("exercise.got")]), element("td", {}, [failure.got ?? ""])]));
  }
  const values = { number: failure.index + 1, total: reply.total, passed: reply.passed, reason: failure.reason };
  result.append(
    element("p", { class: "exercise-fail" }, [reply.passed ? plural("exercise.fails.after", reply.passed, values) : t("exercise.fails", values)]),
    element("table", { class: "exercise-case" }, [
      element("caption", {}, [t("exercise.case", { number: failure.index + 1, function: data.function })]),
      element("tbody", {}, rows),
    ]),
  );
  if (failure.error) showError(result, failure.error, t("exercise.raised"), goToLine);
}
