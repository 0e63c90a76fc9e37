import { describe, expect, it } from "vitest";

import { BILLING_STAGES } from "@/lib/db/schema";

import { billingContinues, canCancelPlan } from "./billing-stage";

describe("billing stage", () => {
  it("billing goes on in every stage but deleted", () => {
    expect(BILLING_STAGES.filter((stage) => !billingContinues(stage))).toEqual(["deleted"]);
  });

  it("only an active workspace's running plan can be cancelled", () => {
    const running = { plan: "starter", cancelAtPeriodEnd: false, stage: "active" as const };
    expect(canCancelPlan(running)).toBe(true);
    expect(canCancelPlan({ ...running, cancelAtPeriodEnd: true })).toBe(false);
    expect(canCancelPlan({ ...running, plan: null })).toBe(false);
    expect(BILLING_STAGES.filter((stage) => canCancelPlan({ ...running, stage }))).toEqual(["active"]);
  });
});
