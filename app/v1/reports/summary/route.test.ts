import { describe, expect, it } from "vitest";

import { systemActor } from "@/lib/actor";
import { createBrand } from "@/lib/brands/create-brand";
import { createCampaign } from "@/lib/campaigns/save-campaign";
import { createList } from "@/lib/lists/create-list";
import { createSuppression } from "@/lib/suppressions/create-suppression";
import { apiClient } from "@/lib/testing/api-client";
import { optOut, seedKey, seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { seedSentCampaign } from "@/lib/testing/report-fixture";
import { testCtx } from "@/lib/testing/test-context";

const { ctx } = testCtx();

describe("GET /v1/reports/summary", () => {
  it("answers { data, as_of }: contacts, lists, topics, campaigns, sends (workspace-wide) and scope; ETag on the answer", async () => {
    const { workspaceId, brandId } = await seedWorkspace(ctx);
    const topicId = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
    await createList(ctx, systemActor("test", workspaceId), { brandId, name: "VIP" });
    await seedSentCampaign(ctx, { workspaceId, brandId, topicId, emails: ["a@example.com", "b@example.com"] });
    await createCampaign(ctx, systemActor("test", workspaceId), {
      brandId,
      topicId,
      name: "Next",
      subject: "Soon",
      html: "<p>x</p>",
    });
    const response = await apiClient((await seedKey(ctx, workspaceId)).key).get("/v1/reports/summary");
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      data: {
        contacts: { total: 2, subscribed: 2, unsubscribed: 0, bounced: 0, complained: 0 },
        lists: { total: 1, memberships: 0 },
        topics: { total: 1 },
        campaigns: { total: 2, sent: 1, scheduled: 0, draft: 1, sending: 0 },
        sends: {
          used_this_period: 2,
          period_started_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
          scope: "workspace",
        },
        scope: { type: "workspace", brand_id: null },
      },
      as_of: expect.stringMatching(/Z$/),
    });
    expect(response.headers.get("etag")).toMatch(/^W\/".+"$/);
    expect(response.headers.get("cache-control")).toBe("private, max-age=0, must-revalidate");
  });

  it("the four contact buckets add up to total and follow the contact status rule of docs/readings.md (never-subscribed contacts count as subscribed)", async () => {
    const { workspaceId, brandId } = await seedWorkspace(ctx);
    const topicId = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
    const api = apiClient((await seedKey(ctx, workspaceId)).key);
    const ids: string[] = [];
    for (const email of [
      "s@example.com",
      "u@example.com",
      "b@example.com",
      "c@example.com",
      "t@example.com",
      "n@example.com",
    ]) {
      ids.push(
        (await api.post("/v1/contacts", { email, topic_ids: email === "n@example.com" ? undefined : [topicId] })).body
          .data.id,
      );
    }
    await optOut(ctx, ids[1]!, "all");
    await createSuppression(ctx, systemActor("test", workspaceId), { email: "b@example.com" }, "bounce");
    await createSuppression(ctx, systemActor("test", workspaceId), { email: "c@example.com" }, "complaint");
    await optOut(ctx, ids[4]!, topicId);
    const { contacts } = (await api.get("/v1/reports/summary")).body.data;
    expect(contacts).toEqual({ total: 6, subscribed: 2, unsubscribed: 2, bounced: 1, complained: 1 });
    expect(contacts.subscribed + contacts.unsubscribed + contacts.bounced + contacts.complained).toBe(contacts.total);
  });

  it("a brand-scoped key reports that brand only: scope brand, its lists, topics and campaigns; contacts and sends stay workspace-wide", async () => {
    const { workspaceId, brandId } = await seedWorkspace(ctx);
    const { brandId: other } = await createBrand(ctx, systemActor("test", workspaceId), {
      name: "Other",
      legalName: "Other Ltd",
      postalAddress: "4 St",
      websiteUrl: "https://o.test",
      senderEmail: "o@o.test",
    });
    const mine = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
    const theirs = await seedTopic(ctx, workspaceId, other, { requiresConfirmation: false });
    await createList(ctx, systemActor("test", workspaceId), { brandId: other, name: "Theirs" });
    await seedSentCampaign(ctx, { workspaceId, brandId: other, topicId: theirs, emails: ["a@example.com"] });
    await createCampaign(ctx, systemActor("test", workspaceId), {
      brandId,
      topicId: mine,
      name: "Mine",
      subject: "Hi",
      html: "<p>x</p>",
    });
    const body = (await apiClient((await seedKey(ctx, workspaceId, { brandId })).key).get("/v1/reports/summary")).body;
    expect(body.data).toMatchObject({
      contacts: { total: 1 },
      lists: { total: 0, memberships: 0 },
      topics: { total: 1 },
      campaigns: { total: 1, sent: 0, draft: 1 },
      sends: { used_this_period: 1, scope: "workspace" },
      scope: { type: "brand", brand_id: brandId },
    });
  });

  it("If-None-Match with the current ETag answers 304 with no body, the ETag and Cache-Control; the ETag holds while nothing changes", async () => {
    const { workspaceId } = await seedWorkspace(ctx);
    const api = apiClient((await seedKey(ctx, workspaceId)).key);
    const first = await api.get("/v1/reports/summary");
    const etag = first.headers.get("etag")!;
    expect((await api.get("/v1/reports/summary")).headers.get("etag")).toBe(etag);
    const revalidated = await api.get("/v1/reports/summary", { headers: { "if-none-match": etag } });
    expect(revalidated.status).toBe(304);
    expect(revalidated.body).toBeNull();
    expect(revalidated.headers.get("etag")).toBe(etag);
    expect(revalidated.headers.get("cache-control")).toBe("private, max-age=0, must-revalidate");
    expect((await api.get("/v1/reports/summary", { headers: { "if-none-match": '"something-else"' } })).status).toBe(
      200,
    );
  });

  it("a change to the audience, even by a test key, changes the ETag on the next request", async () => {
    const { workspaceId } = await seedWorkspace(ctx);
    const api = apiClient((await seedKey(ctx, workspaceId)).key);
    const etag = (await api.get("/v1/reports/summary")).headers.get("etag")!;
    await apiClient((await seedKey(ctx, workspaceId, { environment: "test" })).key).post("/v1/contacts", {
      email: "new@example.com",
    });
    const after = await api.get("/v1/reports/summary", { headers: { "if-none-match": etag } });
    expect(after.status).toBe(200);
    expect(after.headers.get("etag")).not.toBe(etag);
    expect(after.body.data.contacts.total).toBe(1);
  });

  it("the three report routes share one bucket of 30 requests per minute per key, and 304s count", async () => {
    const { workspaceId } = await seedWorkspace(ctx);
    const api = apiClient((await seedKey(ctx, workspaceId)).key);
    const etag = (await api.get("/v1/reports/summary")).headers.get("etag")!;
    for (let i = 0; i < 19; i++)
      expect((await api.get("/v1/reports/summary", { headers: { "if-none-match": etag } })).status).toBe(304);
    for (let i = 0; i < 10; i++) expect((await api.get("/v1/reports/campaigns")).status).toBe(200);
    const limited = await api.get("/v1/reports/activity");
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe("rate_limited");
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
  });

  it("unknown query parameters are validation_failed; publishable keys are refused", async () => {
    const { workspaceId } = await seedWorkspace(ctx);
    const unknown = await apiClient((await seedKey(ctx, workspaceId)).key).get("/v1/reports/summary?from=2026-01-01");
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ code: "validation_failed", param: "from" });
    const publishable = await apiClient((await seedKey(ctx, workspaceId, { kind: "publishable" })).key).get(
      "/v1/reports/summary",
    );
    expect(publishable.body.error.code).toBe("publishable_key_not_allowed");
  });
});
