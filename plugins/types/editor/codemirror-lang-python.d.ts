// editor/codemirror-lang-python.js as runtime/site.py writes it: @codemirror/lang-python, vendored.
export * from "@codemirror/lang-python";
