import { eq } from "drizzle-orm";

import { systemActor } from "@/lib/actor";
import { createCampaign } from "@/lib/campaigns/save-campaign";
import { snapshotAudience } from "@/lib/campaigns/snapshot-audience";
import { upsertContact } from "@/lib/contacts/upsert-contact";
import type { Ctx } from "@/lib/context";
import { campaigns, sends } from "@/lib/db/schema";
import { clearForSending } from "@/lib/testing/clear-for-sending";

import { seedTopic, seedWorkspace } from "./factories";

/** A sent-to recipient: a campaign whose audience was snapshotted, with one accepted send. */
export async function seedAcceptedSend(ctx: Ctx, email = "recipient@example.com") {
  const { workspaceId, brandId } = await seedWorkspace(ctx);
  await clearForSending(ctx, workspaceId);
  const topicId = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
  const actor = systemActor("test", workspaceId);
  const { contact } = await upsertContact(ctx, actor, { email, firstName: "R", topicIds: [topicId] });
  const { campaignId } = await createCampaign(ctx, actor, {
    brandId,
    topicId,
    name: "Launch",
    subject: "Hi",
    html: "<p>Hi</p>",
  });
  await ctx.db.update(campaigns).set({ status: "sending" }).where(eq(campaigns.id, campaignId));
  await snapshotAudience(ctx, campaignId);
  const [send] = await ctx.db
    .update(sends)
    .set({ state: "accepted", providerMessageId: `re_${contact.id}`, acceptedAt: ctx.clock.now() })
    .where(eq(sends.campaignId, campaignId))
    .returning();
  return { workspaceId, campaignId, contactId: contact.id, send: send! };
}
