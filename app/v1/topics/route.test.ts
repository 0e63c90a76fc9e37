import { describe, expect, it } from "vitest";

import { systemActor } from "@/lib/actor";
import { createBrand } from "@/lib/brands/create-brand";
import { apiClient } from "@/lib/testing/api-client";
import { seedKey, seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";
import { archiveTopic } from "@/lib/topics/archive-topic";

const { ctx } = testCtx();

describe("GET /v1/topics", () => {
  it("lists topics with id, name, description, brand_id, requires_confirmation, subscriber_count, created_at", async () => {
    const { workspaceId, brandId } = await seedWorkspace(ctx);
    const topicId = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
    const response = await apiClient((await seedKey(ctx, workspaceId)).key).get("/v1/topics");
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      data: [
        {
          id: topicId,
          name: expect.any(String),
          description: "",
          brand_id: brandId,
          requires_confirmation: false,
          subscriber_count: 0,
          created_at: expect.any(String),
        },
      ],
      meta: { limit: 20, has_more: false, next_cursor: null },
    });
  });

  it("subscriber_count counts confirmed subscribers only; pending ones are excluded", async () => {
    const { workspaceId, brandId } = await seedWorkspace(ctx);
    const topicId = await seedTopic(ctx, workspaceId, brandId);
    const api = apiClient((await seedKey(ctx, workspaceId)).key);
    const form = apiClient((await seedKey(ctx, workspaceId, { kind: "publishable" })).key);
    await api.post("/v1/contacts", { email: "a@example.com", topic_ids: [topicId] });
    await api.post("/v1/contacts", { email: "b@example.com", topic_ids: [topicId] });
    await form.post("/v1/subscribe", { topic_id: topicId, email: "pending@example.com" });
    expect((await api.get("/v1/topics")).body.data[0].subscriber_count).toBe(2);
  });

  it("a brand-scoped key sees only that brand's topics; archived topics are not listed", async () => {
    const { workspaceId, brandId } = await seedWorkspace(ctx);
    const { brandId: other } = await createBrand(ctx, systemActor("test", workspaceId), {
      name: "Other",
      legalName: "Other Ltd",
      postalAddress: "4 St",
      websiteUrl: "https://o.test",
      senderEmail: "o@o.test",
    });
    const mine = await seedTopic(ctx, workspaceId, brandId);
    const theirs = await seedTopic(ctx, workspaceId, other);
    const archived = await seedTopic(ctx, workspaceId, brandId);
    await archiveTopic(ctx, systemActor("test", workspaceId), archived);
    const ids = async (key: string) =>
      (await apiClient(key).get("/v1/topics")).body.data.map((t: { id: string }) => t.id).sort();
    expect(await ids((await seedKey(ctx, workspaceId, { brandId })).key)).toEqual([mine]);
    expect(await ids((await seedKey(ctx, workspaceId)).key)).toEqual([mine, theirs].sort());
  });
});
