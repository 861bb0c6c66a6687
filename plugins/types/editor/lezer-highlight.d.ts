// editor/lezer-highlight.js as runtime/site.py writes it: @lezer/highlight, vendored.
export * from "@lezer/highlight";
