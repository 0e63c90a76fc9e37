/**
 * Files at least this large leave enough garbage to be worth a full collection when their upload or
 * dry run ends. A million-row file (52 MiB) left 60–110 MiB; a full collection of the app's heap
 * pauses it for tens of milliseconds, which a small file's dry run is not worth.
 */
const LARGE_FILE_BYTES = 16 * 1024 * 1024;

/**
 * Asks V8 for a full collection after the upload or dry run of a large file, where the process allows
 * one (`--expose-gc`: `npm start` and the admin CLI pass it); elsewhere does nothing.
 *
 * Such a job leaves its buffers (COPY data, 256 KiB at a time, kept while COPY's back-pressure held
 * them) and its decoded text in V8's old generation, dead. V8 collects that generation when it grows,
 * and what usually runs next (an apply, whose rows never pass through Node, or a quiet server) hardly
 * allocates: measured with `npm run bench:import`, a million-row apply started at 285–308 MiB of RSS
 * and peaked at 294–322 MiB, 9–17 MiB of its own, in four runs; with these collections it peaked at
 * 236, 245 and 239 MiB in three.
 */
export function collectGarbageAfter(fileBytes: number): void {
  if (fileBytes < LARGE_FILE_BYTES) return;
  (globalThis as { gc?: () => void }).gc?.();
}
