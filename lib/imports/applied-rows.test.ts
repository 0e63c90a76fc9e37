import { describe, expect, it } from "vitest";

import { appliedCount, appliedRowsOf, isApplied, pendingChunks, withChunk } from "./applied-rows";

describe("an import's applied rows", () => {
  it("leaves out the chunks applied ahead of the unbroken run, and splits what is left into chunks no longer than the size", () => {
    expect(pendingChunks({ through: 1, ahead: [] }, 8, 3)).toEqual([
      { from: 1, to: 4 },
      { from: 4, to: 7 },
      { from: 7, to: 8 },
    ]);
    expect(
      pendingChunks(
        {
          through: 3,
          ahead: [
            [5, 7],
            [9, 10],
          ],
        },
        12,
        3,
      ),
    ).toEqual([
      { from: 3, to: 5 },
      { from: 7, to: 9 },
      { from: 10, to: 12 },
    ]);
    expect(pendingChunks({ through: 12, ahead: [] }, 12, 3)).toEqual([]);
  });

  it("joins a chunk to the unbroken run with every chunk ahead it then reaches, and counts every applied row", () => {
    const ahead = withChunk(withChunk({ through: 1, ahead: [] }, { from: 5, to: 7 }), { from: 3, to: 5 });
    expect(ahead).toEqual({
      through: 1,
      ahead: [
        [3, 5],
        [5, 7],
      ],
    });
    expect(appliedCount(ahead)).toBe(4);
    const joined = withChunk(ahead, { from: 1, to: 3 });
    expect(joined).toEqual({ through: 7, ahead: [] });
    expect(appliedCount(joined)).toBe(6);
  });

  it("knows a chunk as applied when any of its rows is", () => {
    const applied = { through: 5, ahead: [[9, 12]] as [number, number][] };
    expect(isApplied(applied, { from: 3, to: 5 })).toBe(true);
    expect(isApplied(applied, { from: 5, to: 9 })).toBe(false);
    expect(isApplied(applied, { from: 7, to: 10 })).toBe(true);
    expect(isApplied(applied, { from: 12, to: 14 })).toBe(false);
  });

  it("no longer counts a chunk ahead that the unbroken run has reached", () => {
    const applied = appliedRowsOf(201, [
      [41, 81],
      [241, 281],
    ]);
    expect(applied).toEqual({ through: 201, ahead: [[241, 281]] });
    expect(pendingChunks(applied, 301, 40)).toEqual([
      { from: 201, to: 241 },
      { from: 281, to: 301 },
    ]);
    expect(appliedCount(applied)).toBe(240);
  });
});
