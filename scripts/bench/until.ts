/**
 * Waits until `progress()` reaches `target`, asking every `everyMs`; fails if nothing moves for three
 * minutes: stuck, not slow, so a slower machine still finishes.
 */
export async function until(
  what: string,
  progress: () => Promise<number> | number,
  target: number,
  everyMs = 20,
): Promise<void> {
  let last = -1;
  let lastMoved = performance.now();
  for (;;) {
    const now = await progress();
    if (now >= target) return;
    if (now !== last) [last, lastMoved] = [now, performance.now()];
    if (performance.now() - lastMoved > 180_000) throw new Error(`${what}: stuck at ${now} of ${target}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
