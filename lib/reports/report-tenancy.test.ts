import { describe, expect, it } from "vitest";

import { systemActor, userActor } from "@/lib/actor";
import { upsertContact } from "@/lib/contacts/upsert-contact";
import { seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { seedSentCampaign } from "@/lib/testing/report-fixture";
import { testCtx } from "@/lib/testing/test-context";
import { getWorkspaceOverviewOrThrow } from "@/lib/workspaces/get-workspace-overview";

import { getActivity } from "./get-activity";
import { getSummary } from "./get-summary";
import { listCampaignReport } from "./list-campaign-report";
import { readReportVersions } from "./report-versions";

const { ctx, clock } = testCtx();
const operator = systemActor("test");
const page = { limit: 100, afterId: null };

/** Workspace B has two contacts and a sent campaign; A has nothing yet. */
async function tenants() {
  const a = await seedWorkspace(ctx);
  const b = await seedWorkspace(ctx);
  const topicOfB = await seedTopic(ctx, b.workspaceId, b.brandId, { requiresConfirmation: false });
  const { campaignId } = await seedSentCampaign(ctx, {
    workspaceId: b.workspaceId,
    brandId: b.brandId,
    topicId: topicOfB,
    emails: ["b1@example.com", "b2@example.com"],
  });
  return {
    a,
    b,
    campaignOfB: campaignId,
    memberOfA: userActor(a.ownerUserId, a.workspaceId),
    actorOfB: systemActor("test", b.workspaceId),
  };
}

describe("reports count one workspace: the actor's", () => {
  it("getSummary: a member of workspace A counts none of workspace B's contacts or campaigns; the operator must name a workspace", async () => {
    const { memberOfA, actorOfB } = await tenants();
    expect(await getSummary(ctx, memberOfA)).toMatchObject({ contacts: { total: 0 }, campaigns: { total: 0 } });
    expect(await getSummary(ctx, actorOfB)).toMatchObject({ contacts: { total: 2 }, campaigns: { total: 1, sent: 1 } });
    await expect(getSummary(ctx, operator)).rejects.toMatchObject({ code: "workspace_required" });
  });

  it("getActivity: a member of workspace A sees none of workspace B's activity; the operator must name a workspace", async () => {
    const { memberOfA, actorOfB } = await tenants();
    const window = {
      from: new Date(clock.now().getTime() - 86_400_000),
      to: new Date(clock.now().getTime() + 86_400_000),
      interval: "day" as const,
    };
    expect((await getActivity(ctx, memberOfA, window)).totals).toMatchObject({ contacts_added: 0, campaigns_sent: 0 });
    expect((await getActivity(ctx, actorOfB, window)).totals).toMatchObject({ contacts_added: 2, campaigns_sent: 1 });
    await expect(getActivity(ctx, operator, window)).rejects.toMatchObject({ code: "workspace_required" });
  });

  it("listCampaignReport: a member of workspace A lists none of workspace B's campaigns; the operator must name a workspace", async () => {
    const { campaignOfB, memberOfA, actorOfB } = await tenants();
    expect(await listCampaignReport(ctx, memberOfA, {}, page)).toEqual([]);
    expect((await listCampaignReport(ctx, actorOfB, {}, page)).map((r) => r.id)).toEqual([campaignOfB]);
    await expect(listCampaignReport(ctx, operator, {}, page)).rejects.toMatchObject({ code: "workspace_required" });
  });

  it("readReportVersions: workspace B's changes do not move the versions a member of workspace A reads; the operator must name a workspace", async () => {
    const { memberOfA, actorOfB } = await tenants();
    const before = await readReportVersions(ctx, memberOfA);
    const ofB = await readReportVersions(ctx, actorOfB);
    await upsertContact(ctx, actorOfB, { email: "b3@example.com" });
    expect(await readReportVersions(ctx, memberOfA)).toEqual(before);
    expect(await readReportVersions(ctx, actorOfB)).not.toEqual(ofB);
    await expect(readReportVersions(ctx, operator)).rejects.toMatchObject({ code: "workspace_required" });
  });

  it("getWorkspaceOverviewOrThrow: a member of workspace A sees A's workspace and counts; the operator must name a workspace", async () => {
    const { a, memberOfA, actorOfB } = await tenants();
    expect(await getWorkspaceOverviewOrThrow(ctx, memberOfA)).toMatchObject({
      workspace: { id: a.workspaceId },
      counts: { contacts: 0, topics: 0 },
    });
    expect(await getWorkspaceOverviewOrThrow(ctx, actorOfB)).toMatchObject({ counts: { contacts: 2, topics: 1 } });
    await expect(getWorkspaceOverviewOrThrow(ctx, operator)).rejects.toMatchObject({ code: "workspace_required" });
  });
});
