// @ts-check
/** The text a quiz writes into its questions: verdicts, marks beside options, notes. Only ever text, never markup. */

/** @param {string} tag @param {string} className @param {string} text */
export function element(tag, className, text) {
  const node = document.createElement(tag);
  node.className = className;
  node.textContent = text;
  return node;
}

/** A verdict line with its symbol hidden from screen readers (the words carry the meaning). @param {boolean} right @param {string} text */
export function verdictLine(right, text) {
  const line = element("p", `quiz-verdict ${right ? "quiz-right" : "quiz-wrong"}`, "");
  line.append(element("span", "quiz-symbol", right ? "✓ " : "✗ "), text);
  line.firstElementChild?.setAttribute("aria-hidden", "true");
  return line;
}
