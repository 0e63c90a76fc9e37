import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { systemActor } from "@/lib/actor";
import { sends } from "@/lib/db/schema";
import { getMailTransport } from "@/lib/mail/get-mail-transport";
import { seedProviderCampaign } from "@/lib/testing/provider-campaign";
import { testCtx } from "@/lib/testing/test-context";

import { listProviderPaces, RECOVERY_MINUTES, setProviderRate, slowProvider } from "./provider-pacing";
import { sendNextBatch } from "./send-batch";

const { ctx, clock } = testCtx();

async function claimedByProvider(campaignId: string, state: string) {
  const rows = await ctx.db.execute<{ provider: string; n: number }>(
    sql`select provider, count(*)::int as n from ${sends} where campaign_id = ${campaignId} and state = ${state} group by 1`,
  );
  return Object.fromEntries(rows.map((row) => [row.provider, Number(row.n)]));
}

describe("pacing per mailbox provider", () => {
  it("a batch takes each provider up to its rate, and a provider out of budget does not hold back the others", async () => {
    // Gmail's recipients come first in key order: a claim in plain id order would fill the batch with them.
    const { workspaceId, campaignId } = await seedProviderCampaign(ctx, {
      "gmail.com": 40,
      "outlook.com": 5,
      "yahoo.com": 5,
      "icloud.com": 5,
      "shop.example": 5,
    });
    const actor = systemActor("test", workspaceId);
    await setProviderRate(ctx, actor, { provider: "gmail", ratePerMinute: 10 });
    const transport = getMailTransport();
    const batch = (after: string | null) =>
      sendNextBatch(ctx, transport, { campaignId, size: 30, claimant: "run", after });
    const first = await batch(null);
    expect(first.sent).toBe(30);
    expect(await claimedByProvider(campaignId, "accepted")).toEqual({
      gmail: 10,
      microsoft: 5,
      yahoo: 5,
      apple: 5,
      other: 5,
    });
    // Only Gmail is left and its bucket is empty: nothing now, and dispatch is told when ten seconds' worth is back.
    const second = await batch(first.next);
    expect(second).toMatchObject({ sent: 0, next: null, heldElsewhere: false });
    expect(second.wakeAt).toBe(new Date(clock.now().getTime() + 12_000).toISOString());
    clock.advance(6_000);
    expect(await batch(null)).toMatchObject({ sent: 0 });
    clock.advance(54_000);
    const third = await batch(null);
    expect(third.sent).toBe(10);
    expect(await claimedByProvider(campaignId, "accepted")).toMatchObject({ gmail: 20 });
  });

  it("a provider whose sends all wait for their retry does not stall the others", async () => {
    const { campaignId } = await seedProviderCampaign(ctx, { "outlook.com": 20, "gmail.com": 5, "yahoo.com": 5 });
    // Every Microsoft send was refused and waits ten minutes.
    await ctx.db
      .update(sends)
      .set({ notBefore: new Date(clock.now().getTime() + 10 * 60_000), deferrals: 2 })
      .where(sql`${sends.campaignId} = ${campaignId} and ${sends.provider} = 'microsoft'`);
    const transport = getMailTransport();
    const first = await sendNextBatch(ctx, transport, { campaignId, size: 50, claimant: "run", after: null });
    expect(first.sent).toBe(10);
    expect(await claimedByProvider(campaignId, "accepted")).toEqual({ gmail: 5, yahoo: 5 });
    const second = await sendNextBatch(ctx, transport, { campaignId, size: 50, claimant: "run", after: first.next });
    expect(second).toMatchObject({
      sent: 0,
      next: null,
      wakeAt: new Date(clock.now().getTime() + 10 * 60_000).toISOString(),
    });
  });

  it("each batch a provider refuses in halves its rate, down to a sixteenth, and the rate doubles back every 10 minutes without a refusal", async () => {
    const { workspaceId } = await seedProviderCampaign(ctx, { "yahoo.com": 1 });
    const actor = systemActor("test", workspaceId);
    const yahoo = async () => (await listProviderPaces(ctx, actor)).find((pace) => pace.provider === "yahoo")!;
    expect((await yahoo()).currentRate).toBe(1800);
    await slowProvider(ctx, workspaceId, "yahoo", 3, clock.now());
    expect(await yahoo()).toMatchObject({ currentRate: 900, slowed: true, refusals: 3 });
    await slowProvider(ctx, workspaceId, "yahoo", 1, clock.now());
    expect((await yahoo()).currentRate).toBe(450);
    for (let i = 0; i < 5; i++) await slowProvider(ctx, workspaceId, "yahoo", 1, clock.now());
    expect((await yahoo()).currentRate).toBe(Math.round(1800 / 16));
    clock.advance(RECOVERY_MINUTES * 60_000);
    expect((await yahoo()).currentRate).toBe(1800 / 8);
    clock.advance(3 * RECOVERY_MINUTES * 60_000);
    expect(await yahoo()).toMatchObject({ currentRate: 1800, slowed: false });
  });

  it("a workspace's own rate replaces the default, and null goes back to it; other workspaces keep theirs", async () => {
    const a = await seedProviderCampaign(ctx, { "gmail.com": 1 });
    const b = await seedProviderCampaign(ctx, { "gmail.com": 1 });
    const gmail = async (workspaceId: string) =>
      (await listProviderPaces(ctx, systemActor("test", workspaceId))).find((pace) => pace.provider === "gmail")!;
    await setProviderRate(ctx, systemActor("test", a.workspaceId), { provider: "gmail", ratePerMinute: 500 });
    expect(await gmail(a.workspaceId)).toMatchObject({ chosenRate: 500, currentRate: 500, defaultRate: 3000 });
    expect(await gmail(b.workspaceId)).toMatchObject({ chosenRate: null, currentRate: 3000 });
    await setProviderRate(ctx, systemActor("test", a.workspaceId), { provider: "gmail", ratePerMinute: null });
    expect((await gmail(a.workspaceId)).currentRate).toBe(3000);
    await expect(
      setProviderRate(ctx, systemActor("test", a.workspaceId), { provider: "hotmail", ratePerMinute: 5 }),
    ).rejects.toMatchObject({ code: "validation_failed", param: "provider" });
    await expect(
      setProviderRate(ctx, systemActor("test", a.workspaceId), { provider: "gmail", ratePerMinute: 0 }),
    ).rejects.toMatchObject({ code: "validation_failed", param: "ratePerMinute" });
    expect((await ctx.db.select().from(sends).where(eq(sends.campaignId, a.campaignId))).length).toBe(1);
  });
});
