import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { apiKeyActor, systemActor, userActor } from "@/lib/actor";
import { pauseCampaign, resumeCampaign } from "@/lib/campaigns/campaign-actions";
import { campaigns, events } from "@/lib/db/schema";
import { seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { sendingCampaign } from "@/lib/testing/guardrail-fixture";
import { testCtx } from "@/lib/testing/test-context";

import { campaignHealth } from "./campaign-health";
import { guardCampaign } from "./guard-campaign";
import { DEFAULT_GUARDRAIL_THRESHOLDS } from "./guardrail-schemas";
import { setGuardrailThresholds } from "./guardrail-thresholds";
import { judgeHealth } from "./judge-health";

const { ctx, clock } = testCtx();
const defaults = { ...DEFAULT_GUARDRAIL_THRESHOLDS };

async function tenant() {
  const { workspaceId, brandId, ownerUserId } = await seedWorkspace(ctx);
  const topicId = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
  return { workspaceId, brandId, topicId, ownerUserId };
}

async function statusOf(campaignId: string) {
  const [row] = await ctx.db.select().from(campaigns).where(eq(campaigns.id, campaignId));
  return row!.status;
}

async function pausedEvents(workspaceId: string) {
  return (
    await ctx.db
      .select()
      .from(events)
      .where(and(eq(events.workspaceId, workspaceId), eq(events.type, "campaign.paused")))
  ).map((event) => event.data);
}

describe("judging a campaign's health", () => {
  it("warn threshold: complaints at 0.15 % of delivered mail, or permanent bounces at 2.5 %, warn", () => {
    expect(judgeHealth({ delivered: 2000, complained: 2, hardBounced: 0 }, defaults).verdict).toBe("ok");
    expect(judgeHealth({ delivered: 2000, complained: 3, hardBounced: 0 }, defaults)).toMatchObject({
      verdict: "warn",
      reason: "complaint_rate",
      complaintRate: 0.15,
    });
    expect(judgeHealth({ delivered: 2000, complained: 0, hardBounced: 49 }, defaults).verdict).toBe("ok");
    expect(judgeHealth({ delivered: 2000, complained: 0, hardBounced: 50 }, defaults)).toMatchObject({
      verdict: "warn",
      reason: "hard_bounce_rate",
    });
  });

  it("stop threshold: complaints at 0.3 % of delivered mail, or permanent bounces at 5 %, stop; the worse rate decides", () => {
    expect(judgeHealth({ delivered: 2000, complained: 5, hardBounced: 0 }, defaults).verdict).toBe("warn");
    expect(judgeHealth({ delivered: 2000, complained: 6, hardBounced: 0 }, defaults)).toMatchObject({
      verdict: "stop",
      reason: "complaint_rate",
    });
    expect(judgeHealth({ delivered: 2000, complained: 3, hardBounced: 100 }, defaults)).toMatchObject({
      verdict: "stop",
      reason: "hard_bounce_rate",
    });
  });

  it("minimum 500 delivered: below it no rate is judged, however high", () => {
    expect(judgeHealth({ delivered: 499, complained: 100, hardBounced: 100 }, defaults)).toEqual({
      verdict: "ok",
      reason: null,
      complaintRate: null,
      hardBounceRate: null,
    });
    expect(judgeHealth({ delivered: 500, complained: 2, hardBounced: 0 }, defaults).verdict).toBe("stop");
  });
});

describe("the guardrail while a campaign sends", () => {
  it("stop threshold: the complaint that brings the rate to 0.3 % pauses the campaign with the reason, and campaign.paused says why", async () => {
    const t = await tenant();
    const { campaignId, report } = await sendingCampaign(ctx, t, 1000);
    await report(2, "complained");
    expect(await statusOf(campaignId)).toBe("sending");
    await report(1, "complained");
    expect(await statusOf(campaignId)).toBe("paused");
    const health = await campaignHealth(ctx, { id: campaignId, ...t });
    expect(health.pausedBy).toMatchObject({
      reason: "complaint_rate",
      scope: "campaign",
      on: { campaign: { delivered: 1000, complained: 3, hardBounced: 0 } },
    });
    expect(await pausedEvents(t.workspaceId)).toEqual([
      expect.objectContaining({ campaign_id: campaignId, status: "paused", pause_reason: "complaint_rate" }),
    ]);
  });

  it("warn threshold: past the warning threshold the campaign keeps sending and its health says so", async () => {
    const t = await tenant();
    const { campaignId, report } = await sendingCampaign(ctx, t, 1000);
    await report(2, "complained");
    expect(await statusOf(campaignId)).toBe("sending");
    const health = await campaignHealth(ctx, { id: campaignId, ...t });
    expect(health).toMatchObject({ verdict: "warn", reason: "complaint_rate", scope: "campaign", pausedBy: null });
    expect(health.campaign.judgement.complaintRate).toBeCloseTo(0.2);
  });

  it("stop threshold: permanent bounces at 5 % pause it; transient bounces are not counted", async () => {
    const t = await tenant();
    const { campaignId, report } = await sendingCampaign(ctx, t, 1000);
    await report(60, "transient");
    await report(44, "permanent");
    // 1,000 handed over, 104 bounced: 896 reached the recipients' providers, 44 permanent bounces are 4.91 %.
    expect(await statusOf(campaignId)).toBe("sending");
    await report(1, "permanent");
    // 45 of 895: 5.03 %.
    expect(await statusOf(campaignId)).toBe("paused");
    const health = await campaignHealth(ctx, { id: campaignId, ...t });
    expect(health.pausedBy).toMatchObject({ reason: "hard_bounce_rate", on: { campaign: { hardBounced: 45 } } });
  });

  it("minimum 500 delivered: a small campaign is not paused, whatever its complaint rate", async () => {
    const t = await tenant();
    const { campaignId, report } = await sendingCampaign(ctx, t, 400);
    await report(20, "complained");
    expect(await statusOf(campaignId)).toBe("sending");
    expect((await campaignHealth(ctx, { id: campaignId, ...t })).verdict).toBe("ok");
  });

  it("per-workspace configuration: a workspace's own thresholds apply to its campaigns, and only to them", async () => {
    const strict = await tenant();
    const other = await tenant();
    await setGuardrailThresholds(ctx, systemActor("test", strict.workspaceId), {
      complaintWarnPercent: 0.05,
      complaintStopPercent: 0.1,
      hardBounceWarnPercent: 1,
      hardBounceStopPercent: 2,
      minimumDelivered: 100,
    });
    const a = await sendingCampaign(ctx, strict, 200);
    const b = await sendingCampaign(ctx, other, 200);
    await a.report(1, "complained");
    await b.report(1, "complained");
    expect(await statusOf(a.campaignId)).toBe("paused");
    expect(await statusOf(b.campaignId)).toBe("sending");
  });

  it("brand 24 h window: harm on the brand's other campaigns of the last 24 hours pauses a sending campaign at its next check; older campaigns do not count", async () => {
    const t = await tenant();
    const old = await sendingCampaign(ctx, t, 1000, "Last week");
    await old.report(5, "complained");
    expect(await statusOf(old.campaignId)).toBe("paused");
    clock.advance(25 * 60 * 60_000);
    // A day later the paused one is out of the window: a clean campaign of the brand is judged alone.
    const clean = await sendingCampaign(ctx, t, 1000, "Clean");
    expect(await guardCampaign(ctx, clean.campaignId)).toEqual({ paused: false });
    // Another campaign of the brand draws complaints today, below the stop on its own count of 1,000...
    const noisy = await sendingCampaign(ctx, t, 1000, "Noisy");
    await noisy.report(2, "complained");
    expect(await statusOf(noisy.campaignId)).toBe("sending");
    expect((await campaignHealth(ctx, { id: clean.campaignId, ...t })).brand.counts).toEqual({
      delivered: 2000,
      complained: 2,
      hardBounced: 0,
    });
    // ... and the brand's 2,000 of the day reach it with 6 more.
    await noisy.report(4, "complained");
    expect(await statusOf(noisy.campaignId)).toBe("paused");
    const health = await campaignHealth(ctx, { id: clean.campaignId, ...t });
    expect(health).toMatchObject({ verdict: "stop", scope: "brand", reason: "complaint_rate" });
    expect(await guardCampaign(ctx, clean.campaignId)).toEqual({ paused: true });
    expect((await campaignHealth(ctx, { id: clean.campaignId, ...t })).pausedBy).toMatchObject({ scope: "brand" });
  });

  it("resume needs a person: an API key cannot, a member must acknowledge the figures; then only harm after the resume pauses it again", async () => {
    const t = await tenant();
    const { campaignId, report } = await sendingCampaign(ctx, t, 1000);
    await report(3, "complained");
    expect(await statusOf(campaignId)).toBe("paused");
    const key = apiKeyActor({ keyId: "key_test", workspaceId: t.workspaceId, brandId: null, mode: "live" });
    await expect(resumeCampaign(ctx, key, campaignId, { acknowledged: true })).rejects.toMatchObject({
      code: "resume_needs_a_person",
    });
    const member = userActor(t.ownerUserId, t.workspaceId);
    await expect(resumeCampaign(ctx, member, campaignId)).rejects.toMatchObject({
      code: "harm_not_acknowledged",
      param: "acknowledged",
    });
    expect(await statusOf(campaignId)).toBe("paused");
    await resumeCampaign(ctx, member, campaignId, { acknowledged: true });
    expect(await statusOf(campaignId)).toBe("sending");
    // The figures the member saw do not pause it again, at the next batch or the next complaint.
    expect(await guardCampaign(ctx, campaignId)).toEqual({ paused: false });
    const health = await campaignHealth(ctx, { id: campaignId, ...t });
    expect(health).toMatchObject({ verdict: "ok", pausedBy: null });
    expect(health.acknowledgedAt).toEqual(clock.now());
    // Mail after the resume is judged on its own: 600 more, 2 of them complained (0.33 %), stops it again.
    await ctx.db.execute(sql`
      INSERT INTO sends (id, workspace_id, campaign_id, contact_id, email, state, accepted_at)
      SELECT ${campaignId} || '_more_' || lpad(i::text, 6, '0'), ${t.workspaceId}, ${campaignId}, 'cnt_more_' || i,
        'more' || i || '@example.com', 'accepted', now() FROM generate_series(1, 600) AS i`);
    await report(1, "complained");
    expect(await statusOf(campaignId)).toBe("sending");
    await report(1, "complained");
    expect(await statusOf(campaignId)).toBe("paused");
    // A manual pause and resume asks for nothing more.
    await resumeCampaign(ctx, member, campaignId, { acknowledged: true });
    await pauseCampaign(ctx, member, campaignId);
    await resumeCampaign(ctx, member, campaignId);
    expect(await statusOf(campaignId)).toBe("sending");
    expect((await pausedEvents(t.workspaceId)).map((data) => data.pause_reason)).toEqual([
      "complaint_rate",
      "complaint_rate",
      null,
    ]);
  });
});
