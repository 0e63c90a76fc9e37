import { and, eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { userActor } from "@/lib/actor";
import { sendCampaignNow } from "@/lib/campaigns/campaign-actions";
import { sendNextBatch } from "@/lib/campaigns/send-batch";
import { snapshotAudience } from "@/lib/campaigns/snapshot-audience";
import { campaigns, events, mailMessages, memberships, sends } from "@/lib/db/schema";
import { getMailTransport } from "@/lib/mail/get-mail-transport";
import { simulateOutcome } from "@/lib/mail/simulate-outcome";
import { seedBulkCampaign } from "@/lib/testing/dispatch-chaos";
import { testCtx } from "@/lib/testing/test-context";

import { campaignHealth } from "./campaign-health";

const { ctx } = testCtx();

describe("the guardrail and the test mailbox", () => {
  it("a campaign driven through the test mailbox's complaint button is warned, then stopped by the guardrail", async () => {
    const { workspaceId, campaignId } = await seedBulkCampaign(ctx, 900);
    const [campaign] = await ctx.db.select().from(campaigns).where(eq(campaigns.id, campaignId));
    const brandId = campaign!.brandId;
    const [owner] = await ctx.db.select().from(memberships).where(eq(memberships.workspaceId, workspaceId));
    const ownerUserId = owner!.userId;
    const member = userActor(ownerUserId, workspaceId);
    await sendCampaignNow(ctx, member, campaignId);
    await snapshotAudience(ctx, campaignId);
    // Dispatch's first two batches: 600 mails in the test mailbox, 300 still queued.
    const transport = getMailTransport();
    const first = await sendNextBatch(ctx, transport, { campaignId, size: 300, claimant: "run", after: null });
    await sendNextBatch(ctx, transport, { campaignId, size: 300, claimant: "run", after: first.next });
    const sent = await ctx.db
      .select({ id: sends.id })
      .from(sends)
      .where(and(eq(sends.campaignId, campaignId), eq(sends.state, "accepted")));
    expect(sent).toHaveLength(600);
    const inbox = await ctx.db
      .select({ id: mailMessages.id })
      .from(mailMessages)
      .where(
        inArray(
          mailMessages.idempotencyKey,
          sent.map((send) => send.id),
        ),
      )
      .orderBy(mailMessages.id);
    expect(inbox).toHaveLength(600);

    // Complained, pressed by the member in the test mailbox, one message after another.
    const status = async () =>
      (await ctx.db.select({ status: campaigns.status }).from(campaigns).where(eq(campaigns.id, campaignId)))[0]!
        .status;
    let pressed = 0;
    const verdicts: string[] = [];
    while ((await status()) === "sending") {
      await simulateOutcome(ctx, member, inbox[pressed]!.id, { type: "complained" });
      pressed++;
      verdicts.push((await campaignHealth(ctx, { id: campaignId, workspaceId, brandId })).campaign.judgement.verdict);
      if (pressed > 10) break;
    }
    // 1 in 600 is 0.17 % (a warning); 2 in 600, 0.33 %, stops it.
    expect(verdicts).toEqual(["warn", "stop"]);
    expect(await status()).toBe("paused");
    const [paused] = await ctx.db
      .select()
      .from(events)
      .where(and(eq(events.workspaceId, workspaceId), eq(events.type, "campaign.paused")));
    expect(paused!.data).toMatchObject({ campaign_id: campaignId, pause_reason: "complaint_rate" });
    // Dispatch finds it paused before its next batch: the other 300 wait for a person.
    expect(await sendNextBatch(ctx, transport, { campaignId, size: 300, claimant: "run", after: null })).toMatchObject({
      sent: 0,
      stopped: "paused",
    });
  });
});
