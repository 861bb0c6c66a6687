// editor/codemirror-commands.js as runtime/site.py writes it: @codemirror/commands, vendored.
export * from "@codemirror/commands";
