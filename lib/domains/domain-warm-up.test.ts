import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { systemActor } from "@/lib/actor";
import { claimBatch } from "@/lib/campaigns/claim-batch";
import { createCampaign } from "@/lib/campaigns/save-campaign";
import { sendNextBatch } from "@/lib/campaigns/send-batch";
import { snapshotAudience } from "@/lib/campaigns/snapshot-audience";
import type { Ctx } from "@/lib/context";
import { campaigns, domainWarmUpDays, sends } from "@/lib/db/schema";
import { getMailTransport } from "@/lib/mail/get-mail-transport";
import { seedBulkCampaign } from "@/lib/testing/dispatch-chaos";
import { testCtx } from "@/lib/testing/test-context";

import { campaignSendingDomain, warmUpToday } from "./domain-warm-up";
import { heldDeliverabilityRates } from "./warm-up-rates";
import { nextWarmUpDayStart, WARM_UP_SCHEDULE, warmUpCapOf } from "./warm-up-schedule";
import { setDomainWarmUp, showDomainWarmUp } from "./warm-up-settings";

const { ctx, clock } = testCtx(new Date("2026-12-01T09:00:00.000Z"));
const transport = getMailTransport();
const DAY = 86_400_000;

/** A workspace whose ready domain has warm-up on, and a campaign of `recipients` snapshotted and sending. */
async function warmingCampaign(recipients: number, warmUp = true) {
  const { workspaceId, campaignId } = await seedBulkCampaign(ctx, recipients);
  const [campaign] = await ctx.db.select().from(campaigns).where(eq(campaigns.id, campaignId));
  const domain = (await campaignSendingDomain(ctx, campaign!))!;
  await setDomainWarmUp(ctx, systemActor("test", workspaceId), { domainId: domain.id, enabled: warmUp });
  await startSending(ctx, campaignId);
  return { workspaceId, campaignId, campaign: campaign!, domain: { ...domain, warmUp } };
}

async function startSending(c: Ctx, campaignId: string) {
  await c.db.update(campaigns).set({ status: "sending" }).where(eq(campaigns.id, campaignId));
  await snapshotAudience(c, campaignId);
}

const batch = (campaignId: string, claimant = "run-1") =>
  sendNextBatch(ctx, transport, { campaignId, size: 5_000, claimant, after: null });

describe("warm-up of a sending domain", () => {
  it("default schedule: 50, 100, 500, 1,000, 5,000, 10,000, 20,000, 40,000 a day, then no cap", () => {
    expect(WARM_UP_SCHEDULE).toEqual([50, 100, 500, 1_000, 5_000, 10_000, 20_000, 40_000, null]);
    expect(warmUpCapOf(0)).toBe(50);
    expect(warmUpCapOf(8)).toBeNull();
    expect(warmUpCapOf(12)).toBeNull();
    // Days are UTC days: a capped campaign goes on at the next midnight UTC.
    expect(nextWarmUpDayStart(new Date("2026-12-01T23:59:59.000Z")).toISOString()).toBe("2026-12-02T00:00:00.000Z");
  });

  it("a day held the rates when complaints stay under 0.3 % and hard bounces under 5 % of delivered, judged only from 500 delivered", () => {
    expect(heldDeliverabilityRates({ delivered: 499, complained: 100, hardBounced: 100 })).toBe(true);
    expect(heldDeliverabilityRates({ delivered: 1_000, complained: 2, hardBounced: 49 })).toBe(true);
    expect(heldDeliverabilityRates({ delivered: 1_000, complained: 3, hardBounced: 0 })).toBe(false);
    expect(heldDeliverabilityRates({ delivered: 1_000, complained: 0, hardBounced: 50 })).toBe(false);
  });

  it("the day's cap is shared by every campaign of the domain: together they claim no more than it", async () => {
    const { workspaceId, campaign, campaignId, domain } = await warmingCampaign(40);
    const { campaignId: secondId } = await createCampaign(ctx, systemActor("test", workspaceId), {
      brandId: campaign.brandId,
      topicId: campaign.topicId,
      name: "Second",
      subject: "Hi",
      html: "<p>Hi</p>",
    });
    await startSending(ctx, secondId);
    expect(await batch(campaignId)).toMatchObject({ sent: 40 });
    const second = await batch(secondId);
    expect(second.sent).toBe(10);
    // The cap is used; the rest waits (held, not done).
    expect(await batch(secondId)).toMatchObject({ sent: 0, heldElsewhere: true });
    expect(await warmUpToday(ctx, domain)).toMatchObject({ stage: 0, cap: 50, used: 50 });
  });

  it("sends claimed again after a crash are not counted twice against the day's cap", async () => {
    const { campaignId, domain } = await warmingCampaign(30);
    const claimed = await claimBatch(ctx, { campaignId, size: 20, claimant: "run-1", after: null });
    // The run died before sending: it resumes with the same batch, which takes the same sends.
    const again = await claimBatch(ctx, { campaignId, size: 20, claimant: "run-1", after: null });
    expect("rows" in again && again.rows.map((r) => r.id)).toEqual("rows" in claimed && claimed.rows.map((r) => r.id));
    expect((await warmUpToday(ctx, domain)).used).toBe(20);
  });

  it("warm-up off: no daily cap, nothing counted", async () => {
    const { campaignId, domain } = await warmingCampaign(80, false);
    expect(await batch(campaignId)).toMatchObject({ sent: 80 });
    const rows = await ctx.db.select().from(domainWarmUpDays).where(eq(domainWarmUpDays.domainId, domain.id));
    expect(rows).toEqual([]);
    expect(await showDomainWarmUp(ctx, systemActor("test", domain.workspaceId), domain.id)).toMatchObject({
      enabled: false,
      cap: null,
      used: 0,
    });
  });

  it("the stage advances only after a day that sent and held the rates; a quiet day or a day that broke them keeps it", async () => {
    const start = new Date("2026-12-10T09:00:00.000Z");
    const day = (n: number) => ({ ...ctx, clock: { now: () => new Date(start.getTime() + n * DAY) } });
    const stageOn = async (n: number, domain: Awaited<ReturnType<typeof warmingCampaign>>["domain"]) =>
      (await warmUpToday(day(n), domain)).stage;

    const held = await warmingCampaign(60);
    clock.set(start);
    expect(await stageOn(0, held.domain)).toBe(0);
    expect(await batch(held.campaignId)).toMatchObject({ sent: 50 });
    // Day 1: one step up. It sends nothing: day 2 is still at that step.
    expect(await stageOn(1, held.domain)).toBe(1);
    expect(await stageOn(2, held.domain)).toBe(1);

    // Two domains at 1,000 a day (stage 3) send 510 each on day 0; one gets 1 complaint (0.2 %), the other 2 (0.39 %).
    const outcome = async (complaints: number) => {
      const w = await warmingCampaign(510);
      await ctx.db.insert(domainWarmUpDays).values({ domainId: w.domain.id, day: "2026-12-08", stage: 2, used: 500 });
      clock.set(start);
      expect(await batch(w.campaignId)).toMatchObject({ sent: 510 });
      const sent = await ctx.db.select({ id: sends.id }).from(sends).where(eq(sends.campaignId, w.campaignId));
      // What the provider reported later that day: every mail delivered, some complained about.
      await ctx.db
        .update(sends)
        .set({ deliveredAt: new Date(start.getTime() + 60_000) })
        .where(eq(sends.campaignId, w.campaignId));
      await ctx.db
        .update(sends)
        .set({ complainedAt: new Date(start.getTime() + 120_000) })
        .where(
          inArray(
            sends.id,
            sent.slice(0, complaints).map((s) => s.id),
          ),
        );
      return { before: (await warmUpToday(day(0), w.domain)).stage, after: await stageOn(1, w.domain) };
    };
    expect(await outcome(1)).toEqual({ before: 3, after: 4 });
    expect(await outcome(2)).toEqual({ before: 3, after: 3 });
  });
});
