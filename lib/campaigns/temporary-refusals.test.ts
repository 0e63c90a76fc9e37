import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { systemActor } from "@/lib/actor";
import { events, sends, suppressions } from "@/lib/db/schema";
import type { MailboxProvider } from "@/lib/deliverability/mailbox-provider";
import { smtpTransport } from "@/lib/mail/transports/smtp-transport";
import { recount } from "@/lib/testing/dispatch-chaos";
import { seedProviderCampaign } from "@/lib/testing/provider-campaign";
import { startSmtpCapture, type SmtpCapture } from "@/lib/testing/smtp-sink";
import { testCtx } from "@/lib/testing/test-context";

import { DEFERRAL_MINUTES, REFUSED_TOO_LONG } from "./defer-sends";
import { listProviderPaces, setProviderRate } from "./provider-pacing";
import { getProviderProgressOrThrow } from "./provider-progress";
import { sendNextBatch } from "./send-batch";

const { ctx, clock } = testCtx();
let smtp: SmtpCapture;

// A real SMTP server on loopback that answers 421 to every recipient at outlook.com, as Microsoft does when it throttles.
beforeAll(async () => {
  smtp = await startSmtpCapture((address) =>
    address.endsWith("@outlook.com") ? { code: 421, message: "4.7.500 Server busy. Please try again later" } : null,
  );
});
afterAll(() => smtp.close());

const FIVE = { "gmail.com": 90, "outlook.com": 90, "yahoo.com": 90, "icloud.com": 90, "shop.example": 90 };

async function statesOf(campaignId: string, provider: MailboxProvider) {
  const rows = await ctx.db.execute<{ state: string; n: number }>(
    sql`select state, count(*)::int as n from ${sends} where campaign_id = ${campaignId} and provider = ${provider} group by 1`,
  );
  return Object.fromEntries(rows.map((row) => [row.state, Number(row.n)]));
}

describe("temporary refusals", () => {
  it("a 421 from one domain's server puts its sends back with growing delays (shown per provider), never as a bounce, and fails them after the last", async () => {
    const { campaignId } = await seedProviderCampaign(ctx, { "outlook.com": 3, "gmail.com": 3 });
    const transport = smtpTransport({ url: smtp.url, maxConnections: 2 });
    const start = clock.now().getTime();
    const first = await sendNextBatch(ctx, transport, { campaignId, size: 50, claimant: "run", after: null });
    expect(first).toMatchObject({ sent: 3, failed: 0 });
    expect(await statesOf(campaignId, "gmail")).toEqual({ accepted: 3 });
    const deferred = await ctx.db
      .select()
      .from(sends)
      .where(and(eq(sends.campaignId, campaignId), eq(sends.provider, "microsoft")));
    expect(deferred.map((send) => [send.state, send.deferrals, send.notBefore?.getTime()])).toEqual(
      Array(3).fill(["queued", 1, start + 60_000]),
    );
    expect(deferred[0]!.failureReason).toMatch(/^421 /);
    // The campaign page says so per provider: "Microsoft: 3 deferred, retrying at …", and Microsoft's pace fell.
    const progress = await getProviderProgressOrThrow(ctx, systemActor("test", deferred[0]!.workspaceId), campaignId);
    expect(
      progress.map((row) => [row.label, row.accepted, row.deferred, row.retryAt?.getTime() ?? null, row.slowed]),
    ).toEqual([
      ["Gmail", 3, 0, null, false],
      ["Microsoft", 0, 3, start + 60_000, true],
    ]);
    // Each retry is refused again and waits longer: 5, 15, 60, 180, 360 minutes.
    let next: string | null = null;
    for (const minutes of DEFERRAL_MINUTES) {
      const waiting = await sendNextBatch(ctx, transport, { campaignId, size: 50, claimant: "run", after: next });
      expect(waiting).toMatchObject({ sent: 0, next: null });
      expect(new Date(waiting.wakeAt!).getTime() - clock.now().getTime()).toBe(minutes * 60_000);
      clock.set(new Date(waiting.wakeAt!));
      const retry = await sendNextBatch(ctx, transport, { campaignId, size: 50, claimant: "run", after: null });
      next = retry.next;
    }
    // Refused at every try: failed with its reason and announced, not bounced and not suppressed.
    const failed = await ctx.db
      .select()
      .from(sends)
      .where(and(eq(sends.campaignId, campaignId), eq(sends.provider, "microsoft")));
    expect(failed.map((send) => [send.state, send.failureReason, send.bouncedAt, send.bounceType])).toEqual(
      Array(3).fill(["failed", REFUSED_TOO_LONG, null, null]),
    );
    const [workspaceId] = [failed[0]!.workspaceId];
    expect(await ctx.db.select().from(suppressions).where(eq(suppressions.workspaceId, workspaceId))).toEqual([]);
    const announced = await ctx.db
      .select({ type: events.type })
      .from(events)
      .where(and(eq(events.workspaceId, workspaceId), sql`${events.type} in ('email.failed', 'email.bounced')`));
    expect(announced.map((event) => event.type)).toEqual(Array(3).fill("email.failed"));
    expect(smtp.received.filter((mail) => mail.to[0]!.endsWith("@outlook.com"))).toEqual([]);
    // Every kept counter (campaign, workspace, allowance) still equals its recount from the sends.
    expect(await recount(ctx, workspaceId, campaignId)).toEqual([]);
    await transport.close();
  });

  it("a campaign across five providers, one answering 421 to everything, still delivers the other four at their full rate", async () => {
    const { workspaceId, campaignId } = await seedProviderCampaign(ctx, FIVE);
    const actor = systemActor("test", workspaceId);
    const RATE = 60;
    for (const provider of ["gmail", "microsoft", "yahoo", "apple", "other"])
      await setProviderRate(ctx, actor, { provider, ratePerMinute: RATE });
    const transport = smtpTransport({ url: smtp.url, maxConnections: 4 });
    const start = clock.now().getTime();
    const acceptedAt = new Map<string, number[]>();
    let next: string | null = null;
    // The dispatch loop as the workflow runs it, its sleeps on the test clock, until the four are delivered.
    while (Object.values(await statesOf(campaignId, "gmail")).length > 0) {
      const result = await sendNextBatch(ctx, transport, { campaignId, size: 50, claimant: "run", after: next });
      next = result.next;
      if (result.next === null) {
        if (!result.wakeAt) break;
        clock.set(new Date(result.wakeAt));
      }
      const done = await ctx.db.execute<{ provider: string; n: number }>(
        sql`select provider, count(*)::int as n from ${sends} where campaign_id = ${campaignId} and state = 'accepted' group by 1`,
      );
      for (const row of done) {
        const times = acceptedAt.get(row.provider) ?? [];
        if (Number(row.n) > times.length)
          times.push(...Array(Number(row.n) - times.length).fill(clock.now().getTime()));
        acceptedAt.set(row.provider, times);
      }
      if (["gmail", "yahoo", "apple", "other"].every((p) => (acceptedAt.get(p)?.length ?? 0) === 90)) break;
    }
    await transport.close();
    // After the first minute's worth at once, each of the four goes at its rate: 30 more in the next 30 s.
    const rates = Object.fromEntries(
      ["gmail", "yahoo", "apple", "other"].map((provider) => {
        const times = acceptedAt.get(provider)!;
        const minutes = (Math.max(...times) - start) / 60_000;
        return [provider, Math.round((times.length - RATE) / minutes)];
      }),
    );
    console.log(
      `five providers, Microsoft answering 421: ${Object.entries(rates)
        .map(([provider, rate]) => `${provider} ${rate}/min`)
        .join(
          ", ",
        )} (rate set: ${RATE}/min each, after a minute's worth at once); microsoft ${JSON.stringify(await statesOf(campaignId, "microsoft"))}`,
    );
    for (const rate of Object.values(rates)) expect(rate).toBeGreaterThanOrEqual(RATE * 0.9);
    for (const rate of Object.values(rates)) expect(rate).toBeLessThanOrEqual(RATE * 1.1);
    // Microsoft delivered nothing, its sends wait, and its own pace fell.
    expect(await statesOf(campaignId, "microsoft")).toEqual({ queued: 90 });
    const microsoft = (await listProviderPaces(ctx, actor)).find((pace) => pace.provider === "microsoft")!;
    expect(microsoft).toMatchObject({ slowed: true });
    expect(microsoft.currentRate).toBeLessThan(RATE);
  });
});
