// @ts-check
/**
 * What a quiz writes into its questions: verdicts, marks beside options and notes, only ever as text; and the
 * explanations the build wrote as HTML (the author's Markdown) in <template>s, shown after a Check.
 */

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

/**
 * A copy of the explanation the build left in `holder`'s <template class="…"> (none: null), in a block of `className`.
 * @param {Element} holder @param {string} className
 */
export function explanation(holder, className) {
  const template = /** @type {HTMLTemplateElement | null} */ (holder.querySelector(`:scope > template.${className}`));
  if (!template) return null;
  const node = element("div", className, "");
  node.append(template.content.cloneNode(true));
  return node;
}

/**
 * The words of an element as a screen reader says them, for an announcement: a typeset formula once (its MathML's
 * text), not also as its drawn glyphs and its TeX. @param {Element} node
 */
export function spokenText(node) {
  const copy = /** @type {Element} */ (node.cloneNode(true));
  for (const drawn of copy.querySelectorAll(".katex-html, annotation")) drawn.remove();
  return (copy.textContent ?? "").replace(/\s+/g, " ").trim();
}
