import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { systemActor } from "@/lib/actor";
import { unsubscribe } from "@/lib/consent/unsubscribe";
import { events, webhookEndpoints } from "@/lib/db/schema";
import { apiClient } from "@/lib/testing/api-client";
import { seedKey } from "@/lib/testing/factories";
import { webhookDeliveryFixture } from "@/lib/testing/webhook-delivery-fixture";
import { documentedVerifyWebhook } from "@/lib/testing/webhook-receiver";
import { createEndpoint, listDeliveries, rotateSecret } from "@/lib/webhooks/endpoints";
import { RETRY_DELAYS_MS } from "@/lib/webhooks/retry-schedule";

const { ctx, clock, executor, receiver, setup } = webhookDeliveryFixture();

const verify = documentedVerifyWebhook();

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
