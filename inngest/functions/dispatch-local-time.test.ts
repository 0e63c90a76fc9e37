import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { functions } from "@/inngest";
import { inngest, routeEmbeddedEvents } from "@/inngest/client";
import { createEmbeddedExecutor } from "@/inngest/embedded/executor";
import { setWorkflowCtx } from "@/inngest/workflow-ctx";
import { systemActor } from "@/lib/actor";
import { cancelCampaign, pauseCampaign, resumeCampaign } from "@/lib/campaigns/campaign-actions";
import { scheduleCampaignAtLocalTime } from "@/lib/campaigns/local-time-schedule";
import { getLocalTimeSlices } from "@/lib/campaigns/local-time-slices";
import { createCampaign } from "@/lib/campaigns/save-campaign";
import { upsertContact } from "@/lib/contacts/upsert-contact";
import { campaigns, sends } from "@/lib/db/schema";
import { listMailbox } from "@/lib/mail/list-mailbox";
import { clearForSending } from "@/lib/testing/clear-for-sending";
import { seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";
import { updateWorkspaceTimeZone } from "@/lib/workspaces/workspace-time-zone";

// Friday 9 January 2026, noon UTC: the campaigns below go out on Saturday the 10th, in winter time.
const { ctx, clock } = testCtx(new Date("2026-01-09T12:00:00.000Z"));
const executor = createEmbeddedExecutor({ client: inngest, functions });
beforeAll(() => {
  setWorkflowCtx(ctx);
  routeEmbeddedEvents((sent) => executor.enqueue(ctx, sent));
});
afterAll(() => setWorkflowCtx(undefined));

const DAY = { date: "2026-01-10", time: "09:00" };
const BERLIN = new Date("2026-01-10T08:00:00.000Z");
const LONDON = new Date("2026-01-10T09:00:00.000Z");
const NEW_YORK = new Date("2026-01-10T14:00:00.000Z");

/** Recipients in Berlin, Paris and Lagos (one offset in January), New York, and one without a zone. */
async function audience(workspaceZone?: string) {
  const { workspaceId, brandId } = await seedWorkspace(ctx);
  await clearForSending(ctx, workspaceId);
  const actor = systemActor("test", workspaceId);
  if (workspaceZone) await updateWorkspaceTimeZone(ctx, actor, { timeZone: workspaceZone });
  const topicId = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
  const people: [string, string | null][] = [
    ["berlin@example.com", "Europe/Berlin"],
    ["paris@example.com", "europe/paris"],
    ["lagos@example.com", "Africa/Lagos"],
    ["newyork@example.com", "America/New_York"],
    ["nozone@example.com", null],
  ];
  for (const [email, timeZone] of people) await upsertContact(ctx, actor, { email, timeZone, topicIds: [topicId] });
  const { campaignId } = await createCampaign(ctx, actor, {
    brandId,
    topicId,
    name: "Morning",
    subject: "Good morning",
    html: "<p>Good morning</p>",
  });
  return { workspaceId, actor, campaignId };
}

const mailTo = async (workspaceId: string) =>
  (await listMailbox(ctx, systemActor("test", workspaceId), { limit: 100 })).map((m) => m.to).sort();
async function runAt(at: Date) {
  clock.set(at);
  for (let i = 0; i < 4; i++) await executor.runDue(ctx);
}

describe("sending at a local time", () => {
  it("slices are grouped by offset: zones whose clocks read 09:00 at the same instant (Berlin, Paris, Lagos in winter) are one slice, earliest first", async () => {
    clock.set(new Date("2026-01-09T12:00:00.000Z"));
    const { actor, campaignId } = await audience();
    const { campaign, slices } = await scheduleCampaignAtLocalTime(ctx, actor, campaignId, DAY);
    expect(slices.map((slice) => [slice.dueAt.toISOString(), slice.offsetMinutes, slice.zones])).toEqual([
      [BERLIN.toISOString(), 60, ["Africa/Lagos", "Europe/Berlin", "Europe/Paris"]],
      [LONDON.toISOString(), 0, ["UTC"]],
      [NEW_YORK.toISOString(), -300, ["America/New_York"]],
    ]);
    // Dispatch starts, and takes the audience, at the first slice.
    expect(campaign).toMatchObject({
      status: "scheduled",
      scheduledAt: BERLIN,
      localDate: DAY.date,
      localTime: "09:00",
    });
    const page = await getLocalTimeSlices(ctx, actor, campaignId);
    expect(page).toMatchObject({ planned: true });
    expect(page!.slices.map((slice) => slice.recipients)).toEqual([3, 1, 1]);
  });

  it("contacts without a zone get the workspace's: with the workspace in Tokyo, theirs is 09:00 Tokyo time, the first slice", async () => {
    clock.set(new Date("2026-01-09T12:00:00.000Z"));
    const { workspaceId, actor, campaignId } = await audience("Asia/Tokyo");
    const tokyo = new Date("2026-01-10T00:00:00.000Z");
    const { slices } = await scheduleCampaignAtLocalTime(ctx, actor, campaignId, DAY);
    expect(slices[0]).toMatchObject({ dueAt: tokyo, offsetMinutes: 540, zones: ["Asia/Tokyo"] });
    await runAt(tokyo);
    expect(await mailTo(workspaceId)).toEqual(["nozone@example.com"]);
    const rows = await ctx.db.select().from(sends).where(eq(sends.campaignId, campaignId));
    expect(Object.fromEntries(rows.map((row) => [row.email, row.dueAt?.toISOString()]))).toEqual({
      "nozone@example.com": tokyo.toISOString(),
      "berlin@example.com": BERLIN.toISOString(),
      "paris@example.com": BERLIN.toISOString(),
      "lagos@example.com": BERLIN.toISOString(),
      "newyork@example.com": NEW_YORK.toISOString(),
    });
  });

  it("each slice is sent at its hour and not before, and the campaign is sent after the last", async () => {
    clock.set(new Date("2026-01-09T12:00:00.000Z"));
    const { workspaceId, actor, campaignId } = await audience();
    await scheduleCampaignAtLocalTime(ctx, actor, campaignId, DAY);
    await runAt(new Date(BERLIN.getTime() - 1000));
    expect(await mailTo(workspaceId)).toEqual([]);
    await runAt(BERLIN);
    expect(await mailTo(workspaceId)).toEqual(["berlin@example.com", "lagos@example.com", "paris@example.com"]);
    await runAt(new Date(LONDON.getTime() - 1000));
    expect(await mailTo(workspaceId)).toHaveLength(3);
    await runAt(LONDON);
    expect(await mailTo(workspaceId)).toContain("nozone@example.com");
    expect(await mailTo(workspaceId)).toHaveLength(4);
    const page = await getLocalTimeSlices(ctx, actor, campaignId);
    expect(page!.planned).toBe(false);
    expect(
      page!.slices.map((slice) => [slice.dueAt.toISOString(), slice.recipients, slice.sent, slice.waiting]),
    ).toEqual([
      [BERLIN.toISOString(), 3, 3, 0],
      [LONDON.toISOString(), 1, 1, 0],
      [NEW_YORK.toISOString(), 1, 0, 1],
    ]);
    expect((await ctx.db.select().from(campaigns).where(eq(campaigns.id, campaignId)))[0]!.status).toBe("sending");
    await runAt(new Date(NEW_YORK.getTime() - 1000));
    expect(await mailTo(workspaceId)).toHaveLength(4);
    await runAt(NEW_YORK);
    expect(await mailTo(workspaceId)).toHaveLength(5);
    const [done] = await ctx.db.select().from(campaigns).where(eq(campaigns.id, campaignId));
    expect(done).toMatchObject({ status: "sent", recipientCount: 5 });
  });

  it("a pause between slices holds the rest: nothing goes at the next slice's hour until resumed, then it goes at once", async () => {
    clock.set(new Date("2026-01-09T12:00:00.000Z"));
    const { workspaceId, actor, campaignId } = await audience();
    await scheduleCampaignAtLocalTime(ctx, actor, campaignId, DAY);
    await runAt(BERLIN);
    expect(await mailTo(workspaceId)).toHaveLength(3);
    await pauseCampaign(ctx, actor, campaignId);
    await runAt(LONDON);
    await runAt(NEW_YORK);
    expect(await mailTo(workspaceId)).toHaveLength(3);
    await resumeCampaign(ctx, actor, campaignId);
    await runAt(new Date(NEW_YORK.getTime() + 60_000));
    expect(await mailTo(workspaceId)).toHaveLength(5);
  });

  it("a cancel between slices: the later slices are never sent and their allowance is refunded", async () => {
    clock.set(new Date("2026-01-09T12:00:00.000Z"));
    const { workspaceId, actor, campaignId } = await audience();
    await scheduleCampaignAtLocalTime(ctx, actor, campaignId, DAY);
    await runAt(BERLIN);
    const { refunded } = await cancelCampaign(ctx, actor, campaignId);
    expect(refunded).toBe(2);
    await runAt(NEW_YORK);
    expect(await mailTo(workspaceId)).toHaveLength(3);
  });

  it("a local time that has already come in a recipient's zone when scheduling is refused on date, and the campaign stays a draft", async () => {
    // 08:30 UTC on the 10th: Berlin's 09:00 has passed, London's has not.
    clock.set(new Date("2026-01-10T08:30:00.000Z"));
    const { actor, campaignId } = await audience();
    await expect(scheduleCampaignAtLocalTime(ctx, actor, campaignId, DAY)).rejects.toMatchObject({
      code: "validation_failed",
      param: "date",
    });
    expect((await ctx.db.select().from(campaigns).where(eq(campaigns.id, campaignId)))[0]!.status).toBe("draft");
    await expect(
      scheduleCampaignAtLocalTime(ctx, actor, campaignId, { date: "2026-01-11", time: "09:00" }),
    ).resolves.toMatchObject({ campaign: { status: "scheduled" } });
  });
});
