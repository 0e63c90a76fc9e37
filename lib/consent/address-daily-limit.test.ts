import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { systemActor } from "@/lib/actor";
import { withTransaction } from "@/lib/context";
import { confirmationRequests, subscriptions } from "@/lib/db/schema";
import { subscribeFromForm } from "@/lib/subscriptions/subscribe-from-form";
import { seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import { ADDRESS_DAILY_LIMIT, DAILY_LIMIT } from "./confirmation-windows";
import { decideConfirmation } from "./decide-confirmation";

const { ctx } = testCtx(new Date("2026-04-01T12:00:00.000Z"));

/** A confirmation request for `email` to a new topic of the workspace; returns its id. */
async function requestIn(workspace: { workspaceId: string; brandId: string }, email: string): Promise<string> {
  const topicId = await seedTopic(ctx, workspace.workspaceId, workspace.brandId);
  await subscribeFromForm(ctx, systemActor("test", workspace.workspaceId), { topicId, email });
  const [row] = await ctx.db
    .select({ id: confirmationRequests.id })
    .from(confirmationRequests)
    .innerJoin(subscriptions, eq(subscriptions.id, confirmationRequests.subscriptionId))
    .where(and(eq(subscriptions.topicId, topicId), eq(confirmationRequests.email, email)));
  return row!.id;
}

describe("cross-workspace confirmation cap", () => {
  it("two workspaces deciding the last slot at once: one mails, the other waits for it and skips (address_daily_limit)", async () => {
    const email = "race@example.com";
    expect(ADDRESS_DAILY_LIMIT - 1).toBeGreaterThan(DAILY_LIMIT);
    // Fill all but one slot, within each workspace's own cap.
    const [first, second] = [await seedWorkspace(ctx), await seedWorkspace(ctx)];
    for (let i = 0; i < ADDRESS_DAILY_LIMIT - 1; i++) {
      expect(await decideConfirmation(ctx, await requestIn(i < DAILY_LIMIT ? first : second, email))).toEqual({
        send: true,
      });
    }
    const a = await requestIn(await seedWorkspace(ctx), email);
    const b = await requestIn(await seedWorkspace(ctx), email);

    // A takes the last slot and stays uncommitted while B decides on its own connection.
    let decidedB!: Promise<unknown>;
    const decidedA = await withTransaction(ctx, async (tx) => {
      const decision = await decideConfirmation(tx, a);
      decidedB = decideConfirmation(ctx, b);
      await new Promise((resolve) => setTimeout(resolve, 500));
      return decision;
    });
    expect(decidedA).toEqual({ send: true });
    expect(await decidedB).toEqual({ send: false, reason: "address_daily_limit" });
  });
});
