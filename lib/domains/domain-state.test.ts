import { describe, expect, it } from "vitest";

import { DOMAIN_STATES } from "@/lib/db/schema";

import { canResync, domainStanding, domainStateAfterCheck } from "./domain-state";

describe("domain state", () => {
  it("a check moves a domain by its published records first, then by the carrier's registration", () => {
    expect(domainStateAfterCheck({ published: false, everVerified: false, carrierStatus: "registered" })).toBe(
      "pending",
    );
    expect(domainStateAfterCheck({ published: false, everVerified: true, carrierStatus: "registered" })).toBe(
      "records_missing",
    );
    expect(domainStateAfterCheck({ published: true, everVerified: true, carrierStatus: "registered" })).toBe("ready");
    expect(domainStateAfterCheck({ published: true, everVerified: true, carrierStatus: "failed" })).toBe(
      "registration_failed",
    );
    expect(domainStateAfterCheck({ published: true, everVerified: false, carrierStatus: "pending" })).toBe("verified");
  });

  it("a domain can re-sync with the carrier only once its records are published", () => {
    expect(DOMAIN_STATES.filter(canResync)).toEqual(["verified", "ready", "registration_failed"]);
  });

  it("a domain that lost a record or was refused by the carrier needs a fix; pending and registering ones only wait", () => {
    expect(DOMAIN_STATES.map(domainStanding)).toEqual(["waiting", "waiting", "ready", "needs_fix", "needs_fix"]);
  });
});
