import "server-only";

import { eq, sql, type SQL } from "drizzle-orm";

import type { Ctx } from "@/lib/context";
import { campaigns } from "@/lib/db/schema";

import { sendsOfCampaign } from "./send-id-range";

type CampaignRow = typeof campaigns.$inferSelect;

/**
 * The recipients of a resend's original, as `contact_id` and `human_opened_at` (null for who has not
 * opened it): its sends handed to the provider. Null for a campaign that is no resend. A resend whose
 * original is gone has nobody to send to.
 */
export async function originalRecipients(ctx: Ctx, campaign: Pick<CampaignRow, "resendOf">): Promise<SQL | null> {
  if (!campaign.resendOf) return null;
  const [original] = await ctx.db
    .select({ id: campaigns.id, sendIdPrefix: campaigns.sendIdPrefix, recipientCount: campaigns.recipientCount })
    .from(campaigns)
    .where(eq(campaigns.id, campaign.resendOf));
  if (!original) return sql`select null::text as contact_id, null::timestamptz as human_opened_at where false`;
  return sql`select contact_id, human_opened_at from sends where ${sendsOfCampaign(original)} and state = 'accepted'`;
}
