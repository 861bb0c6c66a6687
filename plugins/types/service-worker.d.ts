// The first line of sw.js, which runtime/service_worker.py writes above service_worker.js: this build's manifest.
declare const MANIFEST: import("./contracts.js").Manifest;
