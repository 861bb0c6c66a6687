// @ts-check
/**
 * An exercise's code before the editor arrives: the pre-rendered code made into a plain-text field, where the caret
 * is in it (the editor takes over there), and the moment a reader reaches for the exercise, which loads the editor
 * (CodeMirror, through editor.js, once for the page).
 */

/** @type {Promise<typeof import("./editor.js")> | null} */
let editorModule = null;

/** The editor's module, loaded once, on the first exercise a reader reaches for. */
export function loadEditorModule() {
  editorModule ??= import("./editor.js");
  return editorModule;
}

/**
 * Call `wanted` once, when the reader reaches for `root`: a pointer over it or a touch, a focus inside it, or `root`
 * entering the viewport.
 * @param {HTMLElement} root @param {() => void} wanted
 */
export function whenReachedFor(root, wanted) {
  const events = ["pointerover", "pointerdown", "focusin"];
  const observer = "IntersectionObserver" in window ? new IntersectionObserver(seen) : null;
  function seen(/** @type {IntersectionObserverEntry[]} */ entries) {
    if (entries.some((entry) => entry.isIntersecting)) reached();
  }
  function reached() {
    for (const event of events) root.removeEventListener(event, reached);
    observer?.disconnect();
    wanted();
  }
  for (const event of events) root.addEventListener(event, reached);
  if (observer) observer.observe(root);
  else reached();
}

/**
 * The pre-rendered code as a plain-text field: labelled like the editor, typed into before the editor arrives.
 * @param {HTMLElement} code @param {string} labelledBy @param {string} describedBy
 */
export function makeEditable(code, labelledBy, describedBy) {
  try {
    code.contentEditable = "plaintext-only";
  } catch {
    code.contentEditable = "true"; // a browser without plaintext-only: the text is still read as text
  }
  const attributes = {
    role: "textbox",
    "aria-multiline": "true",
    "aria-labelledby": labelledBy,
    "aria-describedby": describedBy,
    spellcheck: "false",
    autocapitalize: "off",
    autocorrect: "off",
    tabindex: "0",
  };
  for (const [name, value] of Object.entries(attributes)) code.setAttribute(name, value);
}

/** Where the caret is in `code`, as an offset into its text; null when it is not there. @param {HTMLElement} code */
export function caretIn(code) {
  const selection = getSelection();
  if (!selection?.rangeCount || !code.contains(selection.focusNode)) return null;
  const before = document.createRange();
  before.setStart(code, 0);
  before.setEnd(/** @type {Node} */ (selection.focusNode), selection.focusOffset);
  return before.toString().length;
}
