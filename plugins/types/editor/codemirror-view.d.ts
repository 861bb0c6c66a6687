// editor/codemirror-view.js as runtime/site.py writes it: @codemirror/view, vendored.
export * from "@codemirror/view";
