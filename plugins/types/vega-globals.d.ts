// The global that Vega's UMD bundle defines once vega.js has loaded it (vega_labels.js measures text with it), with
// two functions of vega-scenegraph that the bundle exports and vega's own types leave out.
declare const vega: typeof import("vega") & {
  font(item: unknown): string;
  fontSize(item: unknown): number;
};
