import { describe, expect, it } from "vitest";

import { systemActor } from "@/lib/actor";
import { unsubscribe } from "@/lib/consent/unsubscribe";
import { webhookDeliveryFixture } from "@/lib/testing/webhook-delivery-fixture";
import { listDeliveries } from "@/lib/webhooks/endpoints";
import { RETRY_DELAYS_MS } from "@/lib/webhooks/retry-schedule";

const { ctx, clock, executor, receiver, setup } = webhookDeliveryFixture();

describe("webhook delivery", () => {
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
});
