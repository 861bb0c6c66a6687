// editor/codemirror-language.js as runtime/site.py writes it: @codemirror/language, vendored.
export * from "@codemirror/language";
