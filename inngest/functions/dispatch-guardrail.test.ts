import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { functions } from "@/inngest";
import { inngest, routeEmbeddedEvents } from "@/inngest/client";
import { createEmbeddedExecutor } from "@/inngest/embedded/executor";
import { setWorkflowCtx } from "@/inngest/workflow-ctx";
import { systemActor } from "@/lib/actor";
import { sendCampaignNow } from "@/lib/campaigns/campaign-actions";
import { createCampaign } from "@/lib/campaigns/save-campaign";
import { upsertContact } from "@/lib/contacts/upsert-contact";
import { campaigns } from "@/lib/db/schema";
import { overrideEnvForTests, reloadEnv } from "@/lib/env";
import { listMailbox } from "@/lib/mail/list-mailbox";
import { clearForSending } from "@/lib/testing/clear-for-sending";
import { seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { sendingCampaign } from "@/lib/testing/guardrail-fixture";
import { testCtx } from "@/lib/testing/test-context";

const { ctx, clock } = testCtx(new Date(Date.now() + 60 * 60_000));
const executor = createEmbeddedExecutor({ client: inngest, functions });
beforeAll(() => {
  setWorkflowCtx(ctx);
  routeEmbeddedEvents((sent) => executor.enqueue(ctx, sent));
});
afterAll(() => {
  setWorkflowCtx(undefined);
  reloadEnv();
});

describe("the guardrail in dispatch", () => {
  it("after each batch dispatch checks the campaign and its brand's last 24 hours: past the stop it pauses before the next batch", async () => {
    overrideEnvForTests({ DISPATCH_BATCH_SIZE: "2", DISPATCH_BATCH_PAUSE_MS: "1000" });
    const { workspaceId, brandId } = await seedWorkspace(ctx);
    await clearForSending(ctx, workspaceId);
    const topicId = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
    const actor = systemActor("test", workspaceId);
    // Earlier today, another campaign of the brand drew complaints from 0.5 % of its 1,000 recipients.
    const earlier = await sendingCampaign(ctx, { workspaceId, brandId, topicId }, 1000, "Earlier");
    await earlier.report(5, "complained");
    for (let i = 0; i < 6; i++)
      await upsertContact(ctx, actor, { email: `reader${i}@example.com`, topicIds: [topicId] });
    const { campaignId } = await createCampaign(ctx, actor, {
      brandId,
      topicId,
      name: "Next",
      subject: "Hi",
      html: "<p>Hi</p>",
    });
    await sendCampaignNow(ctx, actor, campaignId);
    for (let i = 0; i < 10; i++) {
      clock.advance(1000);
      await executor.runDue(ctx);
    }
    // The first batch went; the brand's figures (5 complaints in 1,002 delivered) stopped the rest.
    expect(await listMailbox(ctx, actor, { limit: 100 })).toHaveLength(2);
    const [campaign] = await ctx.db.select().from(campaigns).where(eq(campaigns.id, campaignId));
    expect(campaign!.status).toBe("paused");
  });
});
