import { describe, expect, it } from "vitest";

import { userActor } from "@/lib/actor";
import { recordProviderEvent } from "@/lib/deliverability/record-provider-event";
import { apiClient } from "@/lib/testing/api-client";
import { seedKey, seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { seedSentCampaign } from "@/lib/testing/report-fixture";
import { testCtx } from "@/lib/testing/test-context";
import { recordClick, recordOpen } from "@/lib/tracking/record-engagement";

import { getCampaignReportOrThrow } from "./get-campaign-report";

const { ctx, clock } = testCtx(new Date("2026-04-02T10:15:00.000Z"));

describe("the dashboard's campaign report", () => {
  it("its figures and rates are the /v1/reports/campaigns row's; opens and clicks per hour, top links, devices, clients, countries and bounces by type", async () => {
    const { workspaceId, brandId, ownerUserId } = await seedWorkspace(ctx);
    const topicId = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
    const emails = ["a@example.com", "b@example.com", "c@example.com", "d@example.com"];
    const { campaignId, sendIds } = await seedSentCampaign(ctx, { workspaceId, brandId, topicId, emails });
    for (const email of ["a@example.com", "b@example.com", "c@example.com"])
      await recordProviderEvent(ctx, { type: "delivered", sendId: sendIds[email], occurredAt: clock.now() });
    await recordProviderEvent(ctx, {
      type: "bounced",
      bounceType: "permanent",
      sendId: sendIds["d@example.com"],
      occurredAt: clock.now(),
    });
    await recordOpen(ctx, sendIds["a@example.com"]!, { country: "FR" });
    await recordClick(ctx, sendIds["a@example.com"]!, {
      url: "https://shop.example/sale",
      country: "FR",
      deviceType: "mobile",
      client: "Mobile Safari",
    });
    await recordClick(ctx, sendIds["a@example.com"]!, {
      url: "https://shop.example/sale",
      country: "FR",
      deviceType: "mobile",
      client: "Mobile Safari",
    });
    clock.advance(60 * 60_000);
    await recordOpen(ctx, sendIds["b@example.com"]!, { country: null });
    await recordClick(ctx, sendIds["b@example.com"]!, {
      url: "https://shop.example/about",
      country: "DE",
      deviceType: "desktop",
      client: "Chrome",
    });

    const report = await getCampaignReportOrThrow(ctx, userActor(ownerUserId, workspaceId), campaignId);
    const api = apiClient((await seedKey(ctx, workspaceId)).key);
    const [row] = (await api.get("/v1/reports/campaigns")).body.data;
    expect(report!.row).toMatchObject({
      recipients: row.recipients,
      accepted: row.accepted,
      delivered: row.delivered,
      opened: row.opened,
      clicked: row.clicked,
      bounced: row.bounced,
      complained: row.complained,
      unsubscribed: row.unsubscribed,
      failed: row.failed,
      openRate: row.open_rate,
      clickRate: row.click_rate,
      bounceRate: row.bounce_rate,
      complaintRate: row.complaint_rate,
    });
    expect(report!.row).toMatchObject({ opened: 2, clicked: 2, openRate: 66.67, bounced: 1 });
    expect(report!.timeline).toEqual([
      { hour: "2026-04-02T10:00Z", opened: 1, clicked: 1 },
      { hour: "2026-04-02T11:00Z", opened: 1, clicked: 1 },
    ]);
    expect(report!.topLinks).toEqual([
      { url: "https://shop.example/sale", clicks: 2, people: 1 },
      { url: "https://shop.example/about", clicks: 1, people: 1 },
    ]);
    expect(report!.devices).toEqual([
      { name: "mobile", clicks: 2 },
      { name: "desktop", clicks: 1 },
    ]);
    expect(report!.clients).toEqual([
      { name: "Mobile Safari", clicks: 2 },
      { name: "Chrome", clicks: 1 },
    ]);
    expect(report!.countries).toEqual([
      { name: "FR", clicks: 2 },
      { name: "DE", clicks: 1 },
    ]);
    expect(report!.bounces).toEqual([{ type: "permanent", count: 1 }]);
  });

  it("a campaign of another workspace is not found", async () => {
    const a = await seedWorkspace(ctx);
    const b = await seedWorkspace(ctx);
    const topicId = await seedTopic(ctx, b.workspaceId, b.brandId, { requiresConfirmation: false });
    const { campaignId } = await seedSentCampaign(ctx, {
      workspaceId: b.workspaceId,
      brandId: b.brandId,
      topicId,
      emails: ["x@example.com"],
    });
    await expect(
      getCampaignReportOrThrow(ctx, userActor(a.ownerUserId, a.workspaceId), campaignId),
    ).rejects.toMatchObject({ code: "campaign_not_found" });
  });
});
