// editor/codemirror-view.js as runtime.py writes it: @codemirror/view, vendored.
export * from "@codemirror/view";
