import { describe, expect, it } from "vitest";

import { systemActor } from "@/lib/actor";
import { createList } from "@/lib/lists/create-list";
import { apiClient } from "@/lib/testing/api-client";
import { seedKey, seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

const { ctx } = testCtx();

async function tenant(name: string) {
  const { workspaceId, brandId } = await seedWorkspace(ctx);
  const topicId = await seedTopic(ctx, workspaceId, brandId);
  const { listId } = await createList(ctx, systemActor("test", workspaceId), { brandId, name: `${name} list` });
  const api = apiClient((await seedKey(ctx, workspaceId)).key);
  const form = apiClient((await seedKey(ctx, workspaceId, { kind: "publishable" })).key);
  const contactId = (
    await api.post("/v1/contacts", { email: "shared@example.com", first_name: name, topic_ids: [topicId] })
  ).body.data.id;
  const suppressionId = (await api.post("/v1/suppressions", { email: `${name}@blocked.example` })).body.data.id;
  await api.post(`/v1/lists/${listId}/members`, { contact_ids: [contactId] });
  return { workspaceId, topicId, listId, api, form, contactId, suppressionId };
}

describe("tenant isolation", () => {
  it("a key of workspace A can neither read nor change anything of workspace B, even by guessing ids", async () => {
    const a = await tenant("a");
    const b = await tenant("b");

    // The same address is a separate contact per workspace.
    expect(a.contactId).not.toBe(b.contactId);
    expect((await a.api.get("/v1/contacts")).body.data.map((c: { id: string }) => c.id)).toEqual([a.contactId]);
    expect((await a.api.get("/v1/topics")).body.data.map((t: { id: string }) => t.id)).toEqual([a.topicId]);
    expect((await a.api.get("/v1/lists")).body.data.map((l: { id: string }) => l.id)).toEqual([a.listId]);
    expect((await a.api.get("/v1/suppressions")).body.data.map((s: { id: string }) => s.id)).toEqual([a.suppressionId]);

    expect((await a.api.get(`/v1/contacts/${b.contactId}`)).body.error.code).toBe("contact_not_found");
    expect((await a.api.get(`/v1/contacts?topic_id=${b.topicId}`)).body.error.code).toBe("topic_not_found");
    expect(
      (await a.api.post("/v1/contacts", { email: "new@example.com", topic_ids: [b.topicId] })).body.error.code,
    ).toBe("topic_not_found");
    expect(
      (await a.form.post("/v1/subscribe", { topic_id: b.topicId, email: "new@example.com" })).body.error.code,
    ).toBe("topic_not_found");
    expect((await a.api.post(`/v1/lists/${b.listId}/members`, { contact_ids: [a.contactId] })).body.error.code).toBe(
      "list_not_found",
    );
    expect((await a.api.delete(`/v1/lists/${b.listId}/members`, { contact_ids: [b.contactId] })).body.error.code).toBe(
      "list_not_found",
    );
    expect((await a.api.post(`/v1/lists/${a.listId}/members`, { contact_ids: [b.contactId] })).body.error.code).toBe(
      "contact_not_found",
    );
    expect((await a.api.delete(`/v1/suppressions/${b.suppressionId}`)).body.error.code).toBe("suppression_not_found");

    // B is untouched.
    const contactOfB = (await b.api.get(`/v1/contacts/${b.contactId}`)).body.data;
    expect(contactOfB).toMatchObject({ first_name: "b", status: "subscribed" });
    expect((await b.api.get("/v1/lists")).body.data[0].member_count).toBe(1);
    expect((await b.api.get("/v1/suppressions")).body.data).toHaveLength(1);
    expect((await b.api.get("/v1/topics")).body.data[0].subscriber_count).toBe(1);
  });

  it("a suppression in workspace A does not change a contact's status in workspace B", async () => {
    const a = await tenant("a");
    const b = await tenant("b");
    const { createSuppression } = await import("@/lib/suppressions/create-suppression");
    await createSuppression(ctx, systemActor("test", a.workspaceId), { email: "shared@example.com" }, "complaint");
    expect((await a.api.get(`/v1/contacts/${a.contactId}`)).body.data.status).toBe("complained");
    expect((await b.api.get(`/v1/contacts/${b.contactId}`)).body.data.status).toBe("subscribed");
  });
});
