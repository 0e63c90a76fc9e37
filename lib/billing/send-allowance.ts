import "server-only";
import { eq, sql } from "drizzle-orm";
import type { Ctx } from "@/lib/context";
import { workspaceBilling } from "@/lib/db/schema";

// The send allowance of a period, in one place (DECISIONS.md): reserved for every recipient when a
// campaign's audience is set, refunded for each send that is skipped, fails before leaving the
// service, or is cancelled while queued.

export async function reserveSends(ctx: Ctx, workspaceId: string, count: number): Promise<void> {
  if (count <= 0) return;
  await ctx.db
    .update(workspaceBilling)
    .set({ sendsUsed: sql`${workspaceBilling.sendsUsed} + ${count}` })
    .where(eq(workspaceBilling.workspaceId, workspaceId));
}

/** Never below zero: a refund after a new period began does not go negative. */
export async function refundSends(ctx: Ctx, workspaceId: string, count: number): Promise<void> {
  if (count <= 0) return;
  await ctx.db
    .update(workspaceBilling)
    .set({ sendsUsed: sql`greatest(${workspaceBilling.sendsUsed} - ${count}, 0)` })
    .where(eq(workspaceBilling.workspaceId, workspaceId));
}
