import { describe, expect, it } from "vitest";

import { IMPORT_STATUSES } from "@/lib/db/schema";

import { canEdit, canStart, hasEnded, isApplying, isComplete } from "./import-status";

describe("import status", () => {
  it("an import's mapping can change while uploaded or checked, never once its apply has started", () => {
    expect(IMPORT_STATUSES.filter(canEdit)).toEqual(["uploaded", "checked"]);
  });

  it("an import is applied only after its dry run", () => {
    expect(IMPORT_STATUSES.filter(canStart)).toEqual(["checked"]);
  });

  it("every status is before the apply, during it, or after the import ended, and only one of them", () => {
    expect(IMPORT_STATUSES.filter(isApplying)).toEqual(["applying"]);
    expect(IMPORT_STATUSES.filter(hasEnded)).toEqual(["completed", "cancelled", "failed"]);
    for (const status of IMPORT_STATUSES)
      expect([canEdit(status), isApplying(status), hasEnded(status)].filter(Boolean)).toHaveLength(1);
  });

  it("only a completed import applied every row", () => {
    expect(IMPORT_STATUSES.filter(isComplete)).toEqual(["completed"]);
  });
});
