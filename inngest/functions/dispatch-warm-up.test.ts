import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { functions } from "@/inngest";
import { inngest, routeEmbeddedEvents } from "@/inngest/client";
import { createEmbeddedExecutor } from "@/inngest/embedded/executor";
import { setWorkflowCtx } from "@/inngest/workflow-ctx";
import { systemActor } from "@/lib/actor";
import { sendCampaignNow } from "@/lib/campaigns/campaign-actions";
import { showCampaign } from "@/lib/campaigns/show-campaign";
import { campaignWarmUpWait } from "@/lib/campaigns/warm-up-wait";
import { campaigns } from "@/lib/db/schema";
import { campaignSendingDomain, warmUpToday } from "@/lib/domains/domain-warm-up";
import { nextWarmUpDayStart } from "@/lib/domains/warm-up-schedule";
import { setDomainWarmUp } from "@/lib/domains/warm-up-settings";
import { seedBulkCampaign } from "@/lib/testing/dispatch-chaos";
import { testCtx } from "@/lib/testing/test-context";

// Noon UTC tomorrow: ahead of the real clock (as dispatch tests run), and far from a day's edge.
const DAY = 86_400_000;
const { ctx, clock } = testCtx(new Date(Math.floor(Date.now() / DAY) * DAY + DAY + DAY / 2));
const executor = createEmbeddedExecutor({ client: inngest, functions });
beforeAll(() => {
  setWorkflowCtx(ctx);
  routeEmbeddedEvents((sent) => executor.enqueue(ctx, sent));
});
afterAll(() => setWorkflowCtx(undefined));

async function drain(times = 10) {
  for (let i = 0; i < times; i++) {
    clock.advance(1000);
    await executor.runDue(ctx);
  }
}

describe("dispatch under a domain's warm-up", () => {
  it("a campaign larger than the day's cap sends the cap today, says on its page that it waits, and sends the rest the next UTC day by itself", async () => {
    const { workspaceId, campaignId } = await seedBulkCampaign(ctx, 70);
    const actor = systemActor("test", workspaceId);
    const [campaign] = await ctx.db.select().from(campaigns).where(eq(campaigns.id, campaignId));
    const domain = (await campaignSendingDomain(ctx, campaign!))!;
    await setDomainWarmUp(ctx, actor, { domainId: domain.id, enabled: true });

    await sendCampaignNow(ctx, actor, campaignId);
    await drain();
    const today = await showCampaign(ctx, actor, campaignId);
    expect(today.campaign.status).toBe("sending");
    expect(today.counts).toMatchObject({ recipients: 70, accepted: 50 });
    const midnight = nextWarmUpDayStart(clock.now());
    expect(await campaignWarmUpWait(ctx, actor, campaignId)).toMatchObject({
      hostname: domain.hostname,
      used: 50,
      cap: 50,
      until: midnight,
    });
    // Nothing more goes out before midnight, however long the run is asked.
    clock.set(new Date(midnight.getTime() - 60_000));
    await executor.runDue(ctx);
    expect((await showCampaign(ctx, actor, campaignId)).counts).toMatchObject({ accepted: 50 });

    clock.set(midnight);
    await drain();
    const next = await showCampaign(ctx, actor, campaignId);
    expect(next.campaign).toMatchObject({ status: "sent", waitingUntil: null, waitingReason: null });
    expect(next.counts).toMatchObject({ recipients: 70, accepted: 70 });
    expect(await campaignWarmUpWait(ctx, actor, campaignId)).toBeNull();
    // The first day sent and held the rates: the second is at 100, of which this campaign used 20.
    expect(await warmUpToday(ctx, { ...domain, warmUp: true })).toMatchObject({ stage: 1, cap: 100, used: 20 });
  });
});
