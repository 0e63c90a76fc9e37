/**
 * Which of an import's rows are applied. Row numbers are file lines, the header being line 1, so
 * the data rows are 2 … rowCount + 1. A chunk is the rows after `from` up to `to`. Chunks are
 * applied side by side and commit in whichever order they finish: `through` is the last row of the
 * unbroken run applied from the start, `ahead` the chunks applied past it, in order.
 */
export interface AppliedRows {
  through: number;
  ahead: [from: number, to: number][];
}

/** As stored: chunks ahead that the unbroken run has reached (left by a writer that did not know of them) no longer count. */
export function appliedRowsOf(through: number, ahead: [from: number, to: number][]): AppliedRows {
  return { through, ahead: ahead.filter(([, to]) => to > through) };
}

export interface RowChunk {
  from: number;
  to: number;
}

/** The chunks still to apply, in file order, none longer than `size` rows. */
export function pendingChunks(applied: AppliedRows, lastRow: number, size: number): RowChunk[] {
  const chunks: RowChunk[] = [];
  const gap = (from: number, to: number) => {
    for (let at = from; at < to; at += size) chunks.push({ from: at, to: Math.min(to, at + size) });
  };
  let at = applied.through;
  for (const [from, to] of applied.ahead) {
    gap(at, from);
    at = to;
  }
  gap(at, lastRow);
  return chunks;
}

/** Whether any row of the chunk is applied already. */
export function isApplied(applied: AppliedRows, chunk: RowChunk): boolean {
  return chunk.from < applied.through || applied.ahead.some(([from, to]) => chunk.from < to && from < chunk.to);
}

/** The applied rows with one more chunk, the unbroken run extended over every chunk it now reaches. */
export function withChunk(applied: AppliedRows, chunk: RowChunk): AppliedRows {
  const ahead = [...applied.ahead, [chunk.from, chunk.to] as [number, number]].sort((a, b) => a[0] - b[0]);
  let through = applied.through;
  while (ahead.length > 0 && ahead[0]![0] === through) through = ahead.shift()![1];
  return { through, ahead };
}

/** How many data rows are applied. */
export function appliedCount(applied: AppliedRows): number {
  return Math.max(0, applied.through - 1) + applied.ahead.reduce((sum, [from, to]) => sum + (to - from), 0);
}
