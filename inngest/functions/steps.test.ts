import { InngestTestEngine } from "@inngest/test";
import { describe, expect, it } from "vitest";

import { welcome } from "./welcome";

// The functions' step logic with the steps mocked; the embedded executor tests run them for real
// (confirmation, a single step, only there: confirmation.test.ts).
describe("workflow step logic", () => {
  it("welcome: one step sends the mail for the confirmed subscription", async () => {
    const t = new InngestTestEngine({ function: welcome });
    const { result } = await t.execute({
      events: [{ name: "consent/subscription.confirmed", data: { subscriptionId: "sub_1" } }],
      steps: [{ id: "send-welcome", handler: () => ({ sent: true }) }],
    });
    expect(result).toEqual({ sent: true });
  });
});
