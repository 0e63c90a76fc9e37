import type { Readable } from "node:stream";
import { finished } from "node:stream/promises";
import type postgres from "postgres";

/**
 * Leaves a COPY TO STDOUT's connection ready for its next query, however far
 * the stream was read. The connection is only free once the COPY is read to
 * its end, so the rest is read and dropped. postgres-js pauses the socket
 * while the stream is full and resumes it only when the stream is read; when
 * the last rows fill it, the socket stays paused past the COPY and the
 * connection's next query never hears back (porsager/postgres#499, #1016).
 * Asking the finished stream for more resumes it. A destroyed stream takes no
 * more rows and pauses the socket at each: iterate it with
 * `stream.iterator({ destroyOnReturn: false })`, never a plain `for await`.
 */
export async function endCopyOut(stream: Readable): Promise<void> {
  if (!stream.readableEnded && !stream.destroyed) {
    stream.resume();
    await finished(stream).catch(() => {});
  }
  stream._read(0);
}

/**
 * The output of a COPY … TO STDOUT, read at the reader's pace on a
 * connection of its own, which it keeps until the reader stops. That pace is
 * the server's own work (a dry run's), never a client's: the COPY lifts the
 * pool's statement timeout for itself. A reader that stops early leaves the
 * rest to be read and dropped before the connection goes back.
 */
export async function* copyOut(client: postgres.Sql, copy: string): AsyncGenerator<Buffer> {
  const connection = await client.reserve();
  try {
    await connection`set statement_timeout = 0`;
    const stream = await connection.unsafe(copy).readable();
    try {
      // Not destroyed when the reader stops: endCopyOut reads it to its end, and the connection is free again.
      for await (const chunk of stream.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) yield chunk;
    } finally {
      await endCopyOut(stream);
    }
  } finally {
    // A connection that cannot take this any more is closed, and a new one starts with the pool's settings.
    await connection`reset statement_timeout`.catch(() => {});
    connection.release();
  }
}
