import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { systemActor } from "@/lib/actor";
import { confirmationRequests, subscriptions } from "@/lib/db/schema";
import { subscribeFromForm } from "@/lib/subscriptions/subscribe-from-form";
import { seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import { SAME_TOPIC_WINDOW_MS } from "./confirmation-windows";
import { decideConfirmation } from "./decide-confirmation";

const { ctx, clock } = testCtx(new Date("2026-04-01T12:00:00.000Z"));

describe("confirmation decision", () => {
  it("a decision made again (a retried step) gives the recorded answer, whatever has changed since: mailed stays mailed, a skip keeps its reason", async () => {
    const { workspaceId, brandId } = await seedWorkspace(ctx);
    const topicId = await seedTopic(ctx, workspaceId, brandId);
    const email = "retry@example.com";
    const actor = systemActor("test", workspaceId);
    const requestsTo = () =>
      ctx.db
        .select()
        .from(confirmationRequests)
        .where(and(eq(confirmationRequests.workspaceId, workspaceId), eq(confirmationRequests.email, email)));
    // Two signups within the topic's window: two requests for one pending subscription.
    await subscribeFromForm(ctx, actor, { topicId, email });
    const [first] = await requestsTo();
    await subscribeFromForm(ctx, actor, { topicId, email });
    const second = (await requestsTo()).find((request) => request.id !== first!.id);
    expect(await decideConfirmation(ctx, first!.id)).toEqual({ send: true });
    expect(await decideConfirmation(ctx, second!.id)).toEqual({ send: false, reason: "recently_sent" });

    // The window has passed and the subscription is no longer pending: a first decision would now differ.
    clock.advance(SAME_TOPIC_WINDOW_MS + 60_000);
    await ctx.db.update(subscriptions).set({ state: "subscribed" }).where(eq(subscriptions.id, first!.subscriptionId));
    expect(await decideConfirmation(ctx, first!.id)).toEqual({ send: true });
    expect(await decideConfirmation(ctx, second!.id)).toEqual({ send: false, reason: "recently_sent" });
    const recorded = new Map(
      (await requestsTo()).map((r) => [r.id, { mailedAt: r.mailedAt, skippedReason: r.skippedReason }]),
    );
    expect(recorded.get(first!.id)).toEqual({ mailedAt: new Date("2026-04-01T12:00:00.000Z"), skippedReason: null });
    expect(recorded.get(second!.id)).toEqual({ mailedAt: null, skippedReason: "recently_sent" });
  });

  it("an unknown request is not mailed", async () => {
    expect(await decideConfirmation(ctx, "cfr_01nonexistent0000000000000")).toEqual({
      send: false,
      reason: "unknown_request",
    });
  });
});
