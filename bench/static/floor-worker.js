// @ts-check
/**
 * make bench, T2's floor: download what the calculators' cold boot downloads, side by side, decompress the snapshot
 * as it arrives and compile the wasm as it streams, and nothing else (no Python). No boot can be faster than this.
 * Receives the files' paths; replies {ends: {file: ms since this worker started}} or {error}.
 */
onmessage = async ({ data: files }) => {
  const ends = /** @type {Record<string, number>} */ ({});
  const done = (/** @type {string} */ name) => (ends[name] = performance.now());
  try {
    await Promise.all(
      /** @type {string[]} */ (files).map(async (file) => {
        const name = file.split("/").pop() ?? file;
        if (name.endsWith(".wasm")) {
          await WebAssembly.compileStreaming(fetch(file));
          return done(`${name} compiled`);
        }
        const response = await fetch(file);
        if (!response.ok || !response.body) throw new Error(`${file}: HTTP ${response.status}`);
        const snapshot = name.startsWith("snapshot-");
        await new Response(snapshot ? response.body.pipeThrough(new DecompressionStream("gzip")) : response.body)
          .arrayBuffer();
        done(name);
      }),
    );
    postMessage({ ends });
  } catch (error) {
    postMessage({ error: String(/** @type {any} */ (error)?.message ?? error) });
  }
};
