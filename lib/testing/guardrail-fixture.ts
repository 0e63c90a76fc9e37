import { asc, eq, sql } from "drizzle-orm";

import { systemActor } from "@/lib/actor";
import { createCampaign } from "@/lib/campaigns/save-campaign";
import type { Ctx } from "@/lib/context";
import { campaigns, sends } from "@/lib/db/schema";
import { recordProviderEvent } from "@/lib/deliverability/record-provider-event";

/**
 * A campaign of the brand that has handed `accepted` mails to the provider, written as dispatch leaves
 * them (the report counters follow from the sends' triggers). The harm then arrives as providers report it.
 */
export async function sendingCampaign(
  c: Ctx,
  tenant: { workspaceId: string; brandId: string; topicId: string },
  accepted: number,
  name = "Spring sale",
) {
  const actor = systemActor("test", tenant.workspaceId);
  const { campaignId } = await createCampaign(c, actor, {
    brandId: tenant.brandId,
    topicId: tenant.topicId,
    name,
    subject: "Hi",
    html: "<p>Hi</p>",
  });
  const now = c.clock.now();
  await c.db
    .update(campaigns)
    .set({ status: "sending", sentAt: now, recipientCount: accepted })
    .where(eq(campaigns.id, campaignId));
  await c.db.execute(sql`
    INSERT INTO sends (id, workspace_id, campaign_id, contact_id, email, state, accepted_at)
    SELECT ${campaignId} || '_' || lpad(i::text, 6, '0'), ${tenant.workspaceId}, ${campaignId}, 'cnt_' || i,
      'r' || i || '@example.com', 'accepted', ${now.toISOString()}::timestamptz
    FROM generate_series(1, ${accepted}) AS i`);
  const ids = (
    await c.db.select({ id: sends.id }).from(sends).where(eq(sends.campaignId, campaignId)).orderBy(asc(sends.id))
  ).map((row) => row.id);
  let next = 0;
  /** A provider reports the next `count` sends as complained, or as bounced with this type. */
  const report = async (count: number, outcome: "complained" | "permanent" | "transient") => {
    for (const sendId of ids.slice(next, next + count)) {
      await recordProviderEvent(
        c,
        outcome === "complained"
          ? { type: "complained", sendId, occurredAt: c.clock.now() }
          : { type: "bounced", bounceType: outcome, sendId, occurredAt: c.clock.now() },
      );
    }
    next += count;
  };
  return { campaignId, report };
}
