// editor/codemirror-state.js as runtime.py writes it: @codemirror/state, vendored.
export * from "@codemirror/state";
