import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { systemActor } from "@/lib/actor";
import { createBrand } from "@/lib/brands/create-brand";
import { createCampaign } from "@/lib/campaigns/save-campaign";
import { unsubscribe } from "@/lib/consent/unsubscribe";
import { campaigns } from "@/lib/db/schema";
import { recordProviderEvent } from "@/lib/deliverability/record-provider-event";
import { foldEngagement } from "@/lib/reports/fold-engagement";
import { apiClient } from "@/lib/testing/api-client";
import { seedKey, seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { seedSentCampaign } from "@/lib/testing/report-fixture";
import { testCtx } from "@/lib/testing/test-context";
import { recordClick, recordOpen } from "@/lib/tracking/record-engagement";

const { ctx, clock } = testCtx(new Date("2026-03-10T09:00:00.000Z"));

async function workspaceWithTopic() {
  const { workspaceId, brandId } = await seedWorkspace(ctx);
  const topicId = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
  return { workspaceId, brandId, topicId, api: apiClient((await seedKey(ctx, workspaceId)).key) };
}

describe("GET /v1/reports/campaigns", () => {
  it("one row per sent campaign with every column and rate; drafts absent; { data, meta, as_of, scope }", async () => {
    const { workspaceId, brandId, topicId, api } = await workspaceWithTopic();
    const emails = [
      "a@example.com",
      "b@example.com",
      "c@example.com",
      "d@example.com",
      "e@example.com",
      "f@example.com",
    ];
    const { campaignId, sendIds, contactIds } = await seedSentCampaign(ctx, {
      workspaceId,
      brandId,
      topicId,
      name: "March news",
      subject: "Spring",
      emails,
    });
    await createCampaign(ctx, systemActor("test", workspaceId), {
      brandId,
      topicId,
      name: "Draft",
      subject: "Later",
      html: "<p>x</p>",
    });
    for (const email of ["a@example.com", "b@example.com", "c@example.com"])
      await recordProviderEvent(ctx, { type: "delivered", sendId: sendIds[email], occurredAt: clock.now() });
    await recordProviderEvent(ctx, {
      type: "bounced",
      bounceType: "permanent",
      sendId: sendIds["d@example.com"],
      occurredAt: clock.now(),
    });
    await recordProviderEvent(ctx, { type: "complained", sendId: sendIds["c@example.com"], occurredAt: clock.now() });
    await recordOpen(ctx, sendIds["a@example.com"]!, { country: null });
    await recordOpen(ctx, sendIds["a@example.com"]!, { country: null });
    await recordOpen(ctx, sendIds["b@example.com"]!, { country: null });
    await recordClick(ctx, sendIds["a@example.com"]!, {
      url: "https://x.test",
      country: null,
      deviceType: null,
      client: null,
    });
    await unsubscribe(ctx, {
      contactId: contactIds["b@example.com"]!,
      scope: "topic",
      topicId,
      campaignId,
      sendId: sendIds["b@example.com"],
    });
    await foldEngagement(ctx);

    const response = await api.get("/v1/reports/campaigns");
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      data: [
        {
          id: campaignId,
          name: "March news",
          subject: "Spring",
          sent_at: "2026-03-10T09:00:00.000Z",
          recipients: 6,
          accepted: 6,
          delivered: 3,
          opened: 2,
          clicked: 1,
          bounced: 1,
          complained: 1,
          unsubscribed: 1,
          failed: 0,
          open_rate: 66.67,
          click_rate: 33.33,
          bounce_rate: 16.67,
          complaint_rate: 16.67,
        },
      ],
      meta: { limit: 20, has_more: false, next_cursor: null },
      as_of: expect.stringMatching(/Z$/),
      scope: { type: "workspace", brand_id: null },
    });
    expect(response.headers.get("etag")).toBeTruthy();
  });

  it("only counts, rates, names and subjects: no recipient address or contact id appears in the body", async () => {
    const { workspaceId, brandId, topicId, api } = await workspaceWithTopic();
    const { contactIds, sendIds } = await seedSentCampaign(ctx, {
      workspaceId,
      brandId,
      topicId,
      emails: ["secret.person@example.com"],
    });
    const text = JSON.stringify((await api.get("/v1/reports/campaigns")).body);
    expect(text).not.toContain("secret.person");
    expect(text).not.toContain(contactIds["secret.person@example.com"]);
    expect(text).not.toContain(sendIds["secret.person@example.com"]);
  });

  it("rates are 0 when the denominator is 0 and rounded to 2 decimals", async () => {
    const { workspaceId, brandId, topicId, api } = await workspaceWithTopic();
    await seedSentCampaign(ctx, {
      workspaceId,
      brandId,
      topicId,
      emails: ["a@example.com", "b@example.com", "c@example.com"],
    });
    const [row] = (await api.get("/v1/reports/campaigns")).body.data;
    expect(row).toMatchObject({ delivered: 0, open_rate: 0, click_rate: 0, bounce_rate: 0, complaint_rate: 0 });
  });

  it("newest first by send time; from and to as dates or timestamps (UTC), to exclusive, either alone", async () => {
    const { workspaceId, brandId, topicId, api } = await workspaceWithTopic();
    const sentAt = ["2026-03-01T00:00:00.000Z", "2026-03-02T12:00:00.000Z", "2026-03-03T00:00:00.000Z"];
    for (const [i, at] of sentAt.entries()) {
      clock.set(new Date(at));
      await seedSentCampaign(ctx, { workspaceId, brandId, topicId, name: `C${i}`, emails: [`r${i}@example.com`] });
    }
    const names = async (query: string) =>
      (await api.get(`/v1/reports/campaigns${query}`)).body.data.map((r: { name: string }) => r.name);
    expect(await names("")).toEqual(["C2", "C1", "C0"]);
    expect(await names("?from=2026-03-02")).toEqual(["C2", "C1"]);
    expect(await names("?to=2026-03-03")).toEqual(["C1", "C0"]);
    expect(await names("?from=2026-03-02T12:00:00.000Z&to=2026-03-02T12:00:00.001Z")).toEqual(["C1"]);
    expect(await names("?from=2026-03-02T12:00:00.001Z&to=2026-03-03T00:00:00Z")).toEqual([]);
    expect((await api.get("/v1/reports/campaigns?from=yesterday")).body.error).toMatchObject({
      code: "validation_failed",
      param: "from",
    });
    expect((await api.get("/v1/reports/campaigns?to=2026-02-30")).body.error).toMatchObject({
      code: "validation_failed",
      param: "to",
    });
    expect((await api.get("/v1/reports/campaigns?to=2026-02-30T10:00:00%2B01:00")).body.error).toMatchObject({
      code: "validation_failed",
      param: "to",
    });
    expect((await api.get("/v1/reports/campaigns?from=2026-03-03&to=2026-03-01")).body.error).toMatchObject({
      code: "validation_failed",
      param: "from",
    });
    expect((await api.get("/v1/reports/campaigns?limit=5&limit=50")).body.error).toMatchObject({
      code: "validation_failed",
      param: "limit",
    });
  });

  it("paginated like every list: limit and the cursor of meta.next_cursor; other cursors are invalid_cursor", async () => {
    const { workspaceId, brandId, topicId, api } = await workspaceWithTopic();
    for (let i = 0; i < 3; i++) {
      clock.advance(60_000);
      await seedSentCampaign(ctx, { workspaceId, brandId, topicId, name: `C${i}`, emails: [`p${i}@example.com`] });
    }
    const first = (await api.get("/v1/reports/campaigns?limit=2")).body;
    expect(first.data.map((r: { name: string }) => r.name)).toEqual(["C2", "C1"]);
    expect(first.meta).toMatchObject({ limit: 2, has_more: true });
    const second = (await api.get(`/v1/reports/campaigns?limit=2&cursor=${first.meta.next_cursor}`)).body;
    expect(second.data.map((r: { name: string }) => r.name)).toEqual(["C0"]);
    expect(second.meta).toEqual({ limit: 2, has_more: false, next_cursor: null });
    expect((await api.get("/v1/reports/campaigns?limit=101")).body.error.code).toBe("invalid_limit");
    expect((await api.get("/v1/reports/campaigns?cursor=forged")).body.error.code).toBe("invalid_cursor");
  });

  it("a brand-scoped key sees only its brand's campaigns", async () => {
    const { workspaceId, brandId, topicId } = await workspaceWithTopic();
    const { brandId: other } = await createBrand(ctx, systemActor("test", workspaceId), {
      name: "Other",
      legalName: "Other Ltd",
      postalAddress: "4 St",
      websiteUrl: "https://o.test",
      senderEmail: "o@o.test",
    });
    const theirs = await seedTopic(ctx, workspaceId, other, { requiresConfirmation: false });
    await seedSentCampaign(ctx, { workspaceId, brandId, topicId, name: "Mine", emails: ["m@example.com"] });
    await seedSentCampaign(ctx, {
      workspaceId,
      brandId: other,
      topicId: theirs,
      name: "Theirs",
      emails: ["t@example.com"],
    });
    const body = (await apiClient((await seedKey(ctx, workspaceId, { brandId })).key).get("/v1/reports/campaigns"))
      .body;
    expect(body.data.map((r: { name: string }) => r.name)).toEqual(["Mine"]);
    expect(body.scope).toEqual({ type: "brand", brand_id: brandId });
  });

  it("opens, clicks and deliveries show once folded (≤ 30 s); bounces at once; the ETag changes exactly then", async () => {
    const { workspaceId, brandId, topicId, api } = await workspaceWithTopic();
    const { sendIds } = await seedSentCampaign(ctx, {
      workspaceId,
      brandId,
      topicId,
      emails: ["a@example.com", "b@example.com"],
    });
    const before = await api.get("/v1/reports/campaigns");
    const etag = before.headers.get("etag")!;
    await recordProviderEvent(ctx, { type: "delivered", sendId: sendIds["a@example.com"], occurredAt: clock.now() });
    await recordOpen(ctx, sendIds["a@example.com"]!, { country: null });
    expect((await api.get("/v1/reports/campaigns", { headers: { "if-none-match": etag } })).status).toBe(304);
    await foldEngagement(ctx);
    const folded = await api.get("/v1/reports/campaigns", { headers: { "if-none-match": etag } });
    expect(folded.status).toBe(200);
    expect(folded.body.data[0]).toMatchObject({ delivered: 1, opened: 1, open_rate: 100 });
    await recordProviderEvent(ctx, {
      type: "bounced",
      bounceType: "permanent",
      sendId: sendIds["b@example.com"],
      occurredAt: clock.now(),
    });
    const bounced = await api.get("/v1/reports/campaigns", {
      headers: { "if-none-match": folded.headers.get("etag")! },
    });
    expect(bounced.status).toBe(200);
    expect(bounced.body.data[0]).toMatchObject({ bounced: 1, bounce_rate: 50 });
  });

  it("a campaign's name changing after its send changes the ETag", async () => {
    const { workspaceId, brandId, topicId, api } = await workspaceWithTopic();
    const { campaignId } = await seedSentCampaign(ctx, { workspaceId, brandId, topicId, emails: ["a@example.com"] });
    const etag = (await api.get("/v1/reports/campaigns")).headers.get("etag")!;
    await ctx.db.update(campaigns).set({ name: "Renamed" }).where(eq(campaigns.id, campaignId));
    const after = await api.get("/v1/reports/campaigns", { headers: { "if-none-match": etag } });
    expect(after.status).toBe(200);
    expect(after.body.data[0].name).toBe("Renamed");
  });
});
