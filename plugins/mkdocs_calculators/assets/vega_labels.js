// @ts-check
/**
 * The labels of a chart's points placed so that none covers another label, a point, a line or an axis (declutter),
 * from Vega's scene alone: Vega's own label placement only avoids other labels. vega.js calls it after each draw.
 */

const LABEL_PLACES = [
  [0, 0, "start"], // where the spec puts it: right of the point, above
  [-14, 0, "end"], // left, above
  [0, 18, "start"], // right, below
  [-14, 18, "end"], // left, below
  [0, -11, "start"], // one line higher, right
  [-14, -11, "end"], // one line higher, left
  [0, 29, "start"], // one line lower, right
  [-14, 29, "end"], // one line lower, left
  [0, -22, "start"], // two lines higher, right
  [-14, -22, "end"], // two lines higher, left
];

/** @type {CanvasRenderingContext2D | null | undefined} */
let measuring;
/** @type {Map<string, [number, number]>} */
const fontExtents = new Map();

/**
 * How far a font's glyphs reach above and below the baseline, in pixels, as the browser lays out a line of SVG text.
 * @param {string} font a CSS font, as Vega writes it for an item
 * @returns {[number, number]} [ascent, descent]
 */
function extent(font) {
  let known = fontExtents.get(font);
  if (!known) {
    measuring ??= document.createElement("canvas").getContext("2d");
    if (!measuring) return [0, 0];
    measuring.font = font;
    const metrics = measuring.measureText("Hg");
    known = [metrics.fontBoundingBoxAscent, metrics.fontBoundingBoxDescent];
    if (document.fonts.status === "loaded") fontExtents.set(font, known); // a font still loading measures as another
  }
  return known;
}

/**
 * How wide `text` is in `font`, in pixels, as a canvas lays it out (the browser's own text measure, no page layout).
 * @param {string} font @param {string} text @returns {number} 0 where no canvas can measure
 */
function textWidth(font, text) {
  measuring ??= document.createElement("canvas").getContext("2d");
  if (!measuring) return 0;
  measuring.font = font;
  return measuring.measureText(text).width;
}

/** @typedef {{x1: number, y1: number, x2: number, y2: number}} Box in the chart's units, from the SVG's top left */

/**
 * Where Vega put an SVG element's scene item, in the chart's units, from Vega's own layout (no layout of the page is
 * read). Text gets the height its font's glyphs take rather than Vega's one em, as the browser draws it.
 * @param {any} view
 * @param {Element} element
 * @returns {Box | null}
 */
function itemBox(view, element) {
  const item = /** @type {any} */ (element).__data__;
  const bounds = item?.bounds;
  if (!bounds || !(bounds.x2 > bounds.x1)) return null;
  let [x, y] = view.origin();
  for (let group = item.mark?.group; group; group = group.mark?.group) [x, y] = [x + (group.x ?? 0), y + (group.y ?? 0)];
  const box = { x1: bounds.x1 + x, y1: bounds.y1 + y, x2: bounds.x2 + x, y2: bounds.y2 + y };
  if (item.mark.marktype === "text" && !item.angle) {
    // Vega's box spans the em from 0.8 of it above the baseline; the browser's spans the font's ascent and descent.
    const size = vega.fontSize(item);
    const baseline = box.y1 + Math.round(0.8 * size);
    const [ascent, descent] = extent(vega.font(item));
    if (ascent + descent > 0) [box.y1, box.y2] = [baseline - ascent, baseline + descent];
  }
  return box;
}

/**
 * The straight pieces of the chart's lines (a roofline, the lines of equal ridge point), in the chart's units.
 * @param {any} view @param {SVGSVGElement} svg @returns {[number, number, number, number][]}
 */
function lineSegments(view, svg) {
  /** @type {[number, number, number, number][]} */
  const segments = [];
  for (const path of svg.querySelectorAll(".mark-line path")) {
    const items = /** @type {any} */ (path).__data__?.mark?.items;
    if (!Array.isArray(items)) continue;
    let [x, y] = view.origin();
    for (let group = items[0]?.mark?.group; group; group = group.mark?.group) [x, y] = [x + (group.x ?? 0), y + (group.y ?? 0)];
    const points = items.filter((item) => item.mark === items[0].mark && item.datum?.ridge === items[0].datum?.ridge);
    for (let i = 1; i < points.length; i++) {
      segments.push([points[i - 1].x + x, points[i - 1].y + y, points[i].x + x, points[i].y + y]);
    }
  }
  return segments;
}

/** Whether the segment from (x1, y1) to (x2, y2) crosses `box` (Liang-Barsky clipping). @param {number[]} segment @param {Box} box */
function crosses([x1, y1, x2, y2], box) {
  const [dx, dy] = [x2 - x1, y2 - y1];
  let [low, high] = [0, 1];
  for (const [p, q] of [[-dx, x1 - box.x1], [dx, box.x2 - x1], [-dy, y1 - box.y1], [dy, box.y2 - y1]]) {
    if (p === 0) {
      if (q < 0) return false;
    } else {
      const t = q / p;
      if (p < 0) low = Math.max(low, t);
      else high = Math.min(high, t);
      if (low > high) return false;
    }
  }
  return true;
}

/**
 * Move the labels of a chart's points so that none covers another label, a point, a line or an axis: each tries a few
 * places around its point, in order, and a label that fits nowhere is hidden (the point keeps its tooltip, and the
 * table beside the chart names every chip).
 *
 * Boxes come from Vega's scene (where it put each item), so nothing here makes the page lay itself out: the label
 * placement costs sums, and the attributes written for labels whose place or visibility changes.
 * @param {HTMLElement} container
 * @param {any} view
 */
export function declutter(container, view) {
  const svg = container.querySelector("svg");
  if (!svg) return;
  const [width, height] = [svg.width.baseVal.value, svg.height.baseVal.value];
  const gap = 1;
  const overlaps = (/** @type {Box} */ a, /** @type {Box} */ b) =>
    a.x1 < b.x2 + gap && b.x1 < a.x2 + gap && a.y1 < b.y2 + gap && b.y1 < a.y2 + gap;
  const inside = (/** @type {Box} */ box) => box.x1 >= 0 && box.x2 <= width && box.y1 >= 0 && box.y2 <= height;
  const visible = (/** @type {Element} */ element, /** @type {boolean} */ seen) => {
    if (!seen) element.setAttribute("visibility", "hidden");
    else if (element.hasAttribute("visibility")) element.removeAttribute("visibility");
  };
  const shown = (/** @type {Element} */ element) => Number(element.getAttribute("opacity") ?? 1) > 0;
  const taken = /** @type {Box[]} */ (
    [...svg.querySelectorAll(".role-axis-title text, .mark-symbol path")].map((e) => itemBox(view, e)).filter(Boolean)
  );
  const segments = lineSegments(view, svg);
  // Tick labels first: powers of ten keep their place, and a label between them that would touch one is hidden.
  const decade = (/** @type {Element} */ label) => /^(0\.0*1|10*)$/.test((label.textContent ?? "").replaceAll(",", ""));
  for (const axis of svg.querySelectorAll(".role-axis")) {
    const labels = [...axis.querySelectorAll(".role-axis-label text")].filter(shown);
    /** @type {Box[]} */
    const kept = [];
    for (const label of [...labels.filter(decade), ...labels.filter((label) => !decade(label))]) {
      const box = itemBox(view, label);
      const free = !box || !kept.some((other) => overlaps(box, other));
      if (box && free) kept.push(box);
      visible(label, free);
    }
    taken.push(...kept);
  }
  for (const label of /** @type {SVGTextElement[]} */ ([...svg.querySelectorAll(".mark-text.role-mark text")])) {
    const item = /** @type {any} */ (label).__data__;
    const box = itemBox(view, label);
    const anchor = item?.align === "center" ? "middle" : item?.align === "right" ? "end" : "start";
    // Where Vega drew the label: it writes an attribute only when its own value changes, so a label that stands where
    // this function put it was last drawn where it was then.
    if (label.getAttribute("transform") !== label.dataset.placed) label.dataset.base = label.getAttribute("transform") ?? "";
    const at = (label.dataset.base ?? "").match(/^translate\(([-\d.e]+),([-\d.e]+)\)$/);
    if (!box || !at) continue;
    const places = anchor === "start" ? LABEL_PLACES : [[0, 0, anchor]]; // only point labels move
    // A point's label that fits nowhere tries its name without the part in brackets ("TPU7x" for "TPU7x (Ironwood)"),
    // and then, rather than no label, a place that a line crosses.
    const full = String(item?.text ?? label.textContent ?? ""); // Vega's own text for it, whatever is shown now
    const short = anchor === "start" ? full.replace(/ \(.*\)$/, "") : full;
    const names = short === full ? [full] : [full, short];
    const attempts = [...names.map((name) => [name, true]), ...(anchor === "start" ? names.map((name) => [name, false]) : [])];
    /** @type {[number, string]} */
    let found = [-1, full];
    for (const [text, clearOfLines] of /** @type {[string, boolean][]} */ (attempts)) {
      // The short name's width, measured, in the units of Vega's box for the full name (a share of the full width by
      // letters undercounts: "B300" is wider than 4/22 of "B300 (Blackwell Ultra)"); the full width if none measures.
      const [fullWidth, textPixels] = [textWidth(vega.font(item), full), textWidth(vega.font(item), text)];
      const width = text === full || !fullWidth ? box.x2 - box.x1 : ((box.x2 - box.x1) * textPixels) / fullWidth;
      const chosen = places.findIndex(([dx, dy, side]) => {
        const shift = Number(dx) - (side === "end" && anchor === "start" ? width : 0);
        const moved = { x1: box.x1 + shift, x2: box.x1 + shift + width, y1: box.y1 + Number(dy), y2: box.y2 + Number(dy) };
        if (!inside(moved) || taken.some((other) => overlaps(moved, other))) return false;
        if (clearOfLines && anchor === "start" && segments.some((segment) => crosses(segment, moved))) return false;
        taken.push(moved);
        return true;
      });
      if (chosen >= 0) {
        found = [chosen, text];
        break;
      }
    }
    const [chosen, text] = found;
    if (label.textContent !== text) label.textContent = text;
    const [dx, dy, side] = places[Math.max(chosen, 0)];
    const transform = `translate(${Number(at[1]) + Number(dx)},${Number(at[2]) + Number(dy)})`;
    if (label.getAttribute("transform") !== transform) label.setAttribute("transform", transform);
    if (label.getAttribute("text-anchor") !== side) label.setAttribute("text-anchor", String(side));
    visible(label, chosen >= 0);
    label.dataset.placed = transform;
  }
}
