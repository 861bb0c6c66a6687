// editor/codemirror-state.js as runtime/site.py writes it: @codemirror/state, vendored.
export * from "@codemirror/state";
