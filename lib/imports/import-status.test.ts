import { describe, expect, it } from "vitest";

import { IMPORT_STATUSES } from "@/lib/db/schema";

import { canEdit } from "./import-status";

describe("import status", () => {
  it("an import's mapping can change while uploaded or checked, never once its apply has started", () => {
    expect(IMPORT_STATUSES.filter(canEdit)).toEqual(["uploaded", "checked"]);
  });
});
