import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { systemActor } from "@/lib/actor";
import { subscriptions } from "@/lib/db/schema";
import { createSuppression } from "@/lib/suppressions/create-suppression";
import { apiClient } from "@/lib/testing/api-client";
import { seedKey, seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

const { ctx } = testCtx();

async function setup() {
  const { workspaceId, brandId } = await seedWorkspace(ctx);
  return { workspaceId, brandId, api: apiClient((await seedKey(ctx, workspaceId)).key) };
}

describe("POST /v1/suppressions", () => {
  it("suppresses an address: 201 with { data: { id, email, domain, reason: manual, note, created_at } }", async () => {
    const { api } = await setup();
    const response = await api.post("/v1/suppressions", { email: "Block@Example.com", note: "asked by phone" });
    expect(response.status).toBe(201);
    expect(response.body.data).toEqual({
      id: expect.stringMatching(/^sup_/),
      email: "block@example.com",
      domain: null,
      reason: "manual",
      note: "asked by phone",
      created_at: expect.any(String),
    });
  });

  it("suppresses a domain given as a bare hostname", async () => {
    const { api } = await setup();
    const response = await api.post("/v1/suppressions", { domain: "Competitor.EXAMPLE" });
    expect(response.status).toBe(201);
    expect(response.body.data).toMatchObject({ email: null, domain: "competitor.example", reason: "manual", note: "" });
    for (const domain of [
      "https://competitor.example",
      "competitor.example/path",
      "user@competitor.example",
      "localhost",
      "a..b",
    ]) {
      expect((await api.post("/v1/suppressions", { domain })).body.error, domain).toMatchObject({
        code: "validation_failed",
        param: "domain",
      });
    }
  });

  it("one of email or domain is required", async () => {
    const { api } = await setup();
    expect((await api.post("/v1/suppressions", { note: "x" })).body.error).toMatchObject({
      code: "validation_failed",
      param: "email",
    });
    expect(
      (await api.post("/v1/suppressions", { email: "a@example.com", domain: "example.com" })).body.error,
    ).toMatchObject({ code: "validation_failed" });
  });

  it("suppressing what is already suppressed answers 200 with the existing row", async () => {
    const { api } = await setup();
    const first = await api.post("/v1/suppressions", { email: "dup@example.com", note: "first" });
    const again = await api.post("/v1/suppressions", { email: "DUP@example.com", note: "second" });
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(first.body.data);
  });

  it("a suppressed address keeps its subscriptions: the block is separate from consent", async () => {
    const { api, workspaceId, brandId } = await setup();
    const topicId = await seedTopic(ctx, workspaceId, brandId);
    const id = (await api.post("/v1/contacts", { email: "kept@example.com", topic_ids: [topicId] })).body.data.id;
    await api.post("/v1/suppressions", { email: "kept@example.com" });
    expect(
      await ctx.db.select({ state: subscriptions.state }).from(subscriptions).where(eq(subscriptions.contactId, id)),
    ).toEqual([{ state: "subscribed" }]);
  });
});

describe("GET /v1/suppressions", () => {
  it("lists suppressions newest first", async () => {
    const { api } = await setup();
    await api.post("/v1/suppressions", { email: "one@example.com" });
    await api.post("/v1/suppressions", { domain: "two.example" });
    const response = await api.get("/v1/suppressions");
    expect(response.body.data.map((s: { email: string | null; domain: string | null }) => s.email ?? s.domain)).toEqual(
      ["two.example", "one@example.com"],
    );
    expect(response.body.meta).toEqual({ limit: 20, has_more: false, next_cursor: null });
  });
});

describe("DELETE /v1/suppressions/{id}", () => {
  it("removes a suppression: 200 with { data: { id, deleted: true } }; does not resubscribe", async () => {
    const { api, workspaceId, brandId } = await setup();
    const topicId = await seedTopic(ctx, workspaceId, brandId);
    const contactId = (await api.post("/v1/contacts", { email: "lifted@example.com", topic_ids: [topicId] })).body.data
      .id;
    await ctx.db.update(subscriptions).set({ state: "unsubscribed" }).where(eq(subscriptions.contactId, contactId));
    const { suppression } = await createSuppression(
      ctx,
      systemActor("test", workspaceId),
      { email: "lifted@example.com" },
      "bounce",
    );
    expect((await api.get(`/v1/contacts/${contactId}`)).body.data.status).toBe("bounced");
    const response = await api.delete(`/v1/suppressions/${suppression.id}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ data: { id: suppression.id, deleted: true } });
    expect((await api.get(`/v1/contacts/${contactId}`)).body.data.status).toBe("unsubscribed");
    expect((await api.get("/v1/suppressions")).body.data).toEqual([]);
  });

  it("permanent-bounce suppressions can be removed; suppressions created by complaints cannot (suppression_not_removable)", async () => {
    const { api, workspaceId } = await setup();
    const { suppression: complaint } = await createSuppression(
      ctx,
      systemActor("test", workspaceId),
      { email: "angry@example.com" },
      "complaint",
    );
    const response = await api.delete(`/v1/suppressions/${complaint.id}`);
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ type: "invalid_request_error", code: "suppression_not_removable" });
    expect((await api.get("/v1/suppressions")).body.data).toHaveLength(1);
  });

  it("suppression_not_found (404) for an unknown id or another workspace's suppression", async () => {
    const mine = await setup();
    const theirs = await setup();
    const id = (await mine.api.post("/v1/suppressions", { email: "x@example.com" })).body.data.id;
    for (const response of [
      await theirs.api.delete(`/v1/suppressions/${id}`),
      await mine.api.delete("/v1/suppressions/sup_01aaaaaaaaaaaaaaaaaaaaaaaa"),
    ]) {
      expect(response.status).toBe(404);
      expect(response.body.error).toMatchObject({ type: "not_found_error", code: "suppression_not_found" });
    }
    expect((await mine.api.get("/v1/suppressions")).body.data).toHaveLength(1);
  });
});
