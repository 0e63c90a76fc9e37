import "server-only";

import { ApiError } from "@/lib/errors";

/** Provider webhooks and RFC 8058 one-click posts are a few KiB; this leaves ample room. */
export const SMALL_BODY_MAX_BYTES = 256 * 1024;

const formatBytes = (bytes: number) =>
  bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${Math.floor(bytes / 1024)} KiB`;

export function payloadTooLarge(maxBytes: number): ApiError {
  return new ApiError({
    type: "invalid_request_error",
    code: "payload_too_large",
    status: 413,
    param: "body",
    message: `Request bodies are limited to ${formatBytes(maxBytes)}.`,
  });
}

/**
 * The whole body, or `payload_too_large` (413) once it passes `maxBytes`.
 * Counts bytes as they arrive rather than trusting Content-Length: a chunked
 * body has none and a client can lie, and `request.text()`/`arrayBuffer()`
 * would buffer everything first. Past the cap the stream is cancelled so the
 * rest is never pulled.
 */
export async function readBodyCapped(request: Request, maxBytes: number): Promise<Uint8Array<ArrayBuffer>> {
  if (Number(request.headers.get("content-length")) > maxBytes) throw payloadTooLarge(maxBytes);
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      // Not awaited: a source that never settles its cancel must not hold the answer.
      reader.cancel().catch(() => undefined);
      throw payloadTooLarge(maxBytes);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
