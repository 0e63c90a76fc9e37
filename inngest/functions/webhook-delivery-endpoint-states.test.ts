import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { systemActor } from "@/lib/actor";
import { webhookDeliveries, webhookEndpoints } from "@/lib/db/schema";
import { recordEvents } from "@/lib/events/record-event";
import { webhookDeliveryFixture } from "@/lib/testing/webhook-delivery-fixture";
import { deliverDue, DELIVERIES_PER_BATCH } from "@/lib/webhooks/deliver-due";
import { enableEndpoint } from "@/lib/webhooks/endpoints";
import { wakeOverdueEndpoints } from "@/lib/webhooks/request-delivery";
import { RETRY_DELAYS_MS } from "@/lib/webhooks/retry-schedule";

const { ctx, clock, executor, receiver, setup } = webhookDeliveryFixture();

describe("webhook delivery", () => {
  it("an endpoint whose every attempt has failed for 5 days is disabled and gets nothing more", async () => {
    receiver.respondWith((_, response) => response.writeHead(500).end());
    const { endpointId, subscribe } = await setup();
    let n = 0;
    // A new failing event every 23 hours: each retry series lasts about two days, so attempts keep failing.
    for (let step = 0; step < 5; step++) {
      await subscribe(`daily-${n++}@example.com`);
      await executor.runDue(ctx);
      clock.advance(23 * 3_600_000);
      await executor.runDue(ctx);
    }
    let [endpoint] = await ctx.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpointId));
    expect(endpoint!.enabled).toBe(true); // failing for 4 days 19 hours
    clock.advance(5 * 3_600_000);
    await subscribe(`daily-${n++}@example.com`);
    await executor.runDue(ctx);
    [endpoint] = await ctx.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpointId));
    expect(endpoint).toMatchObject({ enabled: false, disabledReason: "every attempt failed for 5 days" });
    const before = receiver.received.length;
    await subscribe("after-disable@example.com");
    clock.advance(24 * 3_600_000);
    await executor.runDue(ctx);
    expect(receiver.received).toHaveLength(before);
    const pending = await ctx.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId));
    expect(pending.every((delivery) => delivery.status !== "pending")).toBe(true);

    // Enabled again once the receiver is fixed: events from then on are delivered.
    receiver.respondWith((_, response) => response.writeHead(204).end());
    expect(await enableEndpoint(ctx, systemActor("test"), endpointId)).toMatchObject({
      enabled: true,
      disabledAt: null,
      failingSince: null,
    });
    await subscribe("after-enable@example.com");
    await executor.runDue(ctx);
    expect(receiver.received.at(-1)!.body.data).toMatchObject({ email: "after-enable@example.com" });
  });

  it("the batch whose failures disable an endpoint is the last it gets: deliveries due after it are given up, not posted", async () => {
    receiver.respondWith((_, response) => response.writeHead(500).end());
    const { workspaceId, endpointId } = await setup();
    // Failing for more than 5 days already: the next failed batch disables it.
    await ctx.db
      .update(webhookEndpoints)
      .set({ failingSince: new Date(clock.now().getTime() - 6 * 24 * 3_600_000) })
      .where(eq(webhookEndpoints.id, endpointId));
    const now = clock.now();
    const items = Array.from({ length: DELIVERIES_PER_BATCH + 50 }, (_, i) => ({
      data: { send_id: `snd_off${i}`, contact_id: `ct_off${i}`, email: `off${i}@example.com` },
      occurredAt: now,
    }));
    await recordEvents(ctx, systemActor("test", workspaceId), "email.opened", items);
    expect(await deliverDue(ctx, endpointId)).toMatchObject({
      failed: DELIVERIES_PER_BATCH,
      stopped: "endpoint_disabled",
    });
    expect(receiver.received).toHaveLength(DELIVERIES_PER_BATCH);
    const deliveries = await ctx.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, endpointId));
    expect(deliveries.filter((delivery) => delivery.status === "failed")).toHaveLength(items.length);
  });

  it("a success ends an endpoint's failing streak", async () => {
    let failing = true;
    receiver.respondWith((_, response) => response.writeHead(failing ? 500 : 204).end());
    const { endpointId, subscribe } = await setup();
    await subscribe("streak-1@example.com");
    await executor.runDue(ctx);
    let [endpoint] = await ctx.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpointId));
    expect(endpoint!.failingSince).toEqual(clock.now());
    failing = false;
    clock.advance(RETRY_DELAYS_MS[0] * 1.1 + 1);
    await executor.runDue(ctx);
    [endpoint] = await ctx.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpointId));
    expect(endpoint!.failingSince).toBeNull();
  });

  it("the sweep wakes an endpoint whose due deliveries lost their run", async () => {
    const { endpointId, subscribe } = await setup();
    await subscribe("orphan@example.com");
    // As an upgrade that cancelled the old per-delivery runs leaves them.
    await ctx.db.execute(
      sql`update workflow_runs set status = 'cancelled' where status = 'pending' and event->'data'->>'endpointId' = ${endpointId}`,
    );
    clock.advance(4 * 60_000);
    await executor.runDue(ctx);
    expect(await wakeOverdueEndpoints(ctx)).toBe(0); // not overdue long enough to be lost
    expect(receiver.received).toHaveLength(0);
    clock.advance(2 * 60_000);
    expect(await wakeOverdueEndpoints(ctx)).toBe(1);
    await executor.runDue(ctx);
    expect(receiver.received).toHaveLength(1);
    expect(await wakeOverdueEndpoints(ctx)).toBe(0);
  });
});
