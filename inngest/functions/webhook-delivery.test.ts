import type { ServerResponse } from "node:http";
import { eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { functions } from "@/inngest";
import { inngest, routeEmbeddedEvents } from "@/inngest/client";
import { createEmbeddedExecutor } from "@/inngest/embedded/executor";
import { spawnWorker } from "@/inngest/embedded/testing/spawn-worker";
import { setWorkflowCtx } from "@/inngest/workflow-ctx";
import { systemActor } from "@/lib/actor";
import { systemClock } from "@/lib/clock";
import { resubscribe } from "@/lib/consent/resubscribe";
import { unsubscribe } from "@/lib/consent/unsubscribe";
import { upsertContact } from "@/lib/contacts/upsert-contact";
import { withTransaction } from "@/lib/context";
import { events, webhookAttempts, webhookDeliveries, webhookEndpoints } from "@/lib/db/schema";
import { overrideEnvForTests, reloadEnv } from "@/lib/env";
import { recordEvent, recordEvents } from "@/lib/events/record-event";
import { apiClient } from "@/lib/testing/api-client";
import { seedKey, seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";
import { documentedVerifyWebhook, startWebhookReceiver } from "@/lib/testing/webhook-receiver";
import { deliverDue, DELIVERIES_PER_BATCH, postBatch, type Due } from "@/lib/webhooks/deliver-due";
import { LEASE_MS } from "@/lib/webhooks/endpoint-lease";
import { createEndpoint, enableEndpoint, listDeliveries, rotateSecret } from "@/lib/webhooks/endpoints";
import { CONNECTIONS_PER_ENDPOINT } from "@/lib/webhooks/post-webhook";
import { wakeOverdueEndpoints } from "@/lib/webhooks/request-delivery";
import { RETRY_DELAYS_MS } from "@/lib/webhooks/retry-schedule";

// API calls stamp rows with the real time; the workflow clock starts ahead of it so their runs are due.
const { ctx, clock } = testCtx(new Date(Date.now() + 60 * 60_000));
const executor = createEmbeddedExecutor({ client: inngest, functions, workers: 4 });
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;

beforeAll(() => {
  setWorkflowCtx(ctx);
  routeEmbeddedEvents((sent) => executor.enqueue(ctx, sent));
});
afterAll(() => setWorkflowCtx(undefined));
beforeEach(async () => {
  overrideEnvForTests({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "1" });
  receiver = await startWebhookReceiver();
});
afterEach(async () => {
  reloadEnv();
  await receiver.close();
});

async function setup(eventTypes: string[] = []) {
  const { workspaceId, brandId } = await seedWorkspace(ctx);
  const topicId = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
  const { endpointId, secret } = await createEndpoint(ctx, systemActor("test", workspaceId), {
    url: receiver.url,
    eventTypes,
  });
  const subscribe = async (email: string) =>
    (await upsertContact(ctx, systemActor("test", workspaceId), { email, topicIds: [topicId] })).contact;
  return { workspaceId, brandId, topicId, endpointId, secret, subscribe };
}

const verify = documentedVerifyWebhook();

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
  it("delivers the envelope {id, type, created_at, data} with X-Service-Signature, X-Service-Event-Id and X-Service-Event-Type", async () => {
    const { secret, subscribe } = await setup();
    const contact = await subscribe("first@example.com");
    await executor.runDue(ctx);
    expect(receiver.received).toHaveLength(1);
    const [webhook] = receiver.received;
    expect(webhook!.headers["content-type"]).toBe("application/json");
    expect(webhook!.body).toEqual({
      id: expect.stringMatching(/^evt_/),
      type: "contact.subscribed",
      created_at: expect.any(String),
      data: expect.objectContaining({ contact_id: contact.id }),
    });
    expect(webhook!.headers["x-service-event-id"]).toBe(webhook!.body.id);
    expect(webhook!.headers["x-service-event-type"]).toBe("contact.subscribed");
    // The event as recorded: when it was, and its data whole.
    const [recorded] = await ctx.db
      .select()
      .from(events)
      .where(eq(events.id, webhook!.body.id as string));
    expect(webhook!.body.created_at).toBe(recorded!.createdAt.toISOString());
    expect(webhook!.body.data).toEqual(recorded!.data);
    expect(webhook!.headers["x-service-signature"]).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(webhook!.headers["x-service-signature"]).toContain(`t=${clock.now().getTime()},`);
    expect(
      verify(secret, webhook!.headers["x-service-signature"] as string, webhook!.rawBody, clock.now().getTime()),
    ).toBe(true);
  });

  it("an endpoint gets only the event types it asked for; no types means all twelve", async () => {
    const { workspaceId, subscribe, topicId } = await setup(["contact.unsubscribed"]);
    const all = await createEndpoint(ctx, systemActor("test", workspaceId), {
      url: `${receiver.url}?all`,
      eventTypes: [],
    });
    const contact = await subscribe("picky@example.com");
    await unsubscribe(ctx, { contactId: contact.id, scope: "topic", topicId });
    await executor.runDue(ctx);
    const typesAt = (url: string) => receiver.received.filter((w) => w.url === url).map((w) => w.body.type);
    expect(typesAt("/hooks")).toEqual(["contact.unsubscribed"]);
    expect(typesAt("/hooks?all")).toEqual(["contact.subscribed", "contact.unsubscribed"]);
    const { deliveries } = await listDeliveries(ctx, systemActor("test"), all.endpointId);
    expect(deliveries.map((d) => d.eventType)).toEqual(["contact.subscribed", "contact.unsubscribed"]);
  });

  it("the documented receiver recipe (docs/examples/webhook-receiver.mjs) accepts genuine deliveries and rejects a tampered body, a wrong secret, a missing t or v1, and a timestamp older than 5 minutes", async () => {
    const { secret, subscribe } = await setup();
    // The receiver implements the recipe and answers 401 when it fails, as the guides say.
    receiver.respondWith((webhook, response) => {
      const ok = verify(
        secret,
        webhook.headers["x-service-signature"] as string,
        webhook.rawBody,
        clock.now().getTime(),
      );
      response.writeHead(ok ? 200 : 401).end(ok ? "ok" : "bad signature");
    });
    await subscribe("recipe@example.com");
    await executor.runDue(ctx);
    const [webhook] = receiver.received;
    const header = webhook!.headers["x-service-signature"] as string;
    const [tPart, v1Part] = header.split(",");
    const now = clock.now().getTime();
    expect(verify(secret, header, webhook!.rawBody, now)).toBe(true);
    expect(verify(secret, header, Buffer.from(webhook!.rawBody.toString().replace("recipe@", "tampered@")), now)).toBe(
      false,
    );
    expect(verify("whsec_wrong", header, webhook!.rawBody, now)).toBe(false);
    expect(verify(secret, v1Part!, webhook!.rawBody, now)).toBe(false);
    expect(verify(secret, tPart!, webhook!.rawBody, now)).toBe(false);
    expect(verify(secret, header, webhook!.rawBody, now + 5 * 60_000 + 1)).toBe(false);
    expect(verify(secret, header, webhook!.rawBody, now + 5 * 60_000)).toBe(true);
    const { deliveries } = await listDeliveries(
      ctx,
      systemActor("test"),
      (await ctx.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.signingSecret, secret)))[0]!.id,
    );
    expect(deliveries[0]).toMatchObject({ status: "succeeded", attemptCount: 1 });
    expect(deliveries[0]!.attempts[0]).toMatchObject({ statusCode: 200, responseExcerpt: "ok", error: null });
  });

  it("a failed delivery is retried after 30 s, 2 min, 10 min, 1 h, 3 h, 6 h, 12 h and 24 h with up to 10 % jitter, then given up", async () => {
    receiver.respondWith((_, response) => response.writeHead(500).end("down"));
    const { endpointId, subscribe } = await setup();
    await subscribe("retry@example.com");
    await executor.runDue(ctx);
    for (const delay of RETRY_DELAYS_MS) {
      clock.advance(delay - 1);
      await executor.runDue(ctx);
      clock.advance(Math.ceil(delay * 0.1) + 1);
      await executor.runDue(ctx);
    }
    const { deliveries } = await listDeliveries(ctx, systemActor("test"), endpointId);
    const times = deliveries[0]!.attempts.map((attempt) => attempt.attemptedAt.getTime());
    expect(times).toHaveLength(9);
    RETRY_DELAYS_MS.forEach((delay, index) => {
      const waited = times[index + 1]! - times[index]!;
      expect(waited).toBeGreaterThanOrEqual(delay);
      expect(waited).toBeLessThanOrEqual(delay * 1.1 + 1);
    });
    expect(deliveries[0]).toMatchObject({ status: "failed", attemptCount: 9, nextAttemptAt: null });
    expect(
      deliveries[0]!.attempts.every((attempt) => attempt.statusCode === 500 && attempt.responseExcerpt === "down"),
    ).toBe(true);
    clock.advance(7 * 24 * 3_600_000);
    await executor.runDue(ctx);
    expect(receiver.received).toHaveLength(9);
  });

  it("a failed attempt's retry waits from that attempt, not from the end of the batch it was posted in", async () => {
    const { endpointId, subscribe, topicId } = await setup();
    const contact = await subscribe("batch-timing@example.com");
    await unsubscribe(ctx, { contactId: contact.id, scope: "topic", topicId });
    // One contact: posted one after the other in one batch. The first fails at once; the second takes 20 s.
    receiver.respondWith((webhook, response) => {
      if (webhook.body.type === "contact.subscribed") return response.writeHead(500).end();
      clock.advance(20_000);
      response.writeHead(204).end();
    });
    const failedAt = clock.now().getTime();
    await executor.runDue(ctx);
    const { deliveries } = await listDeliveries(ctx, systemActor("test"), endpointId);
    const failed = deliveries.find((d) => d.status === "pending")!;
    expect(failed.attempts[0]!.attemptedAt.getTime()).toBe(failedAt);
    const waited = failed.nextAttemptAt!.getTime() - failedAt;
    expect(waited).toBeGreaterThanOrEqual(RETRY_DELAYS_MS[0]);
    expect(waited).toBeLessThanOrEqual(RETRY_DELAYS_MS[0] * 1.1 + 1);
  });

  it("rotation: the new secret signs the next delivery, and deliveries that failed during the rotation are retried with it at once", async () => {
    const { endpointId, subscribe } = await setup();
    let expected = "whsec_not_yet_known";
    receiver.respondWith((webhook, response) => {
      const ok = verify(
        expected,
        webhook.headers["x-service-signature"] as string,
        webhook.rawBody,
        clock.now().getTime(),
      );
      response.writeHead(ok ? 204 : 401).end();
    });
    await subscribe("rotate@example.com");
    await executor.runDue(ctx);
    expect((await listDeliveries(ctx, systemActor("test"), endpointId)).deliveries[0]).toMatchObject({
      status: "pending",
      attemptCount: 1,
    });

    const { secret, retried } = await rotateSecret(ctx, systemActor("test"), endpointId);
    expected = secret;
    expect(retried).toBe(1);
    await executor.runDue(ctx); // no time passes: the retry does not wait for its schedule
    const { deliveries } = await listDeliveries(ctx, systemActor("test"), endpointId);
    expect(deliveries[0]).toMatchObject({ status: "succeeded", attemptCount: 2 });
    expect(deliveries[0]!.attempts.map((a) => a.statusCode)).toEqual([401, 204]);

    // The superseded run wakes at its old retry time and sends nothing more.
    clock.advance(RETRY_DELAYS_MS[0] * 1.1 + 1);
    await executor.runDue(ctx);
    expect(receiver.received).toHaveLength(2);

    await subscribe("after-rotation@example.com");
    await executor.runDue(ctx);
    expect(receiver.received).toHaveLength(3);
    expect(
      verify(
        secret,
        receiver.received[2]!.headers["x-service-signature"] as string,
        receiver.received[2]!.rawBody,
        clock.now().getTime(),
      ),
    ).toBe(true);
  });

  it("rotation: a delivery posted with the old secret while the secret is rotated, and refused, is retried with the new one at once", async () => {
    const { endpointId, subscribe } = await setup();
    let rotated: Promise<{ secret: string }> | undefined;
    receiver.respondWith((webhook, response) => {
      if (!rotated) {
        // The sender rotates while this attempt is in flight; the receiver already expects the new secret.
        rotated = rotateSecret(ctx, systemActor("test"), endpointId);
        void rotated.then(() => response.writeHead(401).end());
        return;
      }
      void rotated.then(({ secret }) => {
        const ok = verify(
          secret,
          webhook.headers["x-service-signature"] as string,
          webhook.rawBody,
          clock.now().getTime(),
        );
        response.writeHead(ok ? 204 : 401).end();
      });
    });
    await subscribe("in-flight@example.com");
    await executor.runDue(ctx); // no time passes: the retry does not wait for its schedule
    const { deliveries } = await listDeliveries(ctx, systemActor("test"), endpointId);
    expect(deliveries[0]).toMatchObject({ status: "succeeded", attemptCount: 2 });
    expect(deliveries[0]!.attempts.map((a) => a.statusCode)).toEqual([401, 204]);
  });

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

  it("a retry carries the same event id as the first attempt", async () => {
    let calls = 0;
    receiver.respondWith((_, response) => response.writeHead(calls++ === 0 ? 503 : 200).end());
    const { subscribe } = await setup();
    await subscribe("dedupe@example.com");
    await executor.runDue(ctx);
    clock.advance(RETRY_DELAYS_MS[0] * 1.1 + 1);
    await executor.runDue(ctx);
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1]!.body.id).toBe(receiver.received[0]!.body.id);
    expect(receiver.received[1]!.rawBody.equals(receiver.received[0]!.rawBody)).toBe(true);
  });

  it("a redirect is not followed: a 3xx is a failed attempt", async () => {
    receiver.respondWith((webhook, response) => {
      if (webhook.headers["x-followed"]) return response.writeHead(204).end();
      response.writeHead(307, { location: `${receiver.url}?moved` }).end();
    });
    const { endpointId, subscribe } = await setup();
    await subscribe("redirect@example.com");
    await executor.runDue(ctx);
    expect(receiver.received).toHaveLength(1);
    const { deliveries } = await listDeliveries(ctx, systemActor("test"), endpointId);
    expect(deliveries[0]).toMatchObject({ status: "pending", attemptCount: 1 });
    expect(deliveries[0]!.attempts[0]).toMatchObject({ statusCode: 307, error: "receiver answered 307" });
  });

  it("a receiver that does not answer within 10 s fails the attempt", { timeout: 30_000 }, async () => {
    receiver.respondWith(() => undefined);
    const { endpointId, subscribe } = await setup();
    await subscribe("silent@example.com");
    await executor.runDue(ctx);
    const { deliveries } = await listDeliveries(ctx, systemActor("test"), endpointId);
    expect(deliveries[0]).toMatchObject({ status: "pending", attemptCount: 1 });
    expect(deliveries[0]!.attempts[0]!.error).toBe("no answer within 10 s");
    expect(deliveries[0]!.attempts[0]!.latencyMs).toBeGreaterThanOrEqual(10_000);
  });

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
      while (at("/hooks") < events || at("/hooks?second") < events)
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

  it("no webhook ever fires for a test-key action", async () => {
    const { workspaceId, topicId, endpointId } = await setup();
    const testKey = apiClient((await seedKey(ctx, workspaceId, { environment: "test" })).key);
    const created = await testKey.post("/v1/contacts", { email: "quiet@example.com", topic_ids: [topicId] });
    expect(created.status).toBe(201);
    await executor.runDue(ctx);
    expect(receiver.received).toHaveLength(0);
    expect((await listDeliveries(ctx, systemActor("test"), endpointId)).deliveries).toHaveLength(0);
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
