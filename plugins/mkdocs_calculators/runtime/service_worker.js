// @ts-check
/// <reference lib="webworker" />
/**
 * The book's service worker: runtime/service_worker.py writes it at build as sw.js at the site's root, under a line that
 * declares this build's manifest (MANIFEST, a Manifest; types/service-worker.d.ts declares it for the type check),
 * and entry.js registers it (not under `mkdocs serve`). Its scope is the whole site.
 *
 * - Pages and the theme's files are precached at install, in a cache named after this build's version (a hash of the
 *   manifest); activating a new build deletes the caches of the others. Pages are served network first, so that a
 *   reader online always gets the current text, and from the cache when the network fails or stalls for a few
 *   seconds; the theme's files, the search index and the sitemap that instant navigation reads are served from the
 *   cache.
 * - The runtime (Pyodide, the wheel, the memory snapshot, Vega: about 20 MB) is too big to download for a reader who
 *   never opens a calculator. It goes into a second cache, keyed by content (URL?v=hash), when it is first
 *   used, and all of it once a page with a calculator asks for it (offline.js). Activating a new build drops the
 *   entries it no longer lists, and keeps the unchanged ones, so a new build does not download Pyodide again.
 * - Downloads are shared: a file requested while it is being fetched is not fetched twice.
 */
const sw = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));

/** @typedef {import("../types/contracts.js").Manifest} Manifest */

const SCOPE = sw.registration.scope; // the site's root, ending with "/"
const SCOPE_PATH = new URL(SCOPE).pathname;
const PAGES_PREFIX = `${MANIFEST.pagesCache}${SCOPE}:`; // the caches' names (runtime/layout.py's)
const PAGES_CACHE = PAGES_PREFIX + MANIFEST.version;
const RUNTIME_CACHE = MANIFEST.runtimeCache + SCOPE; // worker.js writes here too, under the same keys

/** A manifest path (relative to the root, as on disk) as it appears in a request's URL, percent-encoded. @param {string} path */
const encoded = (path) => new URL(path, SCOPE).pathname.slice(SCOPE_PATH.length);
/** @type {Map<string, string>} */
const pages = new Map(MANIFEST.pages.map(([path, hash]) => [encoded(path), hash]));
/** @type {Map<string, string>} */
const files = new Map([...MANIFEST.runtime, ...MANIFEST.onUse].map(([path, hash]) => [encoded(path), hash]));

/** @param {string} path */
const absolute = (path) => new URL(path, SCOPE).href;
/** @param {string} path @param {string} hash */
const runtimeKey = (path, hash) => `${absolute(path)}?v=${hash}`;

sw.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(PAGES_CACHE);
      await cache.addAll([...pages.keys()].map((path) => new Request(absolute(path), { cache: "no-cache" })));
      await sw.skipWaiting();
    })(),
  );
});

sw.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(PAGES_PREFIX) && name !== PAGES_CACHE) await caches.delete(name);
      }
      const runtime = await caches.open(RUNTIME_CACHE);
      const listed = new Set([...files].map(([path, hash]) => runtimeKey(path, hash)));
      for (const request of await runtime.keys()) {
        if (!listed.has(request.url)) await runtime.delete(request);
      }
      await sw.clients.claim();
    })(),
  );
});

sw.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET" || request.headers.has("range") || !request.url.startsWith(SCOPE)) return;
  const url = new URL(request.url);
  let path = url.pathname.slice(SCOPE_PATH.length);
  const directory = path.replace(/(^|\/)index\.html$/, "$1"); // lessons/x/index.html is lessons/x/
  if (pages.has(directory)) path = directory;
  if (pages.has(path)) {
    const html = path === "" || path.endsWith("/") || path.endsWith(".html");
    event.respondWith(html ? networkFirst(request, path) : cacheFirst(request, path));
    return;
  }
  const hash = files.get(path);
  if (hash) {
    const served = fromRuntime(path, hash);
    event.respondWith(served.then(([response]) => response));
    event.waitUntil(served.then(([, stored]) => stored)); // alive until the download is in the cache
    return;
  }
  if (request.mode === "navigate") event.respondWith(fetch(request).catch(() => notFound()));
});

/**
 * A page from this build's cache. Read with `caches.match`, never `caches.open`, which would create the cache anew
 * after a newer service worker (or the one `mkdocs serve` writes) deleted it. @param {string} path
 */
async function fromPages(path) {
  return caches.match(absolute(path), { cacheName: PAGES_CACHE });
}

// How long a page waits for the network before the cached copy is shown instead: a stalled connection ("lie-fi")
// neither fails nor answers, and would otherwise leave the reader looking at a blank tab.
const NETWORK_WAIT_MS = 3000;

/** The network's copy of a page, or the cached one when the network fails or stalls. @param {Request} request @param {string} path */
async function networkFirst(request, path) {
  const network = fetch(request);
  network.catch(() => {}); // awaited below; a failure after the cached copy was served is nobody's concern
  /** @type {Promise<null>} */
  const stalled = new Promise((resolve) => setTimeout(resolve, NETWORK_WAIT_MS, null));
  try {
    const first = await Promise.race([network, stalled]);
    if (first) return first;
    return (await fromPages(path)) ?? (await network); // nothing cached: keep waiting for the network
  } catch {
    return (await fromPages(path)) ?? Response.error();
  }
}

/** @param {Request} request @param {string} path */
async function cacheFirst(request, path) {
  return (await fromPages(path)) ?? fetch(request);
}

/** Offline, a page that is not in the cache: the site's own 404 page. */
async function notFound() {
  const page = await fromPages("404.html");
  if (!page) return Response.error();
  return new Response(page.body, { status: 404, statusText: "Not Found", headers: page.headers });
}

/** @typedef {{response: Promise<Response>, stored: Promise<void>}} Download */
/** @type {Map<string, Download>} */
const downloads = new Map();

/** Fetch a runtime file once and keep it in the runtime cache; later requests meanwhile share the download. @param {string} path @param {string} hash */
function download(path, hash) {
  const key = runtimeKey(path, hash);
  let pending = downloads.get(key);
  if (!pending) {
    const response = fetch(absolute(path), { cache: "no-cache" });
    const stored = response
      .then(async (got) => {
        if (got.ok) await (await caches.open(RUNTIME_CACHE)).put(key, got.clone());
      })
      .catch(() => {})
      .finally(() => downloads.delete(key));
    pending = { response, stored };
    downloads.set(key, pending);
  }
  return pending;
}

/**
 * A runtime file from the cache, or downloaded (and cached), with the promise that the cache is written.
 * @param {string} path @param {string} hash @returns {Promise<[Response, Promise<void>]>}
 */
async function fromRuntime(path, hash) {
  const cached = await caches.match(runtimeKey(path, hash), { cacheName: RUNTIME_CACHE }); // as in fromPages
  if (cached) return [cached, Promise.resolve()];
  const { response, stored } = download(path, hash);
  return [(await response).clone(), stored];
}

/**
 * A runtime file as the browser's HTTP cache holds it, when that copy is this build's (its SHA-256 starts with
 * `hash`, as the manifest's digests do); else null. A runtime that booted before this worker controlled the page
 * fetched pyodide.asm.mjs (which Pyodide imports) and Vega (which the page loads) itself, past worker.js's cache:
 * taken from there, they are not downloaded a second time, nor even revalidated.
 * @param {string} path @param {string} hash @returns {Promise<Response | null>}
 */
async function fromHttpCache(path, hash) {
  try {
    const response = await fetch(absolute(path), { cache: "only-if-cached", mode: "same-origin" });
    if (!response.ok) return null;
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", await response.clone().arrayBuffer()));
    const hex = Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
    return hex.startsWith(hash) ? response : null;
  } catch {
    return null; // not in the HTTP cache
  }
}

/** @type {Promise<void> | null} */
let caching = null;

/** Put every runtime file that is not yet in the cache into it, one at a time. */
function cacheRuntime() {
  caching ??= (async () => {
    const runtime = await caches.open(RUNTIME_CACHE);
    for (const [path, hash] of MANIFEST.runtime) {
      const key = runtimeKey(encoded(path), hash);
      if (await runtime.match(key)) continue;
      const kept = await fromHttpCache(encoded(path), hash);
      if (kept) await runtime.put(key, kept);
      else await download(encoded(path), hash).stored; // a failure (offline) is tried again on the next request
    }
  })().finally(() => {
    caching = null;
  });
  return caching;
}

sw.addEventListener("message", (event) => {
  const message = /** @type {import("../types/contracts.js").ToServiceWorker | null} */ (event.data);
  if (message?.type === "cache-runtime") event.waitUntil(cacheRuntime());
});
