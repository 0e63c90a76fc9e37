import "server-only";

import { eq, sql, type SQL } from "drizzle-orm";

import type { Ctx } from "@/lib/context";
import { workspaceBilling } from "@/lib/db/schema";

// The send allowance of a period, in one place (docs/readings.md, "Send allowance"): reserved for
// every recipient when a campaign's audience is set, refunded for each send that is skipped, fails
// before leaving the service, or is cancelled while queued.

/** The failure reason of a recipient the period's allowance does not cover. */
export const OVER_ALLOWANCE = "over_allowance";

/**
 * Reserves `count` sends and says how many of them the allowance covered (what it had left before).
 * System: the dispatch workflow's audience snapshot, for the campaign's workspace; no person's request reaches it.
 */
export async function reserveSends(ctx: Ctx, workspaceId: string, count: number): Promise<number> {
  if (count <= 0) return 0;
  const [row] = await ctx.db
    .update(workspaceBilling)
    .set({ sendsUsed: sql`${workspaceBilling.sendsUsed} + ${count}` })
    .where(eq(workspaceBilling.workspaceId, workspaceId))
    .returning({ used: workspaceBilling.sendsUsed, allowance: workspaceBilling.sendAllowance });
  // A workspace without a billing row (older fixtures) is not limited.
  if (!row) return count;
  return Math.max(0, Math.min(count, row.allowance - (row.used - count)));
}

/**
 * One send reserved as reserveSends reserves it, for a statement that writes its send only when the
 * allowance covered it: two common table expressions, the second (`covered_send`) one row whose
 * `covered` says so (a workspace without a billing row is not limited). Nothing is taken when it was
 * not covered, so nothing needs giving back.
 * Internal: a sender's statement, for the workspace of the send in hand.
 */
export function reserveOneSendCtes(workspaceId: string): SQL {
  return sql`reserved_send as (
      update workspace_billing set sends_used = sends_used + 1
      where workspace_id = ${workspaceId} and sends_used < send_allowance
      returning 1
    ), covered_send as (
      select exists (select 1 from reserved_send)
        or not exists (select 1 from workspace_billing where workspace_id = ${workspaceId}) as covered
    )`;
}

/** Never below zero: a refund after a new period began does not go negative. Internal: the dispatch worker and cancelCampaign, for the workspace of the campaign in hand. */
export async function refundSends(ctx: Ctx, workspaceId: string, count: number): Promise<void> {
  if (count <= 0) return;
  await ctx.db
    .update(workspaceBilling)
    .set({ sendsUsed: sql`greatest(${workspaceBilling.sendsUsed} - ${count}, 0)` })
    .where(eq(workspaceBilling.workspaceId, workspaceId));
}

/**
 * What the period's allowance has left now (none below zero); a workspace without a billing row is not limited.
 * Internal: asked for the workspace of a campaign its verb already found for the actor.
 */
export async function allowanceLeft(ctx: Ctx, workspaceId: string): Promise<number> {
  const [row] = await ctx.db
    .select({ used: workspaceBilling.sendsUsed, allowance: workspaceBilling.sendAllowance })
    .from(workspaceBilling)
    .where(eq(workspaceBilling.workspaceId, workspaceId));
  return row ? Math.max(0, row.allowance - row.used) : Number.MAX_SAFE_INTEGER;
}
