// @ts-check
/**
 * The exercises' code editor: CodeMirror 6 with Python highlighting and indentation, in the theme's code colours
 * (light and dark alike, through Material's CSS variables). Its modules are vendored at build from the pinned npm
 * packages into editor/ (runtime/site.py); exercise.js loads this module only on pages that have an exercise.
 *
 * Keyboard: Tab and Shift-Tab indent and dedent. So that Tab does not trap keyboard users, Escape then Tab moves focus
 * out of the editor, and Ctrl-M (Shift-Alt-M on a Mac) switches Tab between indenting and moving focus; the page says
 * so next to the editor.
 */
import { EditorSelection, EditorState } from "./editor/codemirror-state.js";
import { EditorView, drawSelection, keymap, lineNumbers } from "./editor/codemirror-view.js";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "./editor/codemirror-commands.js";
import {
  HighlightStyle,
  bracketMatching,
  indentOnInput,
  indentUnit,
  syntaxHighlighting,
} from "./editor/codemirror-language.js";
import { python } from "./editor/codemirror-lang-python.js";
import { tags } from "./editor/lezer-highlight.js";

const highlighting = HighlightStyle.define([
  { tag: [tags.keyword, tags.controlKeyword, tags.definitionKeyword, tags.moduleKeyword], color: "var(--md-code-hl-keyword-color)" },
  { tag: [tags.string, tags.special(tags.string)], color: "var(--md-code-hl-string-color)" },
  { tag: [tags.number, tags.bool, tags.null], color: "var(--md-code-hl-number-color)" },
  { tag: tags.comment, color: "var(--calc-muted)", fontStyle: "italic" },
  { tag: [tags.function(tags.variableName), tags.function(tags.definition(tags.variableName))], color: "var(--md-code-hl-function-color)" },
  { tag: [tags.operator, tags.compareOperator, tags.arithmeticOperator], color: "var(--md-code-hl-operator-color)" },
  { tag: [tags.punctuation, tags.bracket], color: "var(--md-code-hl-punctuation-color)" },
  { tag: tags.self, color: "var(--md-code-hl-constant-color)" },
]);

const theme = EditorView.theme({
  "&": {
    backgroundColor: "var(--md-code-bg-color)",
    color: "var(--md-code-fg-color)",
    fontSize: "0.85em",
    borderRadius: "0.1rem",
  },
  "&.cm-focused": { outline: "2px solid var(--md-accent-fg-color)", outlineOffset: "1px" },
  ".cm-scroller": { fontFamily: "var(--md-code-font-family)", lineHeight: "1.5" },
  ".cm-content": { caretColor: "var(--md-code-fg-color)", padding: "0.6em 0" },
  ".cm-cursor, .cm-dropCursor": { borderLeftColor: "var(--md-code-fg-color)" },
  // Two digits wide from the start (calculators.css sets the pre-rendered code's left edge to match).
  ".cm-lineNumbers .cm-gutterElement": { minWidth: "calc(2ch + 8px)" },
  ".cm-gutters": {
    backgroundColor: "var(--md-code-bg-color)",
    color: "var(--calc-muted, inherit)",
    border: "none",
  },
  "&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground": {
    backgroundColor: "var(--md-accent-fg-color--transparent)",
  },
  ".cm-matchingBracket": { outline: "1px solid var(--md-default-fg-color--light)" },
});

/**
 * @typedef {object} Editor
 * @property {() => string} read the code as it stands
 * @property {(code: string) => void} replace put other code in (reset, a solution)
 * @property {(line: number) => void} goToLine focus the editor with the cursor at the start of `line`
 * @property {() => void} focus
 * @property {(offset: number) => void} focusAt focus the editor with the cursor `offset` characters into the code
 */

/**
 * An editor in `parent` holding `code`; `onChange` gets the code after each edit.
 * @param {{parent: HTMLElement, code: string, labelledBy: string, describedBy: string, onChange: (code: string) => void}} options
 * @returns {Editor}
 */
export function createEditor({ parent, code, labelledBy, describedBy, onChange }) {
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: code,
      extensions: [
        lineNumbers(),
        EditorView.lineWrapping, // a long line wraps rather than running off a phone's screen (as the code before it)
        history(),
        drawSelection(),
        indentOnInput(),
        bracketMatching(),
        indentUnit.of("    "),
        EditorState.tabSize.of(4),
        python(),
        syntaxHighlighting(highlighting),
        keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
        EditorView.contentAttributes.of({
          "aria-labelledby": labelledBy,
          "aria-describedby": describedBy,
          "aria-multiline": "true",
          spellcheck: "false",
          autocapitalize: "off",
          autocorrect: "off",
        }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) onChange(update.state.doc.toString());
        }),
        theme,
      ],
    }),
  });
  return {
    read: () => view.state.doc.toString(),
    replace(text) {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
    },
    goToLine(line) {
      const target = view.state.doc.line(Math.min(Math.max(line, 1), view.state.doc.lines));
      view.dispatch({ selection: EditorSelection.cursor(target.from), scrollIntoView: true });
      view.focus();
    },
    focus: () => view.focus(),
    focusAt(offset) {
      view.dispatch({ selection: EditorSelection.cursor(Math.min(Math.max(offset, 0), view.state.doc.length)) });
      view.focus();
    },
  };
}
