import { InngestTestEngine } from "@inngest/test";
import { describe, expect, it } from "vitest";
import { confirmation } from "./confirmation";
import { welcome } from "./welcome";

// The functions' step logic with the steps mocked; the embedded executor tests run them for real.
describe("workflow step logic", () => {
  const requested: [{ name: string; data: { requestId: string } }] = [{ name: "consent/confirmation.requested", data: { requestId: "cfr_1" } }];

  it("confirmation: a request the windows turn down is not mailed", async () => {
    const t = new InngestTestEngine({ function: confirmation });
    const { result, ctx } = await t.execute({
      events: requested,
      steps: [
        { id: "decide", handler: () => ({ send: false, reason: "recently_sent" }) },
        {
          id: "send-confirmation",
          handler: () => {
            throw new Error("must not send");
          },
        },
      ],
    });
    expect(result).toEqual({ send: false, reason: "recently_sent" });
    expect(ctx.step.run).toHaveBeenCalledTimes(1);
  });

  it("confirmation: a request the windows let through is mailed once, after the decision", async () => {
    const t = new InngestTestEngine({ function: confirmation });
    const order: string[] = [];
    const { result } = await t.execute({
      events: requested,
      steps: [
        { id: "decide", handler: () => (order.push("decide"), { send: true }) },
        { id: "send-confirmation", handler: () => (order.push("send"), { providerMessageId: "msg_1" }) },
      ],
    });
    expect(result).toEqual({ send: true });
    expect(order).toEqual(["decide", "send"]);
  });

  it("welcome: one step sends the mail for the confirmed subscription", async () => {
    const t = new InngestTestEngine({ function: welcome });
    const { result } = await t.execute({
      events: [{ name: "consent/subscription.confirmed", data: { subscriptionId: "sub_1" } }],
      steps: [{ id: "send-welcome", handler: () => ({ sent: true }) }],
    });
    expect(result).toEqual({ sent: true });
  });
});
