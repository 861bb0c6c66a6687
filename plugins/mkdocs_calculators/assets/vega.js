// @ts-check
/**
 * Vega, loaded once per tab on the first chart (pages without charts never fetch it), and charts drawn in the
 * page's colours. The vendored bundles are UMD scripts that publish globals, so they go in as script tags. Points'
 * labels are placed by vega_labels.js.
 */
import { language, number, t } from "./i18n.js";
import { symbols } from "./numbers.js";
import { declutter } from "./vega_labels.js";

/**
 * The axes' and labels' numbers as the book's language writes them (Vega's d3-format locale, from the same CLDR
 * symbols as the results': numbers.js); nothing for English, Vega's own.
 */
const NUMBERS = (() => {
  const [decimal, thousands] = symbols(language);
  if (decimal === "." && thousands === ",") return {};
  return { formatLocale: { decimal, thousands, grouping: [3], currency: ["", ""] } };
})();

/** @typedef {import("./contracts.js").Chart} Chart */

/** @type {Promise<any> | null} */
let embed = null;

/** @param {string} file */
function script(file) {
  return new Promise((resolve, reject) => {
    const tag = document.createElement("script");
    tag.src = new URL(`./vega/${file}`, import.meta.url).href;
    tag.onload = resolve;
    tag.onerror = () => reject(new Error(`could not load ${file}`));
    document.head.append(tag);
  });
}

function loadVega() {
  embed ??= script("vega.min.js")
    .then(() => script("vega-lite.min.js"))
    .then(() => script("vega-embed.min.js"))
    .then(() => /** @type {any} */ (window).vegaEmbed);
  return embed;
}

/** A CSS colour as [r, g, b, alpha] (0-255, alpha 0-1), through the browser's own parser. @param {string} css */
function rgba(css) {
  const probe = document.createElement("canvas").getContext("2d");
  if (!probe) return [0, 0, 0, 1];
  probe.fillStyle = "#000";
  probe.fillStyle = css;
  probe.clearRect(0, 0, 1, 1);
  probe.fillRect(0, 0, 1, 1);
  const [r, g, b, a] = probe.getImageData(0, 0, 1, 1).data;
  return [r, g, b, a / 255];
}

/** WCAG relative luminance of an opaque colour. @param {number[]} color */
function luminance([r, g, b]) {
  const linear = (/** @type {number} */ v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/** WCAG contrast of a colour (blended over the background) against that background. @param {string} color @param {string} background */
export function contrast(color, background) {
  const [r, g, b, a] = rgba(color);
  const under = rgba(background);
  const blended = [r, g, b].map((value, i) => value * a + under[i] * (1 - a));
  const [x, y] = [luminance(blended), luminance(under)];
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
}

/**
 * The theme's colours for axes and marks, read from Material's CSS variables (light or dark). The line that carries
 * the chart's meaning (the roof) takes the theme's primary colour only where it stands out from the background by
 * 3:1 (WCAG 1.4.11): Material's indigo on the dark scheme does not, so its lighter shade, or the text colour, is used.
 * @param {HTMLElement} container
 */
function themeConfig(container) {
  const style = getComputedStyle(document.body);
  const color = (/** @type {string} */ name, /** @type {string} */ fallback) =>
    style.getPropertyValue(name).trim() || fallback;
  const text = color("--md-default-fg-color", "#333");
  const faint = color("--md-default-fg-color--lightest", "#ddd");
  const background = chartBackground(container);
  const accent =
    [color("--md-primary-fg-color", "#4051b5"), color("--md-primary-fg-color--light", "")]
      .filter(Boolean)
      .find((candidate) => contrast(candidate, background) >= 3) ?? text;
  const axis = { labelColor: text, titleColor: text, gridColor: faint, domainColor: text, tickColor: text };
  return {
    axis,
    legend: { labelColor: text, titleColor: text }, // Vega's default black legend is unreadable on the dark scheme
    line: { color: accent },
    text: { color: text }, // labels of points and lines: Vega's default black is unreadable on the dark scheme
    rule: { color: text },
    view: { stroke: null },
    font: style.fontFamily,
  };
}

/**
 * @typedef {{view?: any, shape?: string, palette?: string, config?: object, drawing?: Promise<void>, next?: Chart,
 *   spec?: Chart, values?: Record<string, string>}} Drawn
 * A chart on the page: its Vega view, what it looks like apart from its numbers (`shape`), the theme it was drawn in,
 * the draw under way and the spec that waits for it, and the numbers on show (each dataset's and domain's, as JSON).
 */
/** @type {Map<HTMLElement, Drawn>} */
const charts = new Map();

/**
 * The spec with its numbers taken out, so that a chart whose numbers change is changed in place rather than compiled
 * and drawn again: each inline dataset (`data: {values}`) becomes a named one, and each scale's domain of numbers
 * (`scale: {domain: [low, high]}`, which calckit's charts fix so that the picture does not jump) and each constant
 * position (`datum: 1000`) reads parameters. The datasets and the parameters' values are gathered apart.
 * @param {Chart} spec
 * @returns {{named: Record<string, unknown>, datasets: Record<string, unknown[]>, signals: Record<string, number>}}
 */
function separateData(spec) {
  /** @type {Record<string, unknown[]>} */
  const datasets = {};
  /** @type {Record<string, number>} */
  const signals = {};
  /** A number of the spec read from a parameter. @param {number} value */
  const parameter = (value) => {
    const name = `calculator_number_${Object.keys(signals).length}`;
    signals[name] = value;
    return { expr: name };
  };
  /** @type {(node: any, key: string) => unknown} */
  const walk = (node, key) => {
    if (key === "datum" && Number.isFinite(node)) return parameter(node); // a rule or a bar's end at a fixed value
    if (Array.isArray(node)) return node.map((item) => walk(item, ""));
    if (!node || typeof node !== "object") return node;
    if (key === "data" && Array.isArray(node.values) && Object.keys(node).length === 1) {
      const name = `calculator_data_${Object.keys(datasets).length}`;
      datasets[name] = node.values;
      return { name };
    }
    const copy = Object.fromEntries(Object.entries(node).map(([name, value]) => [name, walk(value, name)]));
    if (key === "scale" && Array.isArray(node.domain) && node.domain.every(Number.isFinite)) {
      copy.domain = node.domain.map(parameter);
    }
    return copy;
  };
  return { named: /** @type {Record<string, unknown>} */ (walk(spec, "")), datasets, signals };
}

/** The spec apart from its numbers, given them back: its datasets, and its domains' parameters with their values.
 * @param {Record<string, unknown>} named @param {Record<string, unknown[]>} datasets @param {Record<string, number>} signals */
function withNumbers(named, datasets, signals) {
  const params = Object.entries(signals).map(([name, value]) => ({ name, value }));
  return { ...named, datasets, params: [...(/** @type {unknown[]} */ (named.params) ?? []), ...params] };
}

/**
 * Give a drawn chart its new numbers: the datasets and domains that changed (Vega then redoes only what depends on
 * them), and its description. The layout is fitted again (view.resize): a new domain brings tick labels of another
 * width, and Vega, changed in place, would otherwise keep the plot's width fitted to the old ones (2 px off). False
 * when the view cannot take them (the chart is then drawn anew).
 * @param {Drawn} chart @param {Record<string, unknown[]>} datasets @param {Record<string, number>} signals
 * @param {string | undefined} description
 */
async function updateInPlace(chart, datasets, signals, description) {
  const vega = /** @type {any} */ (window).vega;
  const view = chart.view;
  const values = chart.values ?? {};
  try {
    for (const [name, rows] of Object.entries(datasets)) {
      const json = JSON.stringify(rows);
      if (values[name] === json) continue;
      view.change(name, vega.changeset().remove(vega.truthy).insert(rows));
      values[name] = json;
    }
    let moved = false; // a domain or a constant position changed: the axes are new
    for (const [name, value] of Object.entries(signals)) {
      if (view.signal(name) === value) continue;
      view.signal(name, value);
      moved = true;
    }
    if (view.description() !== description) view.description(description);
    // New axes: the plot is fitted to the container again from the container's width, as a first draw fits it. Vega
    // fits it in one pass, to the axes and labels as they stood before that pass, so starting from the width fitted
    // to the old axes would end a few px off (and a label's place with it). `_width` is the width Vega was given, the
    // container's (vega-view keeps it apart from the fitted width signal). The same axes keep their fit, which a
    // resize only checks: no second pass.
    if (moved && Number.isFinite(view._width) && view.width() !== view._width) view.width(view._width);
    await view.resize().runAsync();
    return true;
  } catch {
    return false;
  }
}

/** Each dataset's values as JSON: what a chart drawn from `datasets` shows. @param {Record<string, unknown[]>} datasets */
function valuesOf(datasets) {
  return Object.fromEntries(Object.entries(datasets).map(([name, rows]) => [name, JSON.stringify(rows)]));
}

/** The colour the chart is drawn on: the first ancestor with a background of its own. @param {HTMLElement} container */
function chartBackground(container) {
  for (let node = /** @type {HTMLElement | null} */ (container); node; node = node.parentElement) {
    const background = getComputedStyle(node).backgroundColor;
    if (rgba(background)[3] > 0) return background;
  }
  return "#fff";
}


// Material switches light and dark by an attribute on <body>: redraw every chart on the page in the new colours.
new MutationObserver(() => {
  for (const [container, chart] of charts) {
    if (!container.isConnected) charts.delete(container);
    else if (chart.spec) drawChart(container, chart.spec);
  }
}).observe(document.body, { attributes: true, attributeFilter: ["data-md-color-scheme"] });

/**
 * Draw the build's chart once it comes near the screen, in idle time: Vega is 800 kB of script to parse, which a
 * phone should not pay for during page load, nor at all for a chart it never scrolls to.
 * @param {HTMLElement} container
 * @param {Chart} spec
 */
export function drawChartWhenVisible(container, spec) {
  const observer = new IntersectionObserver(
    (entries) => {
      if (!entries.some((entry) => entry.isIntersecting)) return;
      observer.disconnect();
      const idle = window.requestIdleCallback ?? ((/** @type {() => void} */ callback) => setTimeout(callback, 50));
      idle(() => {
        if (!charts.get(container)?.spec) drawChart(container, spec);
      }, { timeout: 1000 });
    },
    { rootMargin: "200px" },
  );
  observer.observe(container);
}

/**
 * Draw `spec` into `container`, replacing what was there. Calls made while a chart is being drawn collapse into one
 * draw of the latest spec, so a dragged slider never queues up stale pictures.
 * @param {HTMLElement} container
 * @param {Chart} spec
 */
export function drawChart(container, spec) {
  const chart = charts.get(container) ?? {};
  charts.set(container, chart);
  chart.next = spec;
  chart.spec = spec;
  if (chart.drawing) return chart.drawing;
  chart.drawing = (async () => {
    const vegaEmbed = await loadVega();
    while (chart.next) {
      // Its description with its figures as the book's language writes them, as the summary beside it has them.
      const latest = { ...chart.next, description: number(chart.next.description ?? "") };
      chart.next = undefined;
      // The theme's colours are read again only when Material's palette changed (reading them costs a few ms).
      const { mdColorScheme, mdColorPrimary, mdColorAccent } = document.body.dataset;
      const palette = `${mdColorScheme} ${mdColorPrimary} ${mdColorAccent}`;
      if (chart.palette !== palette || !chart.config) [chart.palette, chart.config] = [palette, themeConfig(container)];
      const config = chart.config;
      const { named, datasets, signals } = separateData(latest);
      // What the chart looks like apart from its numbers and its description: the same, and only the numbers change.
      const shape = JSON.stringify([config, { ...named, description: undefined }]);
      if (chart.view && chart.shape === shape && (await updateInPlace(chart, datasets, signals, latest.description))) {
        declutter(container, chart.view);
      } else {
        const spec = withNumbers(named, datasets, signals);
        const result = await vegaEmbed(container, spec, { actions: false, renderer: "svg", config, ...NUMBERS });
        chart.view?.finalize();
        chart.view = result.view;
        chart.shape = shape;
        chart.values = valuesOf(datasets);
        declutter(container, result.view);
        // The chart follows its container's width: after Vega redraws it at a new size, place the labels again.
        result.view.addResizeListener(() => requestAnimationFrame(() => declutter(container, result.view)));
      }
      container.dataset.drawn = String(Number(container.dataset.drawn ?? 0) + 1); // draws finished (make bench, T3)
      for (const [other] of charts) if (!other.isConnected) charts.delete(other); // pages left behind
    }
  })()
    .then(() => chartMessage(container, ""))
    .catch((error) => {
      // A spec Vega refuses (a mark type it does not know, say), or Vega that did not load: said beside the chart,
      // and logged for the author, rather than leaving only the chart's description.
      console.error(`calculators: the chart could not be drawn: ${error?.message ?? error}`);
      chartMessage(container, t("chart.failed", { error: error?.message ?? error }));
    })
    .finally(() => {
      chart.drawing = undefined;
    });
  return chart.drawing;
}

/** Show `text` under a chart (or remove the message, for ""). @param {HTMLElement} container @param {string} text */
function chartMessage(container, text) {
  let message = /** @type {HTMLElement | null} */ (container.parentElement?.querySelector(".calc-chart-error") ?? null);
  if (!text) return message?.remove();
  if (!message) {
    message = document.createElement("p");
    message.className = "calc-chart-error";
    message.setAttribute("role", "status");
    container.after(message);
  }
  message.textContent = text;
}
