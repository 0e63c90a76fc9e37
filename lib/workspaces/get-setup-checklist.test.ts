import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { systemActor, userActor } from "@/lib/actor";
import { createCampaign } from "@/lib/campaigns/save-campaign";
import { sendNextBatch } from "@/lib/campaigns/send-batch";
import { snapshotAudience } from "@/lib/campaigns/snapshot-audience";
import { upsertContact } from "@/lib/contacts/upsert-contact";
import { campaigns, verifiedAddresses } from "@/lib/db/schema";
import { getMailTransport } from "@/lib/mail/get-mail-transport";
import { seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import { getSetupChecklist } from "./get-setup-checklist";

const { ctx, clock } = testCtx();

/** Starts a campaign to the topic as dispatch does, and sends every batch. */
async function dispatch(campaignId: string) {
  await ctx.db.update(campaigns).set({ status: "sending" }).where(eq(campaigns.id, campaignId));
  await snapshotAudience(ctx, campaignId);
  let after: string | null = null;
  do
    after = (await sendNextBatch(ctx, getMailTransport(), { campaignId, size: 10, claimant: "checklist-test", after }))
      .next;
  while (after);
}

describe("the setup checklist", () => {
  it("'Send a first campaign' is done only once a mail of a campaign was accepted: not for a draft, nor for a campaign that reached nobody", async () => {
    const { workspaceId, brandId, ownerUserId } = await seedWorkspace(ctx);
    const owner = userActor(ownerUserId, workspaceId);
    const actor = systemActor("test", workspaceId);
    const topicId = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
    await upsertContact(ctx, actor, { email: "stranger@example.com", topicIds: [topicId] });
    const content = { brandId, topicId, name: "First", subject: "Hi", html: "<p>Hi</p>" };

    const draft = await createCampaign(ctx, actor, content);
    expect((await getSetupChecklist(ctx, owner)).campaign).toBe(false);

    // In the sandbox the only subscriber is not a verified address: the campaign goes out to nobody.
    await dispatch(draft.campaignId);
    expect((await getSetupChecklist(ctx, owner)).campaign).toBe(false);

    await ctx.db
      .insert(verifiedAddresses)
      .values({ workspaceId, email: "stranger@example.com", verifiedAt: clock.now() });
    await dispatch((await createCampaign(ctx, actor, content)).campaignId);
    expect((await getSetupChecklist(ctx, owner)).campaign).toBe(true);
  });
});
