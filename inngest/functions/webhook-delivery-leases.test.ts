import type { ServerResponse } from "node:http";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { functions } from "@/inngest";
import { inngest } from "@/inngest/client";
import { createEmbeddedExecutor } from "@/inngest/embedded/executor";
import { spawnWorker } from "@/inngest/embedded/testing/spawn-worker";
import { systemActor } from "@/lib/actor";
import { systemClock } from "@/lib/clock";
import { unsubscribe } from "@/lib/consent/unsubscribe";
import { upsertContact } from "@/lib/contacts/upsert-contact";
import { withTransaction } from "@/lib/context";
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from "@/lib/db/schema";
import { recordEvent, recordEvents } from "@/lib/events/record-event";
import { webhookDeliveryFixture } from "@/lib/testing/webhook-delivery-fixture";
import { deliverDue, DELIVERIES_PER_BATCH } from "@/lib/webhooks/deliver-due";
import { LEASE_MS } from "@/lib/webhooks/endpoint-lease";
import { listDeliveries } from "@/lib/webhooks/endpoints";
import { RETRY_DELAYS_MS } from "@/lib/webhooks/retry-schedule";

const { ctx, clock, executor, receiver, setup } = webhookDeliveryFixture();

/** Another run takes the endpoint's delivery lease, for LEASE_MS from now. */
const leaseToAnotherRun = (endpointId: string) =>
  ctx.db
    .update(webhookEndpoints)
    .set({ deliveryLeaseToken: "other-run", deliveryLeaseUntil: new Date(clock.now().getTime() + LEASE_MS) })
    .where(eq(webhookEndpoints.id, endpointId));

/** A receiver answering 204, which on the first post first waits for `meanwhile`: what happens while that post is in flight. */
function onFirstPost(meanwhile: () => PromiseLike<unknown>) {
  let first = true;
  return (_: unknown, response: ServerResponse) => {
    if (!first) return response.writeHead(204).end();
    first = false;
    void meanwhile().then(() => response.writeHead(204).end());
  };
}

describe("webhook delivery", () => {
  it("a lease renewal that fails still records the batch just posted, then stops the run and gives up the lease: nothing posted is posted again", async () => {
    const { workspaceId, endpointId } = await setup();
    const now = clock.now();
    // One batch, small enough to be posted whole within the step's time on any machine.
    const items = Array.from({ length: 20 }, (_, i) => ({
      data: { send_id: `snd_${i}`, contact_id: `ct_renew${i}`, email: `renew${i}@example.com` },
      occurredAt: now,
    }));
    await recordEvents(ctx, systemActor("test", workspaceId), "email.opened", items);
    // The first write to the endpoint's row by its lease holder after taking it is the renewal after the batch (the
    // batch's record comes after it); the sequence counts outside the transaction the refusal rolls back.
    const name = `fail_renewal_${endpointId}`;
    await ctx.db.execute(sql.raw(`create sequence ${name}_seq`));
    await ctx.db.execute(
      sql.raw(`
      create function ${name}() returns trigger language plpgsql as $$
      begin
        if new.id = '${endpointId}' and old.delivery_lease_token is not null and new.delivery_lease_token is not null and nextval('${name}_seq') = 1
        then raise exception 'renewal refused'; end if;
        return new;
      end $$`),
    );
    await ctx.db.execute(
      sql.raw(`create trigger ${name} before update on webhook_endpoints for each row execute function ${name}()`),
    );
    try {
      const failure = await deliverDue(ctx, endpointId).then(
        () => null,
        (error: Error) => error,
      );
      expect(String(failure?.cause)).toMatch(/renewal refused/);
    } finally {
      await ctx.db.execute(
        sql.raw(`drop trigger ${name} on webhook_endpoints; drop function ${name}(); drop sequence ${name}_seq`),
      );
    }
    expect(receiver.received).toHaveLength(items.length);
    const deliveries = await ctx.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, endpointId));
    expect(
      deliveries.filter((delivery) => delivery.status === "succeeded" && delivery.attemptCount === 1),
    ).toHaveLength(items.length);
    const [endpoint] = await ctx.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpointId));
    expect(endpoint!.deliveryLeaseToken).toBeNull();
    await executor.runDue(ctx);
    expect(receiver.received).toHaveLength(items.length);
  });

  it("two executors working the same database post each delivery once", async () => {
    const { subscribe } = await setup();
    const events = 30;
    for (let i = 0; i < events; i++) await subscribe(`twice-${i}@example.com`);
    const [first, second] = [1, 2].map(() => createEmbeddedExecutor({ client: inngest, functions, workers: 4 }));
    await Promise.all([first!.start(ctx, 10), second!.start(ctx, 10)]);
    while (receiver.received.length < events) await new Promise((resolve) => setTimeout(resolve, 20));
    await Promise.all([first!.stop(), second!.stop()]);
    await executor.runDue(ctx);
    const ids = receiver.received.map((w) => w.body.id);
    expect(ids).toHaveLength(events);
    expect(new Set(ids).size).toBe(events);
  });

  it("a delivery queued while its endpoint's run is starting is made by that run: no delivery is left without a run", async () => {
    const { workspaceId, subscribe } = await setup();
    await subscribe("first-of-two@example.com"); // queues a delivery and asks for the endpoint's run
    // A second event's transaction asks for the same run (the same wake), and stays open while the run starts.
    let commit!: () => void;
    const committed = withTransaction(ctx, async (tx) => {
      await recordEvent(
        tx,
        systemActor("test", workspaceId),
        "contact.unsubscribed",
        { contact_id: "ct_pending", email: "second-of-two@example.com" },
        clock.now(),
      );
      await new Promise<void>((resolve) => (commit = resolve));
    });
    while (!commit) await new Promise((resolve) => setTimeout(resolve, 5));
    const running = executor.runDue(ctx);
    await new Promise((resolve) => setTimeout(resolve, 200));
    commit();
    await committed;
    await running;
    // Two contacts: posted side by side, in either order.
    expect(receiver.received.map((w) => w.body.type).sort()).toEqual(["contact.subscribed", "contact.unsubscribed"]);
  });

  it("an endpoint's deliveries wait while a run that died still holds its lease, then go in order once it lapses", async () => {
    const { endpointId, subscribe, topicId } = await setup();
    const contact = await subscribe("leased@example.com");
    await unsubscribe(ctx, { contactId: contact.id, scope: "topic", topicId });
    // As a run that took the lease and died mid-post leaves it.
    await leaseToAnotherRun(endpointId);
    await executor.runDue(ctx);
    expect(receiver.received).toHaveLength(0);
    clock.advance(LEASE_MS + 1);
    await executor.runDue(ctx);
    expect(receiver.received.map((w) => w.body.type)).toEqual(["contact.subscribed", "contact.unsubscribed"]);
    // Given back when the run ended: the next delivery does not wait for a lease to lapse.
    expect((await ctx.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpointId)))[0]).toMatchObject({
      deliveryLeaseToken: null,
      deliveryLeaseUntil: null,
    });
    await subscribe("leased-later@example.com");
    await executor.runDue(ctx);
    expect(receiver.received).toHaveLength(3);
  });

  it("a run whose lease is taken over stops after the batch in hand; the rest wait for the new holder's lease and each is posted once", async () => {
    const { workspaceId, endpointId } = await setup();
    const now = clock.now();
    // More than one batch: one contact each, so nothing but the lease holds a delivery back.
    const total = DELIVERIES_PER_BATCH + 44;
    const items = Array.from({ length: total }, (_, i) => ({
      data: { send_id: `snd_${i}`, contact_id: `ct_lease${i}`, email: `lease${i}@example.com` },
      occurredAt: now,
    }));
    await recordEvents(ctx, systemActor("test", workspaceId), "email.opened", items);
    // Another run takes the endpoint over while this one posts (as when this one's step was thought dead).
    receiver.respondWith(onFirstPost(() => leaseToAnotherRun(endpointId)));
    await executor.runDue(ctx);
    // At most the batch in hand (fewer should the step's 5 s run out first); the rest wait for the other lease.
    expect(receiver.received.length).toBeGreaterThan(0);
    expect(receiver.received.length).toBeLessThanOrEqual(DELIVERIES_PER_BATCH);
    clock.advance(LEASE_MS + 1);
    await executor.runDue(ctx);
    const ids = receiver.received.map((w) => w.body.id);
    expect(ids).toHaveLength(total);
    expect(new Set(ids).size).toBe(total);
  });

  it("a holder whose lease may have lapsed starts no more posts: a contact's later events wait for the next holder, then go in order", async () => {
    const { workspaceId, endpointId } = await setup();
    const now = clock.now();
    const items = [1, 2, 3].map((n) => ({
      data: { send_id: `snd_lapse${n}`, contact_id: "ct_lapse", email: "lapse@example.com" },
      occurredAt: now,
    }));
    await recordEvents(ctx, systemActor("test", workspaceId), "email.opened", items);
    // This run stalls past its lease during the first post, and another run takes the endpoint over.
    receiver.respondWith(
      onFirstPost(() => {
        clock.advance(LEASE_MS + 1);
        return leaseToAnotherRun(endpointId);
      }),
    );
    await executor.runDue(ctx);
    expect(receiver.received.map((w) => w.body.data)).toEqual([expect.objectContaining({ send_id: "snd_lapse1" })]);
    clock.advance(LEASE_MS + 1);
    await executor.runDue(ctx);
    expect(receiver.received.map((w) => (w.body.data as { send_id: string }).send_id)).toEqual([
      "snd_lapse1",
      "snd_lapse2",
      "snd_lapse3",
    ]);
  });

  it("a holder recording late, after its lease was taken over, neither undoes nor reschedules what the new holder recorded", async () => {
    const { endpointId, subscribe } = await setup();
    await subscribe("late-success@example.com");
    await subscribe("late-failure@example.com");
    await subscribe("late-given-up@example.com");
    const retryAt = new Date(clock.now().getTime() + 123_456);
    // What the new holder records for each while this run's attempt is in flight: a success, a failure, or
    // giving up (its endpoint disabled, which leaves the attempt count as it was).
    const newHolder = {
      "late-success": { status: "succeeded" as const, attemptCount: 1, nextAttemptAt: null },
      "late-failure": { status: "pending" as const, attemptCount: 1, nextAttemptAt: retryAt },
      "late-given-up": { status: "failed" as const, attemptCount: 0, nextAttemptAt: null },
    };
    receiver.respondWith((webhook, response) => {
      const email = (webhook.body.data as { email: string }).email;
      const recorded = newHolder[email.split("@")[0] as keyof typeof newHolder];
      void ctx.db
        .update(webhookDeliveries)
        .set(recorded)
        .where(eq(webhookDeliveries.eventId, webhook.body.id as string))
        .then(() => response.writeHead(500).end());
    });
    await executor.runDue(ctx);
    const { deliveries } = await listDeliveries(ctx, systemActor("test"), endpointId);
    // Oldest first, as subscribed.
    expect(deliveries[0]).toMatchObject(newHolder["late-success"]);
    expect(deliveries[1]).toMatchObject(newHolder["late-failure"]);
    expect(deliveries[2]).toMatchObject(newHolder["late-given-up"]);
    // The late attempts themselves are on record.
    expect(deliveries.map((d) => d.attempts.map((a) => a.statusCode))).toEqual([[500], [500], [500]]);
  });
});

describe("webhook delivery across a shutdown", () => {
  it("SIGTERM during an attempt lets it finish and be recorded; the retry is scheduled and the next start delivers it", async () => {
    const { workspaceId, topicId } = await setup();
    // The endpoint takes its time and then fails: the attempt is in flight when the worker is told to stop.
    receiver.respondWith((_, response) => setTimeout(() => response.writeHead(500).end("busy"), 1500));
    const contact = (
      await upsertContact({ ...ctx, clock: systemClock }, systemActor("test", workspaceId), {
        email: "term@example.com",
        topicIds: [topicId],
      })
    ).contact;

    const child = spawnWorker({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "1" });
    for (let i = 0; i < 6000 && receiver.received.length === 0; i++)
      await new Promise((resolve) => setTimeout(resolve, 20));
    child.kill("SIGTERM");
    expect(await child.exited).toBe(0);

    const [delivery] = await ctx.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.workspaceId, workspaceId));
    expect(delivery).toMatchObject({ status: "pending" });
    const attempts = await ctx.db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, delivery!.id));
    expect(attempts.map((a) => a.statusCode)).toEqual([500]);
    // The retry waits in a run of the endpoint's, due at its time and held by no one.
    const runs = await ctx.db.execute<{ wake_at: string; lease_until: string | null }>(
      sql`select wake_at, lease_until from workflow_runs where function_id like '%webhook-endpoint-delivery' and status = 'pending' and event->'data'->>'endpointId' = ${delivery!.endpointId}`,
    );
    expect(runs.every((run) => run.lease_until === null)).toBe(true);
    expect(runs.map((run) => new Date(run.wake_at).getTime())).toContain(delivery!.nextAttemptAt!.getTime());

    // The next start (this process, its clock past the retry's time) delivers the retry.
    receiver.respondWith((_, response) => response.writeHead(204).end());
    for (let i = 0; i < 5; i++) {
      clock.advance(RETRY_DELAYS_MS[0]! * 2);
      await executor.runDue(ctx);
    }
    expect(receiver.received.map((w) => w.body.data.contact_id)).toEqual([contact.id, contact.id]);
    expect(
      (await ctx.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, delivery!.id)))[0],
    ).toMatchObject({ status: "succeeded" });
  });
});
