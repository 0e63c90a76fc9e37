import { eq } from "drizzle-orm";

import { systemActor } from "@/lib/actor";
import { completeCampaign } from "@/lib/campaigns/complete-campaign";
import { createCampaign } from "@/lib/campaigns/save-campaign";
import { snapshotAudience } from "@/lib/campaigns/snapshot-audience";
import { upsertContact } from "@/lib/contacts/upsert-contact";
import type { Ctx } from "@/lib/context";
import { campaigns, sends } from "@/lib/db/schema";

import { clearForSending } from "./clear-for-sending";
import { setSendAllowance } from "./factories";

/**
 * A campaign sent now (the clock's time) by a paying workspace to these
 * addresses, each subscribed to the topic first: audience snapshotted, every send accepted, campaign
 * completed. Returns the send ids by address.
 */
export async function seedSentCampaign(
  ctx: Ctx,
  opts: { workspaceId: string; brandId: string; topicId: string; name?: string; subject?: string; emails: string[] },
) {
  const actor = systemActor("test", opts.workspaceId);
  // A paying workspace: a trial that ended on the test's clock would hold the campaign back.
  await setSendAllowance(ctx, opts.workspaceId, 1_000_000);
  // Out of the sandbox: a campaign whose mail was accepted went to people the workspace may mail.
  await clearForSending(ctx, opts.workspaceId);
  for (const email of opts.emails) {
    await upsertContact(ctx, actor, { email, topicIds: [opts.topicId] });
  }
  const { campaignId } = await createCampaign(ctx, actor, {
    brandId: opts.brandId,
    topicId: opts.topicId,
    name: opts.name ?? "Launch",
    subject: opts.subject ?? "Hello",
    html: "<p>Hi</p>",
  });
  await ctx.db.update(campaigns).set({ status: "sending" }).where(eq(campaigns.id, campaignId));
  await snapshotAudience(ctx, campaignId);
  const rows = await ctx.db
    .update(sends)
    .set({ state: "accepted", acceptedAt: ctx.clock.now() })
    .where(eq(sends.campaignId, campaignId))
    .returning({ id: sends.id, email: sends.email, contactId: sends.contactId });
  await completeCampaign(ctx, campaignId);
  return {
    campaignId,
    sendIds: Object.fromEntries(rows.map((r) => [r.email, r.id])) as Record<string, string>,
    contactIds: Object.fromEntries(rows.map((r) => [r.email, r.contactId])) as Record<string, string>,
  };
}
