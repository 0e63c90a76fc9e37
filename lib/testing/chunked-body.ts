/**
 * A body sent chunked (no Content-Length) that would produce `totalBytes` of
 * `fill` in `chunkSize` pieces; `pulled()` says how many chunks the reader took,
 * so a test can show the reader stopped near its cap instead of draining it.
 */
export function chunkedBody(totalBytes: number, chunkSize = 64 * 1024, fill = "x") {
  let pulled = 0;
  const byte = fill.charCodeAt(0);
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const size = Math.min(chunkSize, totalBytes - pulled * chunkSize);
      if (size <= 0) return controller.close();
      pulled += 1;
      controller.enqueue(new Uint8Array(size).fill(byte));
    },
  });
  return { stream, pulled: () => pulled };
}

/** What it takes for `new Request` to accept a stream body. */
export const streamInit = (stream: ReadableStream<Uint8Array>) => ({ body: stream, duplex: "half" }) as RequestInit;
