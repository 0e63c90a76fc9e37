import { describe, expect, it } from "vitest";

import type { ImportCounts } from "@/lib/db/schema/imports";

import { outcomeDiffersFromDryRun, refusedTotal } from "./import-outcome";

const dryRun: ImportCounts = {
  rows: 6,
  created: 2,
  updated: 1,
  updatedFields: { first_name: 1 },
  unchanged: 0,
  refused: { invalid_email: 1, duplicate: 2 },
  subscribed: 3,
};

describe("an import's outcome beside its dry run", () => {
  it("refused rows are counted over every reason", () => {
    expect(refusedTotal(dryRun)).toBe(3);
    expect(refusedTotal({ refused: {} })).toBe(0);
  });

  it("an outcome differs from its dry run only when a figure the sender reads changed", () => {
    expect(outcomeDiffersFromDryRun(dryRun, { ...dryRun })).toBe(false);
    // A reason with no row, written or not, is the same figure.
    expect(outcomeDiffersFromDryRun(dryRun, { ...dryRun, refused: { ...dryRun.refused, suppressed: 0 } })).toBe(false);
    // The same total refused for another reason is another figure.
    expect(outcomeDiffersFromDryRun(dryRun, { ...dryRun, refused: { invalid_email: 1, unsubscribed: 2 } })).toBe(true);
    // Someone opted out in between: one row fewer updated, one more refused, one subscription fewer.
    expect(
      outcomeDiffersFromDryRun(dryRun, {
        ...dryRun,
        updated: 0,
        refused: { ...dryRun.refused, unsubscribed: 1 },
        subscribed: 2,
      }),
    ).toBe(true);
    expect(outcomeDiffersFromDryRun(dryRun, { ...dryRun, created: 1, unchanged: 1 })).toBe(true);
  });
});
