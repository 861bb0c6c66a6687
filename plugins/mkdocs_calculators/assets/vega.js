// @ts-check
/**
 * Vega, loaded once per tab on the first chart (pages without charts never fetch it), and charts drawn in the
 * page's colours. The vendored bundles are UMD scripts that publish globals, so they go in as script tags.
 */

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

/** The theme's colours for axes and marks, read from Material's CSS variables (light or dark). */
function themeConfig() {
  const style = getComputedStyle(document.body);
  const color = (/** @type {string} */ name, /** @type {string} */ fallback) =>
    style.getPropertyValue(name).trim() || fallback;
  const text = color("--md-default-fg-color", "#333");
  const faint = color("--md-default-fg-color--lightest", "#ddd");
  const accent = color("--md-primary-fg-color", "#4051b5");
  const axis = { labelColor: text, titleColor: text, gridColor: faint, domainColor: text, tickColor: text };
  return {
    axis,
    line: { color: accent },
    rule: { color: text },
    view: { stroke: null },
    font: style.fontFamily,
  };
}

/** @type {Map<HTMLElement, {view?: any, drawing?: Promise<void>, next?: object, spec?: object}>} */
const charts = new Map();

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
 * @param {object} spec
 */
export function drawChartWhenVisible(container, spec) {
  const observer = new IntersectionObserver(
    (entries) => {
      if (!entries.some((entry) => entry.isIntersecting)) return;
      observer.disconnect();
      const idle = window.requestIdleCallback ?? ((/** @type {() => void} */ callback) => setTimeout(callback, 50));
      idle(() => {
        if (!charts.get(container)?.spec) drawChart(container, spec).catch(() => {});
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
 * @param {object} spec
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
      const latest = chart.next;
      chart.next = undefined;
      const result = await vegaEmbed(container, latest, { actions: false, renderer: "svg", config: themeConfig() });
      chart.view?.finalize();
      chart.view = result.view;
      for (const [other] of charts) if (!other.isConnected) charts.delete(other); // pages left behind
    }
  })().finally(() => {
    chart.drawing = undefined;
  });
  return chart.drawing;
}
