import { describe, expect, it } from "vitest";

import { canEdit } from "./campaign-status";

describe("campaign status", () => {
  it("a campaign is editable as a draft or while scheduled, never once sending has started", () => {
    expect((["draft", "scheduled", "sending", "paused", "sent", "cancelled"] as const).filter(canEdit)).toEqual([
      "draft",
      "scheduled",
    ]);
  });
});
