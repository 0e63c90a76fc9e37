import "server-only";

import { and, eq, isNull, lte } from "drizzle-orm";

import { withTransaction, type Ctx } from "@/lib/context";
import { workspaceBilling } from "@/lib/db/schema";

import { lockBilling, startLadderEpisode } from "./ladder-episodes";

/**
 * Trials that ended without a plan start down the ladder at their end date: read-only at once, then
 * deletion like any workspace nobody pays for. A trial that became a plan is `active` and not found.
 */
export async function endTrials(ctx: Ctx): Promise<number> {
  const ended = await ctx.db
    .select({ workspaceId: workspaceBilling.workspaceId })
    .from(workspaceBilling)
    .where(
      and(
        eq(workspaceBilling.stage, "trial"),
        lte(workspaceBilling.trialEndsAt, ctx.clock.now()),
        isNull(workspaceBilling.ladderEpisodeId),
      ),
    );
  for (const { workspaceId } of ended) {
    await withTransaction(ctx, async (tx) => {
      const billing = await lockBilling(tx, workspaceId);
      if (billing?.stage === "trial" && !billing.ladderEpisodeId)
        await startLadderEpisode(tx, billing, "trial_ended", billing.trialEndsAt!);
    });
  }
  return ended.length;
}
