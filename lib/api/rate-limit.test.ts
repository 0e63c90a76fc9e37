import { inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { rateLimitWindows, workspaceBilling, type BillingStage } from "@/lib/db/schema";
import { ApiError } from "@/lib/errors";
import { apiClient } from "@/lib/testing/api-client";
import { seedKey, seedTopic, seedWorkspace, setBillingStage } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import { authenticate } from "./authenticate";
import { checkKeyUse } from "./check-key-use";
import { consumeRateLimit } from "./rate-limit";

const { ctx } = testCtx();

async function exhaust(call: () => Promise<{ status: number }>, times: number) {
  const statuses = [];
  for (let i = 0; i < times; i++) statuses.push((await call()).status);
  return statuses;
}

describe("Limits", () => {
  it("every /v1 response carries RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset", async () => {
    const { workspaceId } = await seedWorkspace(ctx);
    const { key } = await seedKey(ctx, workspaceId);
    const first = await apiClient(key).get("/v1/contacts");
    expect(first.headers.get("ratelimit-limit")).toBe("120");
    expect(first.headers.get("ratelimit-remaining")).toBe("119");
    expect(Number(first.headers.get("ratelimit-reset"))).toBeGreaterThanOrEqual(1);
    expect(Number(first.headers.get("ratelimit-reset"))).toBeLessThanOrEqual(60);
    const invalid = await apiClient(key).get("/v1/contacts?limit=0");
    expect(invalid.status).toBe(400);
    expect(invalid.headers.get("ratelimit-remaining")).toBe("118");
  });

  it("an answer refused before the rate limit (team_inactive, a publishable key off subscribe, a secret key from a browser, a refused origin) carries the key's RateLimit headers and is not counted", async () => {
    const { workspaceId, brandId } = await seedWorkspace(ctx);
    const topicId = await seedTopic(ctx, workspaceId, brandId);
    const secret = apiClient((await seedKey(ctx, workspaceId)).key);
    const publishable = apiClient(
      (await seedKey(ctx, workspaceId, { kind: "publishable", origins: ["https://shop.example.com"] })).key,
    );
    const counted = (response: { headers: Headers }) => [
      response.headers.get("ratelimit-limit"),
      response.headers.get("ratelimit-remaining"),
    ];

    const blocked = await seedWorkspace(ctx);
    const blockedKey = apiClient((await seedKey(ctx, blocked.workspaceId)).key);
    await setBillingStage(ctx, blocked.workspaceId, "read_only");
    const inactive = await blockedKey.post("/v1/contacts", { email: "a@example.com" });
    expect(inactive.body.error.code).toBe("team_inactive");
    expect(counted(inactive)).toEqual(["120", "120"]);
    expect(Number(inactive.headers.get("ratelimit-reset"))).toBeGreaterThanOrEqual(1);
    expect((await blockedKey.get("/v1/contacts")).headers.get("ratelimit-remaining")).toBe("119");

    const offRoute = await publishable.post(
      "/v1/contacts",
      { email: "a@example.com" },
      { headers: { origin: "https://shop.example.com" } },
    );
    expect(offRoute.body.error.code).toBe("publishable_key_not_allowed");
    expect(counted(offRoute)).toEqual(["120", "120"]);
    const fromBrowser = await secret.post(
      "/v1/contacts",
      { email: "a@example.com" },
      { headers: { origin: "https://shop.example.com" } },
    );
    expect(fromBrowser.body.error.code).toBe("secret_key_in_browser");
    expect(counted(fromBrowser)).toEqual(["120", "120"]);
    expect((await secret.post("/v1/contacts", { email: "a@example.com" })).headers.get("ratelimit-remaining")).toBe(
      "119",
    );

    const body = { topic_id: topicId, email: "reader@example.com" };
    const refusedOrigin = await publishable.post("/v1/subscribe", body, {
      headers: { origin: "https://evil.example.net" },
    });
    expect(refusedOrigin.body.error.code).toBe("origin_not_allowed");
    expect(counted(refusedOrigin)).toEqual(["30", "30"]);
    expect(refusedOrigin.headers.get("access-control-allow-origin")).toBeNull();
    expect(
      (await publishable.post("/v1/subscribe", body, { headers: { origin: "https://shop.example.com" } })).headers.get(
        "ratelimit-remaining",
      ),
    ).toBe("29");
  });

  it("an answer without a usable key carries no RateLimit headers: there is no key whose budget to report", async () => {
    for (const response of [
      await apiClient(null).get("/v1/contacts"),
      await apiClient("sk_test_not_a_key").get("/v1/contacts"),
    ]) {
      expect(response.status).toBe(401);
      expect(response.headers.get("ratelimit-limit")).toBeNull();
    }
  });

  it("POST /v1/subscribe: 30 per minute; exceeded is 429 rate_limited with Retry-After seconds", async () => {
    const { workspaceId, brandId } = await seedWorkspace(ctx);
    const topicId = await seedTopic(ctx, workspaceId, brandId);
    const { key } = await seedKey(ctx, workspaceId, { kind: "publishable" });
    const client = apiClient(key);
    const statuses = await exhaust(
      () => client.post("/v1/subscribe", { topic_id: topicId, email: "flood@example.com" }),
      30,
    );
    expect(statuses.every((s) => s === 200)).toBe(true);
    const refused = await client.post("/v1/subscribe", { topic_id: topicId, email: "flood@example.com" });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ type: "rate_limit_error", code: "rate_limited" });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get("ratelimit-remaining")).toBe("0");
  });

  it("rate limit basis is per API key, per minute, by route: buckets and keys do not share counts", async () => {
    const { workspaceId } = await seedWorkspace(ctx);
    const a = await seedKey(ctx, workspaceId);
    const b = await seedKey(ctx, workspaceId);
    await exhaust(() => apiClient(a.key).post("/v1/lists/ls_x/members", { contact_ids: ["ct_x"] }), 60);
    expect((await apiClient(a.key).delete("/v1/lists/ls_x/members", { contact_ids: ["ct_x"] })).status).toBe(429); // POST and DELETE share lists.members
    expect((await apiClient(a.key).get("/v1/lists")).status).toBe(200); // another bucket
    expect((await apiClient(b.key).post("/v1/lists/ls_x/members", { contact_ids: ["ct_x"] })).status).toBe(404); // another key
  });

  it("each bucket has the limit of docs/readings.md", async () => {
    const { workspaceId } = await seedWorkspace(ctx);
    const { key } = await seedKey(ctx, workspaceId);
    const limit = async (method: "get" | "post" | "delete", path: string, body?: unknown) =>
      (await (method === "get" ? apiClient(key).get(path) : apiClient(key)[method](path, body))).headers.get(
        "ratelimit-limit",
      );
    expect(await limit("post", "/v1/contacts", {})).toBe("120");
    expect(await limit("get", "/v1/contacts/ct_x")).toBe("120");
    expect(await limit("get", "/v1/topics")).toBe("120");
    expect(await limit("get", "/v1/suppressions")).toBe("120");
    expect(await limit("post", "/v1/suppressions", {})).toBe("120");
    expect(await limit("delete", "/v1/suppressions/sup_x")).toBe("120");
    expect(await limit("post", "/v1/lists/ls_x/members", {})).toBe("60");
  });

  it("the window slides: the previous minute's count weighs by how much of it still overlaps", async () => {
    const { workspaceId } = await seedWorkspace(ctx);
    const { keyId } = await seedKey(ctx, workspaceId);
    const { ctx: timed, clock } = testCtx(new Date("2026-06-01T12:00:00.000Z"));
    for (let i = 0; i < 30; i++) await consumeRateLimit(timed, keyId, "subscribe");
    await expect(consumeRateLimit(timed, keyId, "subscribe")).rejects.toBeInstanceOf(ApiError);
    // 15 s into the next minute, 3/4 of the 31 counted requests still weigh (23.25), plus this one: 5 of 30 remain.
    clock.set(new Date("2026-06-01T12:01:15.000Z"));
    const state = await consumeRateLimit(timed, keyId, "subscribe");
    expect(state.remaining).toBe(5);
    // Two minutes on, nothing of the burst counts.
    clock.set(new Date("2026-06-01T12:03:00.000Z"));
    expect((await consumeRateLimit(timed, keyId, "subscribe")).remaining).toBe(29);
  });

  it("the key look-up counts exactly the requests that the checks before the rate limit admit, over every combination of key, origin, stage and method", async () => {
    const stages: (BillingStage | null)[] = [null, "active", "read_only", "deletion_scheduled", "deleted"];
    const origins = [
      null,
      "https://shop.example.com",
      "https://SHOP.example.com:443/",
      "https://evil.example.net",
      "not an origin",
    ];
    let admitted = 0;
    const keyIds: string[] = [];
    for (const stage of stages) {
      const { workspaceId } = await seedWorkspace(ctx);
      if (stage === null)
        await ctx.db.delete(workspaceBilling).where(inArray(workspaceBilling.workspaceId, [workspaceId]));
      else await setBillingStage(ctx, workspaceId, stage);
      const keys = [
        await seedKey(ctx, workspaceId),
        await seedKey(ctx, workspaceId, { kind: "publishable" }),
        await seedKey(ctx, workspaceId, { kind: "publishable", origins: ["https://shop.example.com"] }),
      ];
      for (const { key, keyId } of keys) {
        keyIds.push(keyId);
        for (const origin of origins)
          for (const allowsPublishable of [true, false])
            for (const write of [true, false]) {
              const use = { bucket: "contacts.list" as const, allowsPublishable, origin, write };
              const admission = await authenticate(ctx, `Bearer ${key}`, use);
              let refused = false;
              try {
                checkKeyUse(admission.key, use);
              } catch (error) {
                expect(error).toBeInstanceOf(ApiError);
                refused = true;
              }
              expect({
                stage,
                kind: admission.key.kind,
                origin,
                allowsPublishable,
                write,
                counted: admission.counted,
              }).toEqual({
                stage,
                kind: admission.key.kind,
                origin,
                allowsPublishable,
                write,
                counted: !refused,
              });
              if (!refused) admitted++;
            }
      }
    }
    const counts = await ctx.db
      .select({ count: rateLimitWindows.count })
      .from(rateLimitWindows)
      .where(inArray(rateLimitWindows.keyId, keyIds));
    expect(counts.reduce((sum, row) => sum + row.count, 0)).toBe(admitted);
    expect(admitted).toBeGreaterThan(0);
  });
});
