// @ts-check
/**
 * A memory snapshot as the build ships it (runtime/snapshot.py), read into the bytes that Pyodide's `_loadSnapshot` takes:
 * shared by the calculators' worker (worker.js) and the readers' exercise worker (exercise_worker.js), which each
 * restore their own snapshot and boot Python plainly when this fails.
 */

/** The first 32-bit word of a Pyodide memory snapshot (as in snapshot_check.mjs). */
const SNAPSHOT_MAGIC = 1886286592;

/**
 * The snapshot in `response`, gzip-compressed as the build writes it, decompressed as it downloads, and checked. A
 * server may also have decompressed it already (Content-Encoding), hence the look at its first bytes. Throws when the
 * response failed or its bytes are not a Pyodide memory snapshot.
 * @param {Response} response
 * @param {() => void} [downloaded] called once the last byte has arrived (worker.js times its boot by stage)
 * @returns {Promise<Uint8Array>}
 */
export async function snapshotBytes(response, downloaded = () => {}) {
  if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
  const reader = response.body.getReader();
  const first = (await reader.read()).value ?? new Uint8Array();
  /** @type {ReadableStream<Uint8Array<ArrayBuffer>>} */
  let body = new ReadableStream({
    start(controller) {
      if (first.length) controller.enqueue(first);
    },
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) {
        downloaded();
        controller.close();
      } else controller.enqueue(value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  if (first[0] === 0x1f && first[1] === 0x8b) body = body.pipeThrough(new DecompressionStream("gzip"));
  const bytes = new Uint8Array(await new Response(body).arrayBuffer());
  if (bytes.length < 64 || new DataView(bytes.buffer, bytes.byteOffset).getUint32(0, true) !== SNAPSHOT_MAGIC) {
    throw new Error("not a Pyodide memory snapshot");
  }
  return bytes;
}
