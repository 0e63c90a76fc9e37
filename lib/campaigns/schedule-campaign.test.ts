import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { systemActor } from "@/lib/actor";
import { upsertContact } from "@/lib/contacts/upsert-contact";
import { campaigns } from "@/lib/db/schema";
import { clearForSending } from "@/lib/testing/clear-for-sending";
import { seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import { scheduleCampaign } from "./campaign-actions";
import { createCampaign } from "./save-campaign";

const { ctx, clock } = testCtx();

describe("scheduling a campaign", () => {
  it("a campaign is scheduled only for a time in the future: the admin CLI's past time or the clock's now is refused on at, and it stays a draft", async () => {
    const { workspaceId, brandId } = await seedWorkspace(ctx);
    await clearForSending(ctx, workspaceId);
    const cli = systemActor("admin-cli");
    const topicId = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
    await upsertContact(ctx, systemActor("test", workspaceId), { email: "ann@example.com", topicIds: [topicId] });
    const { campaignId } = await createCampaign(ctx, systemActor("test", workspaceId), {
      brandId,
      topicId,
      name: "First",
      subject: "Hi",
      html: "<p>Hi</p>",
    });
    const refusal = { type: "invalid_request_error", code: "validation_failed", param: "at" };

    await expect(
      scheduleCampaign(ctx, cli, campaignId, new Date(clock.now().getTime() - 60_000)),
    ).rejects.toMatchObject(refusal);
    await expect(scheduleCampaign(ctx, cli, campaignId, clock.now())).rejects.toMatchObject(refusal);
    expect((await ctx.db.select().from(campaigns).where(eq(campaigns.id, campaignId)))[0]!.status).toBe("draft");

    const at = new Date(clock.now().getTime() + 60_000);
    expect(await scheduleCampaign(ctx, cli, campaignId, at)).toMatchObject({ status: "scheduled", scheduledAt: at });
  });
});
