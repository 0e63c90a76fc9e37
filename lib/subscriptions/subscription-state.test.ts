import { describe, expect, it } from "vitest";

import { canOptOut } from "./subscription-state";

describe("what an opt-out can end", () => {
  it("a subscribed or a pending subscription can be ended for the person; an ended one cannot", () => {
    expect(canOptOut("subscribed")).toBe(true);
    expect(canOptOut("pending")).toBe(true);
    expect(canOptOut("unsubscribed")).toBe(false);
  });
});
