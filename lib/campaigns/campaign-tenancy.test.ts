import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { systemActor, userActor, type Actor } from "@/lib/actor";
import { upsertContact } from "@/lib/contacts/upsert-contact";
import type { Ctx } from "@/lib/context";
import { campaigns, verifiedAddresses, type CampaignStatus } from "@/lib/db/schema";
import { seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import {
  cancelCampaign,
  pauseCampaign,
  resumeCampaign,
  resumeHeldCampaigns,
  scheduleCampaign,
  sendCampaignNow,
  unscheduleCampaign,
} from "./campaign-actions";
import { createCampaign, updateCampaign } from "./save-campaign";
import { showCampaign } from "./show-campaign";

const { ctx, clock } = testCtx();
const operator = systemActor("test");

/** Workspace B has a draft campaign; the member acting belongs to workspace A. */
async function tenants() {
  const a = await seedWorkspace(ctx);
  const b = await seedWorkspace(ctx);
  const topicOfB = await seedTopic(ctx, b.workspaceId, b.brandId, { requiresConfirmation: false });
  // One subscriber the sandbox lets through: a campaign that would reach nobody is neither sent nor scheduled.
  await upsertContact(ctx, systemActor("test", b.workspaceId), {
    email: "subscriber@example.com",
    topicIds: [topicOfB],
  });
  await ctx.db
    .insert(verifiedAddresses)
    .values({ workspaceId: b.workspaceId, email: "subscriber@example.com", verifiedAt: clock.now() });
  const contentOfB = { brandId: b.brandId, topicId: topicOfB, name: "B's news", subject: "Hi", html: "<p>Hi</p>" };
  const { campaignId } = await createCampaign(ctx, systemActor("test", b.workspaceId), contentOfB);
  return { a, b, contentOfB, campaignOfB: campaignId, memberOfA: userActor(a.ownerUserId, a.workspaceId) };
}

const campaignRow = async (campaignId: string) =>
  (await ctx.db.select().from(campaigns).where(eq(campaigns.id, campaignId)))[0]!;
const campaignsIn = async (workspaceId: string) =>
  (await ctx.db.select().from(campaigns).where(eq(campaigns.workspaceId, workspaceId))).map((c) => c.id);
const setStatus = (campaignId: string, status: CampaignStatus) =>
  ctx.db.update(campaigns).set({ status }).where(eq(campaigns.id, campaignId));

type Move = (ctx: Ctx, actor: Actor, campaignId: string) => Promise<unknown>;
const moves: [string, Move, CampaignStatus, CampaignStatus][] = [
  ["sendCampaignNow", sendCampaignNow, "draft", "sending"],
  [
    "scheduleCampaign",
    (c, actor, id) => scheduleCampaign(c, actor, id, new Date(clock.now().getTime() + 86_400_000)),
    "draft",
    "scheduled",
  ],
  ["unscheduleCampaign", unscheduleCampaign, "scheduled", "draft"],
  ["pauseCampaign", pauseCampaign, "sending", "paused"],
  ["resumeCampaign", resumeCampaign, "paused", "sending"],
  ["cancelCampaign", cancelCampaign, "paused", "cancelled"],
];

describe("campaigns are reached only from their own workspace", () => {
  it("showCampaign: a member of workspace A cannot read workspace B's campaign; the operator can", async () => {
    const { campaignOfB, memberOfA } = await tenants();
    await expect(showCampaign(ctx, memberOfA, campaignOfB)).rejects.toMatchObject({ code: "campaign_not_found" });
    expect((await showCampaign(ctx, operator, campaignOfB)).campaign.id).toBe(campaignOfB);
  });

  it.each(moves)(
    "%s: a member of workspace A cannot move workspace B's campaign; the operator can",
    async (_name, move, from, to) => {
      const { campaignOfB, memberOfA } = await tenants();
      await setStatus(campaignOfB, from);
      await expect(move(ctx, memberOfA, campaignOfB)).rejects.toMatchObject({ code: "campaign_not_found" });
      expect((await campaignRow(campaignOfB)).status).toBe(from);
      await move(ctx, operator, campaignOfB);
      expect((await campaignRow(campaignOfB)).status).toBe(to);
    },
  );

  it("resumeHeldCampaigns: a member of workspace A resumes none of workspace B's campaigns; the operator does", async () => {
    const { b, campaignOfB, memberOfA } = await tenants();
    await setStatus(campaignOfB, "sending");
    expect(await resumeHeldCampaigns(ctx, memberOfA, b.brandId)).toBe(0);
    expect(await resumeHeldCampaigns(ctx, operator, b.brandId)).toBe(1);
  });

  it("createCampaign: a member of workspace A cannot create a campaign from workspace B's brand and topic; the operator must name a workspace", async () => {
    const { a, b, contentOfB, campaignOfB, memberOfA } = await tenants();
    await expect(createCampaign(ctx, memberOfA, contentOfB)).rejects.toMatchObject({ code: "brand_not_found" });
    await expect(createCampaign(ctx, memberOfA, { ...contentOfB, brandId: a.brandId })).rejects.toMatchObject({
      code: "topic_not_found",
    });
    await expect(createCampaign(ctx, operator, contentOfB)).rejects.toMatchObject({ code: "workspace_required" });
    expect(await campaignsIn(a.workspaceId)).toEqual([]);
    expect(await campaignsIn(b.workspaceId)).toEqual([campaignOfB]);
  });

  it("updateCampaign: a member of workspace A cannot edit workspace B's campaign; the operator can, within B", async () => {
    const { a, contentOfB, campaignOfB, memberOfA } = await tenants();
    await expect(
      updateCampaign(ctx, memberOfA, campaignOfB, { ...contentOfB, name: "Renamed by A" }),
    ).rejects.toMatchObject({ code: "campaign_not_found" });
    expect((await campaignRow(campaignOfB)).name).toBe("B's news");
    // Checked against the campaign's workspace, not the actor's: A's brand does not belong with B's campaign.
    await expect(
      updateCampaign(ctx, operator, campaignOfB, { ...contentOfB, brandId: a.brandId }),
    ).rejects.toMatchObject({ code: "brand_not_found" });
    await updateCampaign(ctx, operator, campaignOfB, { ...contentOfB, name: "Renamed by the operator" });
    expect((await campaignRow(campaignOfB)).name).toBe("Renamed by the operator");
  });
});
