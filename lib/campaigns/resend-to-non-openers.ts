import "server-only";

import { and, eq } from "drizzle-orm";

import { inActorWorkspace, systemActor, type Actor } from "@/lib/actor";
import { withTransaction, type Ctx } from "@/lib/context";
import { campaigns } from "@/lib/db/schema";
import { ApiError, notFound } from "@/lib/errors";
import { parseInput } from "@/lib/validation/parse-input";

import { scheduleCampaign } from "./campaign-actions";
import { resendToNonOpenersSchema, type ResendToNonOpenersInput } from "./campaign-schemas";
import { createCampaign } from "./save-campaign";

type CampaignRow = typeof campaigns.$inferSelect;

const HOUR_MS = 3_600_000;

/** Only a campaign that has finished sending is resent: before, nobody can be said not to have opened it. */
export function canResendToNonOpeners(campaign: Pick<CampaignRow, "status" | "sentAt">): boolean {
  return campaign.status === "sent" && campaign.sentAt !== null;
}

/**
 * docs/readings.md, "Resending to non-openers": a new campaign to the same topic (and list), with the
 * original's body and a new subject, whose audience is the original's recipients who have not opened
 * or clicked it themselves by the time it goes out. Scheduled for the original's send time plus the
 * wait; a wait already over leaves it a draft to send or schedule. Once per campaign.
 */
export async function resendToNonOpeners(
  ctx: Ctx,
  actor: Actor,
  campaignId: string,
  input: ResendToNonOpenersInput,
): Promise<{ campaignId: string; scheduledAt: Date | null }> {
  const { subject, waitHours } = parseInput(resendToNonOpenersSchema, input);
  return withTransaction(ctx, async (tx) => {
    // Locked, so that two resends asked at once find each other.
    const [original] = await tx.db
      .select()
      .from(campaigns)
      .where(and(eq(campaigns.id, campaignId), inActorWorkspace(actor, campaigns.workspaceId)))
      .for("update");
    if (!original) throw notFound("campaign_not_found", `No campaign ${campaignId}.`);
    if (!canResendToNonOpeners(original))
      throw new ApiError({
        type: "invalid_request_error",
        code: "campaign_not_sent",
        message: `A ${original.status} campaign cannot be resent to its non-openers: wait until it has been sent.`,
      });
    const [earlier] = await tx.db
      .select({ id: campaigns.id })
      .from(campaigns)
      .where(eq(campaigns.resendOf, original.id));
    if (earlier)
      throw new ApiError({
        type: "invalid_request_error",
        code: "campaign_already_resent",
        message: `This campaign was already resent to its non-openers (${earlier.id}); it can be resent once.`,
      });
    const { brandId, topicId, listId, previewText, html, text, document, includeInactive } = original;
    // In the original's workspace, which the actor was just shown to reach (an operator's system actor names none).
    const { campaignId: resendId } = await createCampaign(
      tx,
      systemActor("resend-to-non-openers", original.workspaceId),
      {
        brandId,
        topicId,
        listId,
        name: `${original.name} (non-openers)`.slice(0, 200),
        subject,
        previewText,
        html,
        text,
        includeInactive,
      },
      { document },
    );
    await tx.db.update(campaigns).set({ resendOf: original.id }).where(eq(campaigns.id, resendId));
    const at = new Date(original.sentAt!.getTime() + waitHours * HOUR_MS);
    if (at <= tx.clock.now()) return { campaignId: resendId, scheduledAt: null };
    await scheduleCampaign(tx, actor, resendId, at);
    return { campaignId: resendId, scheduledAt: at };
  });
}

/** The resend of a campaign and the campaign a resend is of, each with its name, for the campaign page. */
export async function resendLinks(
  ctx: Ctx,
  actor: Actor,
  campaign: Pick<CampaignRow, "id" | "resendOf">,
): Promise<{ resend: { id: string; name: string } | null; resendOf: { id: string; name: string } | null }> {
  const [resend] = await ctx.db
    .select({ id: campaigns.id, name: campaigns.name })
    .from(campaigns)
    .where(and(eq(campaigns.resendOf, campaign.id), inActorWorkspace(actor, campaigns.workspaceId)));
  const [resendOf] = campaign.resendOf
    ? await ctx.db
        .select({ id: campaigns.id, name: campaigns.name })
        .from(campaigns)
        .where(and(eq(campaigns.id, campaign.resendOf), inActorWorkspace(actor, campaigns.workspaceId)))
    : [];
  return { resend: resend ?? null, resendOf: resendOf ?? null };
}
