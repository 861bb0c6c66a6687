// @ts-check
/**
 * An exercise's code before the editor arrives: the pre-rendered code made into a plain-text field, where the caret
 * is in it (the editor takes over there), and the moments that matter: the exercise near the screen (its interpreters
 * start booting, in workers) and a reader reaching for it (the editor, CodeMirror through editor.js, loads once for
 * the page and is made for that exercise).
 */

/** @type {Promise<typeof import("./editor.js")> | null} */
let editorModule = null;

/** The editor's module, loaded once, on the first exercise a reader reaches for. */
export function loadEditorModule() {
  editorModule ??= import("./editor.js");
  return editorModule;
}

/**
 * Call `wanted` once, when the reader reaches for `root`: a pointer over it (a mouse, or the page scrolled under one),
 * a touch, or a focus inside it. Not merely for its being on screen: making an editor holds the main thread for about
 * 300 ms on a desktop (four times that on a phone), which a reader who only reads the exercise should not pay.
 * @param {HTMLElement} root @param {() => void} wanted
 */
export function whenReachedFor(root, wanted) {
  const events = ["pointerover", "pointerdown", "focusin"];
  function reached() {
    for (const event of events) root.removeEventListener(event, reached);
    wanted();
  }
  for (const event of events) root.addEventListener(event, reached);
}

/**
 * Call `seen` once, when `root` first comes near the screen (within half a screen), or at once without
 * IntersectionObserver.
 * @param {HTMLElement} root @param {() => void} seen
 */
export function whenNearScreen(root, seen) {
  if (!("IntersectionObserver" in window)) return seen();
  const observer = new IntersectionObserver(
    (entries) => {
      if (!entries.some((entry) => entry.isIntersecting)) return;
      observer.disconnect();
      seen();
    },
    { rootMargin: "50% 0px" },
  );
  observer.observe(root);
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
