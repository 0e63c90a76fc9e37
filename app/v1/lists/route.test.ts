import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { systemActor } from "@/lib/actor";
import { createBrand } from "@/lib/brands/create-brand";
import { subscriptions } from "@/lib/db/schema";
import { createList } from "@/lib/lists/create-list";
import { apiClient } from "@/lib/testing/api-client";
import { seedKey, seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

const { ctx } = testCtx();

async function setup() {
  const { workspaceId, brandId } = await seedWorkspace(ctx);
  const { listId } = await createList(ctx, systemActor("test", workspaceId), { brandId, name: "VIP" });
  const api = apiClient((await seedKey(ctx, workspaceId)).key);
  const contactIds: string[] = [];
  for (const name of ["a", "b", "c"])
    contactIds.push((await api.post("/v1/contacts", { email: `${name}@example.com` })).body.data.id);
  return { workspaceId, brandId, listId, api, contactIds };
}

describe("GET /v1/lists", () => {
  it("lists lists with id, name, description, brand_id, member_count, created_at", async () => {
    const { api, listId, brandId, contactIds } = await setup();
    await api.post(`/v1/lists/${listId}/members`, { contact_ids: contactIds.slice(0, 2) });
    expect((await api.get("/v1/lists")).body).toEqual({
      data: [
        {
          id: listId,
          name: "VIP",
          description: "",
          brand_id: brandId,
          member_count: 2,
          created_at: expect.any(String),
        },
      ],
      meta: { limit: 20, has_more: false, next_cursor: null },
    });
  });

  it("a brand-scoped key sees only its brand's lists", async () => {
    const { workspaceId, brandId, listId } = await setup();
    const { brandId: other } = await createBrand(ctx, systemActor("test", workspaceId), {
      name: "O",
      legalName: "O Ltd",
      postalAddress: "5 Ave",
      websiteUrl: "https://o.test",
      senderEmail: "o@o.test",
    });
    await createList(ctx, systemActor("test", workspaceId), { brandId: other, name: "Theirs" });
    const locked = apiClient((await seedKey(ctx, workspaceId, { brandId })).key);
    expect((await locked.get("/v1/lists")).body.data.map((l: { id: string }) => l.id)).toEqual([listId]);
  });
});

describe("POST /v1/lists/{id}/members", () => {
  it("answers { data: { added, already_members, member_count } }; idempotent: existing members count as already_members", async () => {
    const { api, listId, contactIds } = await setup();
    const first = await api.post(`/v1/lists/${listId}/members`, { contact_ids: contactIds.slice(0, 2) });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ data: { added: 2, already_members: 0, member_count: 2 } });
    const again = await api.post(`/v1/lists/${listId}/members`, { contact_ids: contactIds });
    expect(again.body).toEqual({ data: { added: 1, already_members: 2, member_count: 3 } });
    const duplicates = await api.post(`/v1/lists/${listId}/members`, { contact_ids: [contactIds[0], contactIds[0]] });
    expect(duplicates.body).toEqual({ data: { added: 0, already_members: 1, member_count: 3 } });
  });

  it("an unknown contact id refuses the whole call and changes nothing", async () => {
    const { api, listId, contactIds } = await setup();
    const response = await api.post(`/v1/lists/${listId}/members`, {
      contact_ids: [contactIds[0], "ct_01aaaaaaaaaaaaaaaaaaaaaaaa"],
    });
    expect(response.status).toBe(404);
    expect(response.body.error).toMatchObject({ code: "contact_not_found", param: "contact_ids.1" });
    expect((await api.get("/v1/lists")).body.data[0].member_count).toBe(0);
  });

  it("list_not_found for another workspace's list or, for a brand-locked key, another brand's list", async () => {
    const { api, workspaceId, listId, contactIds } = await setup();
    const other = await setup();
    expect(
      (await other.api.post(`/v1/lists/${listId}/members`, { contact_ids: other.contactIds })).body.error,
    ).toMatchObject({ type: "not_found_error", code: "list_not_found" });
    const { brandId: second } = await createBrand(ctx, systemActor("test", workspaceId), {
      name: "S",
      legalName: "S Ltd",
      postalAddress: "6 Rd",
      websiteUrl: "https://s.test",
      senderEmail: "s@s.test",
    });
    const locked = apiClient((await seedKey(ctx, workspaceId, { brandId: second })).key);
    expect((await locked.post(`/v1/lists/${listId}/members`, { contact_ids: contactIds })).body.error.code).toBe(
      "list_not_found",
    );
    expect((await api.get("/v1/lists")).body.data[0].member_count).toBe(0);
  });

  it("contact_ids: 1 to 1,000 per call", async () => {
    const { api, listId } = await setup();
    expect((await api.post(`/v1/lists/${listId}/members`, { contact_ids: [] })).body.error).toMatchObject({
      code: "validation_failed",
      param: "contact_ids",
    });
    const many = Array.from({ length: 1001 }, (_, i) => `ct_${i}`);
    expect((await api.post(`/v1/lists/${listId}/members`, { contact_ids: many })).body.error).toMatchObject({
      code: "validation_failed",
      param: "contact_ids",
    });
  });
});

describe("DELETE /v1/lists/{id}/members", () => {
  it("answers { data: { removed, member_count } } and does not unsubscribe anyone", async () => {
    const { api, listId, workspaceId, brandId } = await setup();
    const topicId = await seedTopic(ctx, workspaceId, brandId);
    const subscribed = (await api.post("/v1/contacts", { email: "sub@example.com", topic_ids: [topicId] })).body.data
      .id;
    await api.post(`/v1/lists/${listId}/members`, { contact_ids: [subscribed] });
    const response = await api.delete(`/v1/lists/${listId}/members`, { contact_ids: [subscribed] });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ data: { removed: 1, member_count: 0 } });
    expect(
      await ctx.db
        .select({ state: subscriptions.state })
        .from(subscriptions)
        .where(eq(subscriptions.contactId, subscribed)),
    ).toEqual([{ state: "subscribed" }]);
    expect((await api.get(`/v1/contacts/${subscribed}`)).body.data.status).toBe("subscribed");
    expect((await api.delete(`/v1/lists/${listId}/members`, { contact_ids: [subscribed] })).body).toEqual({
      data: { removed: 0, member_count: 0 },
    });
  });
});
