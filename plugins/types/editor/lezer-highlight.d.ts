// editor/lezer-highlight.js as runtime.py writes it: @lezer/highlight, vendored.
export * from "@lezer/highlight";
