// editor/codemirror-language.js as runtime.py writes it: @codemirror/language, vendored.
export * from "@codemirror/language";
