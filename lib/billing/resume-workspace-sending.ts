import "server-only";

import { and, eq } from "drizzle-orm";

import type { Ctx } from "@/lib/context";
import { automations, campaigns } from "@/lib/db/schema";
import { emitEvents } from "@/lib/events/emit-events";
import { automationResumed, campaignDispatchRequested } from "@/lib/events/workflow-events";

/**
 * Billing let the workspace send again: every campaign still `sending` gets a dispatch run, which
 * carries on from its last batch. That covers a campaign stopped mid-send and a scheduled one whose
 * time came while sending was paused (its run started it and stopped before the first batch). The
 * runs of its active automations held at a send go on (docs/readings.md, "Automations").
 * System: called as an invoice is settled (operator, admin CLI or Stripe); no person's request reaches it.
 */
export async function resumeWorkspaceSending(ctx: Ctx, workspaceId: string): Promise<number> {
  const held = await ctx.db
    .select({ id: campaigns.id })
    .from(campaigns)
    .where(and(eq(campaigns.workspaceId, workspaceId), eq(campaigns.status, "sending")));
  const at = ctx.clock.now().getTime();
  await emitEvents(
    ctx,
    held.map((campaign) => ({
      name: campaignDispatchRequested.name,
      id: `dispatch-${campaign.id}-billing-${at}`,
      data: { campaignId: campaign.id, at: null },
    })),
  );
  const active = await ctx.db
    .select({ id: automations.id })
    .from(automations)
    .where(and(eq(automations.workspaceId, workspaceId), eq(automations.status, "active")));
  await emitEvents(
    ctx,
    active.map((automation) => ({ name: automationResumed.name, data: { automationId: automation.id } })),
  );
  return held.length;
}
