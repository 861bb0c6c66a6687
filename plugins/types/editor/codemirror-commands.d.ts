// editor/codemirror-commands.js as runtime.py writes it: @codemirror/commands, vendored.
export * from "@codemirror/commands";
