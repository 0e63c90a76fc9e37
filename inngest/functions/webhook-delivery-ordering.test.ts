import type { ServerResponse } from "node:http";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { functions } from "@/inngest";
import { inngest } from "@/inngest/client";
import { createEmbeddedExecutor } from "@/inngest/embedded/executor";
import { systemActor } from "@/lib/actor";
import { resubscribe } from "@/lib/consent/resubscribe";
import { unsubscribe } from "@/lib/consent/unsubscribe";
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from "@/lib/db/schema";
import { recordEvents } from "@/lib/events/record-event";
import { webhookDeliveryFixture } from "@/lib/testing/webhook-delivery-fixture";
import { deliverDue, DELIVERIES_PER_BATCH, postBatch, type Due } from "@/lib/webhooks/deliver-due";
import { createEndpoint } from "@/lib/webhooks/endpoints";
import { CONNECTIONS_PER_ENDPOINT } from "@/lib/webhooks/post-webhook";

const { ctx, clock, executor, receiver, setup } = webhookDeliveryFixture();

describe("webhook delivery", () => {
  it("events for one contact reach a healthy endpoint in the order they happened, and each carries a stable event id", async () => {
    const { subscribe, topicId } = await setup();
    // A slow receiver: unordered deliveries would overlap.
    const answeredAt = new Map<string, number>();
    receiver.respondWith((webhook, response) =>
      setTimeout(() => {
        answeredAt.set(webhook.body.id, performance.now());
        response.writeHead(204).end();
      }, 30),
    );
    const first = await subscribe("order-a@example.com");
    const second = await subscribe("order-b@example.com");
    for (const contact of [first, second]) {
      await unsubscribe(ctx, { contactId: contact.id, scope: "topic", topicId });
      await resubscribe(ctx, { contactId: contact.id, topicId });
      await unsubscribe(ctx, { contactId: contact.id, scope: "all" });
    }
    await executor.runDue(ctx);
    for (const contact of [first, second]) {
      const mine = receiver.received.filter((w) => w.body.data.contact_id === contact.id);
      expect(mine.map((w) => [w.body.type, w.body.data.scope ?? null])).toEqual([
        ["contact.subscribed", null],
        ["contact.unsubscribed", "topic"],
        ["contact.subscribed", null],
        ["contact.unsubscribed", "all"],
      ]);
      const ids = mine.map((w) => w.body.id);
      expect([...ids].sort()).toEqual(ids);
      // Each one is sent only after the previous one was answered.
      mine
        .slice(1)
        .forEach((webhook, index) =>
          expect(webhook.receivedAt).toBeGreaterThanOrEqual(answeredAt.get(mine[index]!.body.id)!),
        );
    }
  });

  it("over several batches, each read while the one before posts, every delivery is posted and recorded once and each contact's in the order they happened", async () => {
    const { workspaceId, endpointId } = await setup();
    const now = clock.now();
    // Two and a half batches: most contacts with a few events, some with more than a batch posts of one contact;
    // their events interleaved, as many contacts' events arrive, so each batch holds a part of the long chains.
    const contacts = [
      ...Array.from({ length: 600 }, (_, c) => ({ contact: `ct_many${c}`, events: 4 })),
      ...Array.from({ length: 8 }, (_, c) => ({ contact: `ct_long${c}`, events: 20 })),
    ];
    const arrivals = contacts.flatMap(({ contact, events }) => Array.from({ length: events }, () => contact));
    const shuffled = arrivals
      .map((contact, i) => ({ contact, key: (i * 7919) % arrivals.length }))
      .sort((a, b) => a.key - b.key);
    const seen = new Map<string, number>();
    const items = shuffled.map(({ contact }) => {
      const n = seen.get(contact) ?? 0;
      seen.set(contact, n + 1);
      return {
        data: {
          send_id: `snd_${contact}_${String(n).padStart(2, "0")}`,
          contact_id: contact,
          email: `${contact}@example.com`,
        },
        occurredAt: now,
      };
    });
    expect(items.length).toBeGreaterThan(2 * DELIVERIES_PER_BATCH);
    await recordEvents(ctx, systemActor("test", workspaceId), "email.opened", items);
    await executor.runDue(ctx);
    const ids = receiver.received.map((w) => w.body.id);
    expect(ids).toHaveLength(items.length);
    expect(new Set(ids).size).toBe(items.length);
    for (const { contact } of contacts) {
      const sent = receiver.received
        .map((w) => w.body.data as { contact_id: string; send_id: string })
        .filter((data) => data.contact_id === contact);
      expect(sent.map((data) => data.send_id)).toEqual(sent.map((data) => data.send_id).sort());
    }
    // Every attempt recorded, once, and the lease given up.
    const deliveries = await ctx.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, endpointId));
    expect(deliveries.every((delivery) => delivery.status === "succeeded" && delivery.attemptCount === 1)).toBe(true);
    const [{ attempts }] = (await ctx.db.execute(
      sql`select count(*)::int as attempts from ${webhookAttempts} a join ${webhookDeliveries} d on d.id = a.delivery_id where d.endpoint_id = ${endpointId}`,
    )) as unknown as [{ attempts: number }];
    expect(attempts).toBe(items.length);
    const [endpoint] = await ctx.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpointId));
    expect(endpoint!.deliveryLeaseToken).toBeNull();
  });

  it("a batch's record that fails stops the run after the batch posting meanwhile, which is not recorded either: nothing is lost, and when they are posted again each contact's events still end in the order they happened", async () => {
    const { workspaceId, endpointId } = await setup();
    const now = clock.now();
    // Three batches' worth, each contact's events spread over them.
    const contacts = Array.from({ length: 300 }, (_, c) => `ct_rec${c}`);
    const items = Array.from({ length: 8 }, (_, n) =>
      contacts.map((contact) => ({
        data: { send_id: `snd_${contact}_${n}`, contact_id: contact, email: `${contact}@example.com` },
        occurredAt: now,
      })),
    ).flat();
    expect(items.length).toBeGreaterThan(2 * DELIVERIES_PER_BATCH);
    await recordEvents(ctx, systemActor("test", workspaceId), "email.opened", items);
    // The first batch's record fails: its first delivery's attempt cannot be written.
    const [first] = await ctx.db.execute<{ id: string }>(sql`
      select id from ${webhookDeliveries} where endpoint_id = ${endpointId} order by next_attempt_at, id limit 1`);
    await ctx.db.execute(
      sql.raw(`
      create function fail_record_${endpointId}() returns trigger language plpgsql as $$
      begin if new.delivery_id = '${first!.id}' then raise exception 'record refused'; end if; return new; end $$`),
    );
    await ctx.db.execute(
      sql.raw(
        `create trigger fail_record_${endpointId} before insert on webhook_attempts for each row execute function fail_record_${endpointId}()`,
      ),
    );
    try {
      const failure = await deliverDue(ctx, endpointId).then(
        () => null,
        (error: Error) => error,
      );
      expect(String(failure?.cause)).toMatch(/record refused/);
    } finally {
      await ctx.db.execute(
        sql.raw(
          `drop trigger fail_record_${endpointId} on webhook_attempts; drop function fail_record_${endpointId}()`,
        ),
      );
    }
    // The first batch and the one posted while its record failed; neither recorded, nothing more posted, the lease given up.
    expect(receiver.received).toHaveLength(2 * DELIVERIES_PER_BATCH);
    const [{ attempts }] = (await ctx.db.execute(
      sql`select count(*)::int as attempts from ${webhookAttempts} a join ${webhookDeliveries} d on d.id = a.delivery_id where d.endpoint_id = ${endpointId}`,
    )) as unknown as [{ attempts: number }];
    expect(attempts).toBe(0);
    const [endpoint] = await ctx.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpointId));
    expect(endpoint!.deliveryLeaseToken).toBeNull();

    await executor.runDue(ctx);
    const deliveries = await ctx.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, endpointId));
    expect(deliveries.every((delivery) => delivery.status === "succeeded")).toBe(true);
    // Posted again under the same event ids; a receiver keeping each event's last copy sees each contact's in order.
    expect(new Set(receiver.received.map((w) => w.body.id)).size).toBe(items.length);
    for (const contact of contacts) {
      const lastCopies = new Map<string, number>();
      receiver.received.forEach((w, at) => {
        const data = w.body.data as { contact_id: string; send_id: string };
        if (data.contact_id === contact) lastCopies.set(data.send_id, at);
      });
      const byLastCopy = [...lastCopies].sort((a, b) => a[1] - b[1]).map(([sendId]) => sendId);
      expect(byLastCopy).toEqual([...byLastCopy].sort());
    }
  });

  it("a stuck endpoint does not hold back the others: while its posts hang, the healthy endpoints get every event, and it never has more than its own connections open", async () => {
    const { workspaceId, subscribe } = await setup();
    await createEndpoint(ctx, systemActor("test", workspaceId), { url: `${receiver.url}?second`, eventTypes: [] });
    await createEndpoint(ctx, systemActor("test", workspaceId), { url: `${receiver.url}?stuck`, eventTypes: [] });
    const held: ServerResponse[] = [];
    let open = 0;
    let mostOpen = 0;
    receiver.respondWith((webhook, response) => {
      if (!webhook.url.endsWith("?stuck")) return response.writeHead(204).end();
      held.push(response);
      mostOpen = Math.max(mostOpen, ++open);
      response.on("close", () => open--);
    });
    const events = 40;
    for (let i = 0; i < events; i++) await subscribe(`many-${i}@example.com`);
    const at = (url: string) => receiver.received.filter((w) => w.url === url).length;
    const runner = createEmbeddedExecutor({ client: inngest, functions, workers: 4 });
    await runner.start(ctx, 20);
    try {
      // Wait for the stuck endpoint's first post as well: on a busy machine it may start after the healthy ones finish.
      while (at("/hooks") < events || at("/hooks?second") < events || held.length === 0)
        await new Promise((resolve) => setTimeout(resolve, 20));
      // Nothing of the stuck endpoint's is recorded yet: the healthy ones did not wait for its posts to time out.
      const stuckAttempts = await ctx.db.execute(
        sql`select 1 from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id join webhook_endpoints e on e.id = d.endpoint_id where e.url like '%?stuck'`,
      );
      expect(stuckAttempts).toHaveLength(0);
      expect(held.length).toBeGreaterThan(0);
      expect(held.every((response) => !response.writableEnded)).toBe(true); // the stuck endpoint has answered nothing meanwhile
      expect(mostOpen).toBeLessThanOrEqual(CONNECTIONS_PER_ENDPOINT);
    } finally {
      receiver.respondWith((_, response) => response.writeHead(204).end());
      for (const response of held) if (!response.writableEnded) response.writeHead(204).end();
      await runner.stop();
    }
  });

  it(
    "a step on a slow endpoint hands back once its time is spent, even within a batch: the posts not started stay due and follow in order in the next step",
    { timeout: 60_000 },
    async () => {
      const { workspaceId, endpointId } = await setup();
      receiver.respondWith((_, response) => setTimeout(() => response.writeHead(204).end(), 1_000));
      const now = clock.now();
      // One contact's events: a single chain, posted one after another, each answered a second later.
      const items = Array.from({ length: 8 }, (_, i) => ({
        data: { send_id: `snd_slow${i}`, contact_id: "ct_slow", email: "slow@example.com" },
        occurredAt: now,
      }));
      await recordEvents(ctx, systemActor("test", workspaceId), "email.opened", items);
      const first = await deliverDue(ctx, endpointId);
      expect(first.more).toBe(true);
      expect(first.succeeded).toBeGreaterThan(0);
      expect(first.succeeded).toBeLessThan(items.length);
      const pending = await ctx.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId));
      expect(pending.filter((delivery) => delivery.status === "pending")).toHaveLength(items.length - first.succeeded);
      for (let step = 0; step < items.length && receiver.received.length < items.length; step++)
        await deliverDue(ctx, endpointId);
      expect(receiver.received.map((webhook) => webhook.body.data.send_id)).toEqual(
        items.map((item) => item.data.send_id),
      );
    },
  );

  it("a step whose time is spent before it posts still posts once on each connection, so every step makes progress", async () => {
    const { endpointId } = await setup();
    const [endpoint] = await ctx.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpointId));
    const lease = {
      endpoint: endpoint!,
      held: () => true,
      renew: async () => endpoint!,
      release: async () => undefined,
    };
    const due = (contact: number, n: number): Due => ({
      id: `whd_${contact}_${n}`,
      orderKey: `ct_${contact}`,
      attemptCount: 0,
      eventId: `evt_${contact}_${n}`,
      type: "email.opened",
      createdAt: new Date().toISOString(),
      dataJson: "{}",
    });
    const chains = Array.from({ length: CONNECTIONS_PER_ENDPOINT + 4 }, (_, contact) => [
      due(contact, 0),
      due(contact, 1),
    ]);
    const attempts = await postBatch(chains, clock, lease, performance.now() - 1);
    expect(attempts).toHaveLength(CONNECTIONS_PER_ENDPOINT);
    expect(attempts.every((attempt) => attempt.succeeded)).toBe(true);
    expect(new Set(attempts.map((attempt) => attempt.delivery.orderKey)).size).toBe(CONNECTIONS_PER_ENDPOINT);
  });
});
