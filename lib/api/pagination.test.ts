import { describe, expect, it } from "vitest";

import { systemActor } from "@/lib/actor";
import { upsertContact } from "@/lib/contacts/upsert-contact";
import { apiClient } from "@/lib/testing/api-client";
import { seedKey, seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

const { ctx } = testCtx();

async function workspaceWithContacts(count: number) {
  const { workspaceId, brandId } = await seedWorkspace(ctx);
  const { key } = await seedKey(ctx, workspaceId);
  const actor = systemActor("test", workspaceId);
  const ids: string[] = [];
  for (let i = 0; i < count; i++)
    ids.push((await upsertContact(ctx, actor, { email: `person${i}@example.com` })).contact.id);
  return { workspaceId, brandId, key, actor, ids };
}

describe("Pagination", () => {
  it("limit is 1 to 100, default 20; a list answers { data, meta: { limit, has_more, next_cursor } }", async () => {
    const { key } = await workspaceWithContacts(25);
    const first = await apiClient(key).get("/v1/contacts");
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(20);
    expect(first.body.meta).toEqual({ limit: 20, has_more: true, next_cursor: expect.any(String) });
    const all = await apiClient(key).get("/v1/contacts?limit=100");
    expect(all.body.data).toHaveLength(25);
    expect(all.body.meta).toEqual({ limit: 100, has_more: false, next_cursor: null });
  });

  it("outside the range is refused with invalid_limit, never clamped", async () => {
    const { key } = await workspaceWithContacts(1);
    for (const limit of ["0", "101", "-1", "abc", "1.5", "", "1e2", "0020"]) {
      const response = await apiClient(key).get(`/v1/contacts?limit=${limit}`);
      expect(response.status, limit).toBe(400);
      expect(response.body.error).toMatchObject({
        type: "invalid_request_error",
        code: "invalid_limit",
        param: "limit",
      });
    }
    expect((await apiClient(key).get("/v1/contacts?limit=1")).body.data).toHaveLength(1);
    expect((await apiClient(key).get("/v1/contacts?limit=100")).status).toBe(200);
  });

  it("when has_more is false, next_cursor is null; rows come newest first", async () => {
    const { key, ids } = await workspaceWithContacts(3);
    const page = await apiClient(key).get("/v1/contacts?limit=3");
    expect(page.body.meta).toMatchObject({ has_more: false, next_cursor: null });
    expect(page.body.data.map((c: { id: string }) => c.id)).toEqual([...ids].reverse());
  });

  it("cursors are anchored to a row: walking all pages returns every row once even while rows are inserted", async () => {
    const { key, actor, ids } = await workspaceWithContacts(23);
    const seen: string[] = [];
    let cursor: string | null = null;
    let inserted = 0;
    do {
      const response = await apiClient(key).get(
        `/v1/contacts?limit=5${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
      );
      expect(response.status).toBe(200);
      seen.push(...response.body.data.map((c: { id: string }) => c.id));
      cursor = response.body.meta.next_cursor;
      await upsertContact(ctx, actor, { email: `late${inserted++}@example.com` });
    } while (cursor);
    expect(seen.filter((id) => ids.includes(id)).sort()).toEqual([...ids].sort());
    expect(new Set(seen).size).toBe(seen.length);
  });

  it("any cursor value the service did not issue is refused with invalid_cursor", async () => {
    const { key } = await workspaceWithContacts(3);
    const { next_cursor: cursor } = (await apiClient(key).get("/v1/contacts?limit=1")).body.meta;
    const [payload, signature] = cursor.split(".");
    const forged = Buffer.from(
      JSON.stringify({
        ...JSON.parse(Buffer.from(payload, "base64url").toString()),
        a: "ct_zzzzzzzzzzzzzzzzzzzzzzzzzz",
      }),
    ).toString("base64url");
    for (const bad of [
      "abc",
      "",
      `${forged}.${signature}`,
      `${payload}.${signature}x`,
      `${payload}`,
      `${payload}.${signature}.x`,
    ]) {
      const response = await apiClient(key).get(`/v1/contacts?limit=1&cursor=${encodeURIComponent(bad)}`);
      expect(response.status, bad).toBe(400);
      expect(response.body.error).toMatchObject({
        type: "invalid_request_error",
        code: "invalid_cursor",
        param: "cursor",
      });
    }
  });

  it("a cursor is bound to the list it came from: other filters, routes or workspaces refuse it", async () => {
    const mine = await workspaceWithContacts(3);
    const theirs = await workspaceWithContacts(3);
    const topicId = await seedTopic(ctx, mine.workspaceId, mine.brandId);
    const { next_cursor: cursor } = (await apiClient(mine.key).get("/v1/contacts?limit=1")).body.meta;
    const c = encodeURIComponent(cursor);
    expect((await apiClient(mine.key).get(`/v1/contacts?limit=1&cursor=${c}`)).status).toBe(200);
    for (const response of [
      await apiClient(mine.key).get(`/v1/contacts?limit=1&status=subscribed&cursor=${c}`),
      await apiClient(mine.key).get(`/v1/contacts?limit=1&topic_id=${topicId}&cursor=${c}`),
      await apiClient(mine.key).get(`/v1/topics?cursor=${c}`),
      await apiClient(theirs.key).get(`/v1/contacts?limit=1&cursor=${c}`),
    ]) {
      expect(response.body.error?.code).toBe("invalid_cursor");
    }
  });
});
