import "server-only";

import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { open, unlink, type FileHandle } from "node:fs/promises";
import path from "node:path";

import { resolveDataDir } from "./data-dir";

/** The most a read hands out at once. */
const READ_BYTES = 1024 * 1024;

/**
 * A temporary file under DATA_DIR/spool that one side writes at its pace and
 * the other reads at its own, for transfers that must not tie a database
 * connection to a client: an upload is spooled before it goes into the
 * database in one short transaction, an export's COPY is spooled at the
 * database's speed while the client downloads it. The file is unlinked as
 * soon as it is open, so its bytes go when it is closed, a crash included.
 */
export class Spool {
  private written = 0;
  private finished = false;
  private failure: unknown = null;
  private abandoned = false;
  private waiting: (() => void)[] = [];

  private constructor(private readonly file: FileHandle) {}

  static async open(): Promise<Spool> {
    const dir = path.join(resolveDataDir(), "spool");
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const name = path.join(dir, randomUUID());
    const file = await open(name, "wx+", 0o600);
    await unlink(name);
    return new Spool(file);
  }

  /** Bytes written so far. */
  get size(): number {
    return this.written;
  }

  /** Appends a chunk; dropped once the reader gave up. */
  async write(chunk: Uint8Array): Promise<void> {
    if (this.abandoned) return;
    let done = 0;
    while (done < chunk.byteLength)
      done += (await this.file.write(chunk, done, chunk.byteLength - done, this.written + done)).bytesWritten;
    this.written += chunk.byteLength;
    this.wake();
  }

  /** The writer is done: the reader reaches the end, or the error. */
  finish(error: unknown = null): void {
    this.finished = true;
    this.failure = error;
    this.wake();
    if (this.abandoned) void this.file.close().catch(() => {});
  }

  /** The bytes from the start, as they are written, in pieces of at most `pieceBytes`; ends when the writer finished. */
  async *read(pieceBytes = READ_BYTES): AsyncGenerator<Buffer> {
    let position = 0;
    for (;;) {
      if (position < this.written) {
        const piece = Buffer.allocUnsafe(Math.min(pieceBytes, this.written - position));
        const { bytesRead } = await this.file.read(piece, 0, piece.byteLength, position);
        position += bytesRead;
        yield piece.subarray(0, bytesRead);
      } else if (this.finished) {
        if (this.failure) throw this.failure;
        return;
      } else {
        await new Promise<void>((resolve) => this.waiting.push(resolve));
      }
    }
  }

  /** The reader is done: the file closes now, or when the writer finishes. */
  async close(): Promise<void> {
    if (this.abandoned) return;
    this.abandoned = true;
    if (this.finished) await this.file.close();
  }

  private wake() {
    const waiting = this.waiting;
    this.waiting = [];
    for (const resolve of waiting) resolve();
  }
}
