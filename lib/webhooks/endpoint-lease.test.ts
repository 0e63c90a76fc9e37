import { describe, expect, it } from "vitest";

import { systemActor } from "@/lib/actor";
import { seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import { LEASE_MS, takeEndpointLease, type EndpointLease, type LeaseOutcome } from "./endpoint-lease";
import { createEndpoint } from "./endpoints";

const { ctx, clock } = testCtx();

async function endpoint(): Promise<string> {
  const { workspaceId } = await seedWorkspace(ctx);
  return (
    await createEndpoint(ctx, systemActor("test", workspaceId), { url: "https://93.184.215.14/hook", eventTypes: [] })
  ).endpointId;
}

function leaseOf(outcome: LeaseOutcome): EndpointLease {
  if (!("lease" in outcome)) throw new Error(`expected the lease, got ${JSON.stringify(outcome)}`);
  return outcome.lease;
}

describe("an endpoint's delivery lease: one holder at a time", () => {
  it("while one run holds it, another cannot take it and learns when it would lapse", async () => {
    const endpointId = await endpoint();
    const first = leaseOf(await takeEndpointLease(ctx, endpointId));
    expect(await takeEndpointLease(ctx, endpointId)).toEqual({ heldUntil: new Date(clock.now().getTime() + LEASE_MS) });
    expect(first.held()).toBe(true);
    await first.release();
  });

  it("once lapsed it is taken over, and the stalled holder can neither renew it nor post on", async () => {
    const endpointId = await endpoint();
    const stalled = leaseOf(await takeEndpointLease(ctx, endpointId));
    clock.advance(LEASE_MS + 1);
    const next = leaseOf(await takeEndpointLease(ctx, endpointId));
    expect(await stalled.renew()).toBeNull();
    expect(stalled.held()).toBe(false);
    // Not even once the new holder has given it back: a late renewal must not revive a lease nobody holds.
    await next.release();
    expect(await stalled.renew()).toBeNull();
    const third = leaseOf(await takeEndpointLease(ctx, endpointId));
    expect(third.held()).toBe(true);
    await Promise.all([stalled.release(), third.release()]);
  });

  it("a released lease is free at once, not after it would have lapsed", async () => {
    const endpointId = await endpoint();
    const first = leaseOf(await takeEndpointLease(ctx, endpointId));
    await first.release();
    expect(first.held()).toBe(false);
    const second = leaseOf(await takeEndpointLease(ctx, endpointId));
    expect(second.endpoint.id).toBe(endpointId);
    await second.release();
  });

  it("a deleted endpoint has no lease to take", async () => {
    expect(await takeEndpointLease(ctx, "wh_missing00000000000000000000")).toEqual({ deleted: true });
  });
});
