"""`make bench`: the figures of the design brief, measured in one run on this machine (`make bench ONLY=t2,t3`, or
`python -m bench --only t2,t3`: those figures alone).

These are figures, not tests. Each is printed with its target, the measured value and measured / target; a missed
target is reported, never failed. A measurement that breaks (a build fails, a page never shows a result) becomes a
BROKEN row saying why, the other figures are still measured, and the run exits with status 1. The raw samples are
printed as they come, and everything is written to `.bench/results.json`, with the machine's load average: other
work on a 2-core machine makes every timing noisier.

T6  Build time. `mkdocs build --strict` with the calculators plugin against the same site with the plugin disabled
    (CALCULATORS_ENABLED=false), each into an empty temporary folder and in a fresh process, so the time includes
    starting Python and importing MkDocs, as a contributor sees it. One untimed build of each, then five of each,
    interleaved ABBA; the figure is median(plugin) / median(plain). The untimed build leaves the plugin's cache of
    rendered pages (extras/build_cache.py) and the bytecode of the plugin and the book (kept even where
    PYTHONDONTWRITEBYTECODE is set), which the timed builds reuse, as a contributor's next build does; three builds
    without it (each after removing `.cache/mkdocs-calculators/`), a first build's time, are reported beside the
    figure. For the book, and for a generated site of 200 pages with a roofline calculator on every fourth.
    Targets: 1.3x and 2x.
T2  Cold first interaction. In a fresh browser context (empty HTTP cache, no service worker), the roofline page is
    opened and, as soon as its first calculator is mounted, its intensity field gets a new value and an input event;
    the time runs, on the page's clock, from that dispatch until a MutationObserver sees every output and the
    summary equal to what CPython's `calckit.api.run` gives. Against it: a bare Pyodide boot, a module worker served
    beside the site that does nothing but `await loadPyodide()`, timed on the page from `new Worker` to its reply
    (also in a fresh context). After one untimed bare boot (the browser's first), three of each, alternating; the
    figure is median(calculator) / median(bare). Target: 0.25, which needs Pyodide's memory snapshot. When the
    calculators' worker was created and when each of its messages arrived are printed, to show where the time goes,
    and the worker's own stages (each download's first and last byte, the snapshot decompressed, the wasm compiled,
    the memory restored, the package imported) as medians.
    Floor: a worker on the bare-boot page that downloads the very files the cold boot downloads, side by side,
    decompresses the snapshot as it arrives and compiles the wasm as it streams, and runs no Python; timed as the
    bare boot is, in a fresh context, once per round. No boot of the calculators can be faster, on this machine: the
    cold first interaction against it has a target of 1.03x.
    Repeat visit, reported: in a context that is not routed (so Chromium's HTTP cache works), the bare boot page
    booted, reloaded and booted again, against the roofline page's first interaction, then the page opened again
    once the service worker has cached the runtime and its first interaction timed; medians of three each.
T3  Warm recompute. In the last of those tabs, once booted and once its service worker has cached the runtime (the
    download in the background that follows a first visit), four calculators with charts, each on its page (the
    roofline, then latency-throughput, kv-cache and collective; another page is opened in the same tab and one
    untimed input boots its worker): different values put in one field, one after the other (60 intensities from 1
    to 2000 for the roofline, 30 values for the others), each timed from the input event to outputs and summary
    equal to CPython's and the chart drawn again (vega.js counts finished draws in the chart's data-drawn). Targets,
    for each: median 8 ms, p95 16.7 ms (a frame at 60 Hz). By stage (median and p95): the input event to the call
    leaving the page, the worker's round trip and Python's share of it (the worker times its call), the result
    received to the outputs written, the outputs to the chart drawn. Reported beside it: the input event to the
    frame that shows the result painted (a task queued from the next animation frame), which includes the wait for
    that frame and the layout and paint that the DOM's changes cost.
T4  Instant navigation roofline -> home -> roofline (clicking the header logo, then the lesson's link), with a
    recompute before and after: calculator workers the tab created, and requests for pyodide.asm.wasm that reached
    the server (routing turns Chromium's HTTP cache off, so every fetch counts). Target: one of each. The number of
    documents the tab loaded is shown too: more than one means the navigation was not instant.
T5  A page without calculators (home): the plugin's own files that the page itself requests (scripts and CSS under
    assets/calculators/) and its service worker script if it registers one, gzip-compressed at level 9 by Python
    (target <= 20 kB, 1 kB = 1000 bytes); and the bytes of the runtime (Pyodide and its snapshot, the Vega bundles,
    the wheel) requested by the page or its service worker (target: none). Also printed: the body bytes the server
    sent, by kind, for the page's own requests and for its service worker's, for home and for the roofline page
    after a recompute. Routing turns Chromium's HTTP cache off, so a service worker's precache downloads again what
    the page already has, where a normal browser would revalidate it.
    The exercises' editor (CodeMirror, editor/ and editor.js): no byte of it on the home page, its service worker
    included (target: none), and its size on the exercises page, gzip -9 (reported).
T7  Lighthouse 12 on every page of the book, desktop (targets: performance >= 95, accessibility 100, best
    practices >= 95) and mobile beside the same page of the book built without the plugin (target: within 1 point;
    each mobile score the best of five runs, taken in turns with the twin's). See bench/lighthouse.py.

Every site is served as GitHub Pages serves it (tests/support.py): gzip-compressed (each file compressed once and
kept, as a CDN's edge keeps it), with the types a static host gives .mjs and .wasm, and `Cache-Control: max-age=600`;
an uncompressed server, or one that compresses 10 MB on every request, measures the server rather than the book.
R3  Requests to any host other than 127.0.0.1, over every page of the run, service workers included: failed and
    counted. Target: none.
"""
