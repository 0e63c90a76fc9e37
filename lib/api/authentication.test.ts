import { describe, expect, it } from "vitest";

import { systemActor } from "@/lib/actor";
import { generateKey } from "@/lib/api-keys/key-format";
import { revokeApiKey } from "@/lib/api-keys/revoke-api-key";
import { ApiError } from "@/lib/errors";
import { apiClient, callApi } from "@/lib/testing/api-client";
import { seedKey, seedTopic, seedWorkspace, setBillingStage } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import { toErrorResponse } from "./error-response";

const { ctx } = testCtx();

function expectError(
  response: { status: number; body: { error: Record<string, unknown> } },
  status: number,
  type: string,
  code: string,
) {
  expect(response.status).toBe(status);
  expect(response.body.error).toMatchObject({ type, code, message: expect.any(String) });
}

describe("Authentication", () => {
  it("missing or malformed header: missing_api_key, 401", async () => {
    const { workspaceId } = await seedWorkspace(ctx);
    const { key } = await seedKey(ctx, workspaceId);
    for (const authorization of [
      undefined,
      "",
      "Bearer",
      "Bearer ",
      `Basic ${key}`,
      `bearer ${key}`,
      `Token ${key}`,
      `Bearer ${key} extra`,
    ]) {
      const response = await callApi("GET", "/v1/topics", {
        headers: authorization === undefined ? {} : { authorization },
      });
      expectError(response, 401, "authentication_error", "missing_api_key");
    }
  });

  it("unrecognised or revoked key: invalid_api_key, 401", async () => {
    const { workspaceId } = await seedWorkspace(ctx);
    const { key } = await seedKey(ctx, workspaceId);
    expectError(
      await apiClient(generateKey("secret", "live")).get("/v1/topics"),
      401,
      "authentication_error",
      "invalid_api_key",
    );
    expectError(
      await apiClient(key.slice(0, -1) + (key.endsWith("a") ? "b" : "a")).get("/v1/topics"),
      401,
      "authentication_error",
      "invalid_api_key",
    );
    expectError(await apiClient("sk_live_short").get("/v1/topics"), 401, "authentication_error", "invalid_api_key");
  });

  it("revocation takes effect on the next request; during a rotation both keys work", async () => {
    const { workspaceId } = await seedWorkspace(ctx);
    const old = await seedKey(ctx, workspaceId);
    const rotated = await seedKey(ctx, workspaceId);
    expect((await apiClient(old.key).get("/v1/topics")).status).toBe(200);
    expect((await apiClient(rotated.key).get("/v1/topics")).status).toBe(200);
    await revokeApiKey(ctx, systemActor("test", workspaceId), old.keyId);
    expectError(await apiClient(old.key).get("/v1/topics"), 401, "authentication_error", "invalid_api_key");
    expect((await apiClient(rotated.key).get("/v1/topics")).status).toBe(200);
  });

  it("a publishable key reaches only POST /v1/subscribe: publishable_key_not_allowed, 403, even if valid", async () => {
    const { workspaceId } = await seedWorkspace(ctx);
    const { key } = await seedKey(ctx, workspaceId, { kind: "publishable" });
    const client = apiClient(key);
    const calls = [
      client.get("/v1/contacts"),
      client.get("/v1/contacts/ct_x"),
      client.post("/v1/contacts", { email: "a@example.com" }),
      client.get("/v1/topics"),
      client.get("/v1/lists"),
      client.post("/v1/lists/ls_x/members", { contact_ids: ["ct_x"] }),
      client.delete("/v1/lists/ls_x/members", { contact_ids: ["ct_x"] }),
      client.get("/v1/suppressions"),
      client.post("/v1/suppressions", { email: "a@example.com" }),
      client.delete("/v1/suppressions/sup_x"),
    ];
    for (const response of await Promise.all(calls))
      expectError(response, 403, "permission_error", "publishable_key_not_allowed");
  });

  it("a publishable key with an origin allowlist refuses other and missing origins: origin_not_allowed, 403", async () => {
    const { workspaceId, brandId } = await seedWorkspace(ctx);
    const topicId = await seedTopic(ctx, workspaceId, brandId);
    const { key } = await seedKey(ctx, workspaceId, { kind: "publishable", origins: ["https://shop.example.com"] });
    const body = { topic_id: topicId, email: "reader@example.com" };
    const other = await apiClient(key).post("/v1/subscribe", body, { headers: { origin: "https://evil.example.net" } });
    expectError(other, 403, "permission_error", "origin_not_allowed");
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
    expectError(await apiClient(key).post("/v1/subscribe", body), 403, "permission_error", "origin_not_allowed");
    expectError(
      await apiClient(key).post("/v1/subscribe", body, { headers: { origin: "http://shop.example.com" } }),
      403,
      "permission_error",
      "origin_not_allowed",
    );
    // Origins compare as scheme + host + port: the default port is the same origin.
    const allowed = await apiClient(key).post("/v1/subscribe", body, {
      headers: { origin: "https://shop.example.com:443" },
    });
    expect(allowed.status).toBe(200);
  });

  it("a publishable key without an allowlist accepts any origin", async () => {
    const { workspaceId, brandId } = await seedWorkspace(ctx);
    const topicId = await seedTopic(ctx, workspaceId, brandId);
    const { key } = await seedKey(ctx, workspaceId, { kind: "publishable" });
    const response = await apiClient(key).post(
      "/v1/subscribe",
      { topic_id: topicId, email: "x@example.com" },
      { headers: { origin: "https://anywhere.example" } },
    );
    expect(response.status).toBe(200);
  });

  it("a blocked workspace answers team_inactive (403): read-only changes nothing, deleted does nothing", async () => {
    const { workspaceId } = await seedWorkspace(ctx);
    const { key } = await seedKey(ctx, workspaceId);
    await setBillingStage(ctx, workspaceId, "read_only");
    expectError(
      await apiClient(key).post("/v1/contacts", { email: "a@example.com" }),
      403,
      "permission_error",
      "team_inactive",
    );
    expect((await apiClient(key).get("/v1/contacts")).status).toBe(200);
    await setBillingStage(ctx, workspaceId, "deleted");
    expectError(await apiClient(key).get("/v1/contacts"), 403, "permission_error", "team_inactive");
    await setBillingStage(ctx, workspaceId, "overdue");
    expect((await apiClient(key).post("/v1/contacts", { email: "a@example.com" })).status).toBe(201);
  });
});

describe("Errors", () => {
  it("errors have the shape { error: { type, code, message, param } } with param only when one field caused it", async () => {
    const { workspaceId } = await seedWorkspace(ctx);
    const { key } = await seedKey(ctx, workspaceId);
    const withParam = await apiClient(key).post("/v1/contacts", { email: "nope" });
    expect(withParam.status).toBe(400);
    expect(withParam.body).toEqual({
      error: { type: "invalid_request_error", code: "validation_failed", message: expect.any(String), param: "email" },
    });
    const withoutParam = await apiClient(null).get("/v1/topics");
    expect(Object.keys(withoutParam.body.error).sort()).toEqual(["code", "message", "type"]);
  });

  it("a 5xx never leaks internals", async () => {
    const response = toErrorResponse(
      new Error("connection to 10.0.0.7 failed: password authentication failed for user admin"),
    );
    const body = await response.json();
    expect(response.status).toBe(500);
    expect(JSON.stringify(body)).not.toMatch(/10\.0\.0\.7|password|admin/);
    expect(body.error).toMatchObject({ type: "api_error", code: "internal_error" });
    expect(toErrorResponse(new ApiError({ type: "not_found_error", code: "x", message: "m" })).status).toBe(404);
  });
});
