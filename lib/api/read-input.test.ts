import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { contacts } from "@/lib/db/schema";
import { POST as createContact } from "@/app/v1/contacts/route";
import { callApi } from "@/lib/testing/api-client";
import { chunkedBody, streamInit } from "@/lib/testing/chunked-body";
import { seedKey, seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

const { ctx } = testCtx();

describe("Conventions: request bodies are JSON", () => {
  it("a body without Content-Type: application/json is validation_failed", async () => {
    const { workspaceId } = await seedWorkspace(ctx);
    const { key } = await seedKey(ctx, workspaceId);
    for (const contentType of [undefined, "text/plain", "application/x-www-form-urlencoded"]) {
      const response = await callApi("POST", "/v1/contacts", { key, rawBody: '{"email":"a@example.com"}', headers: contentType ? { "content-type": contentType } : {} });
      expect(response.status, String(contentType)).toBe(400);
      expect(response.body.error).toMatchObject({ code: "validation_failed", param: "body" });
    }
    const withCharset = await callApi("POST", "/v1/contacts", { key, rawBody: '{"email":"a@example.com"}', headers: { "content-type": "application/json; charset=utf-8" } });
    expect(withCharset.status).toBe(201);
  });

  it("malformed JSON or a body that is not an object is validation_failed and changes nothing", async () => {
    const { workspaceId } = await seedWorkspace(ctx);
    const { key } = await seedKey(ctx, workspaceId);
    for (const rawBody of ['{"email":', "[]", '"a@example.com"', "null", ""]) {
      const response = await callApi("POST", "/v1/contacts", { key, rawBody, headers: { "content-type": "application/json" } });
      expect(response.status, rawBody).toBe(400);
      expect(response.body.error).toMatchObject({ code: "validation_failed", param: "body" });
    }
    expect(await ctx.db.select().from(contacts).where(eq(contacts.workspaceId, workspaceId))).toEqual([]);
  });

  it("bodies over 1 MiB are refused 413 payload_too_large", async () => {
    const { workspaceId } = await seedWorkspace(ctx);
    const { key } = await seedKey(ctx, workspaceId);
    const rawBody = JSON.stringify({ email: "big@example.com", first_name: "x".repeat(1024 * 1024) });
    const response = await callApi("POST", "/v1/contacts", { key, rawBody, headers: { "content-type": "application/json" } });
    expect(response.status).toBe(413);
    expect(response.body.error).toMatchObject({ type: "invalid_request_error", code: "payload_too_large", param: "body" });
    const lying = await callApi("POST", "/v1/contacts", { key, rawBody, headers: { "content-type": "application/json", "content-length": "20" } });
    expect(lying.status).toBe(413);
    expect(await ctx.db.select().from(contacts).where(eq(contacts.workspaceId, workspaceId))).toEqual([]);
  });

  it("a chunked body without Content-Length is cut off at 1 MiB, not read to its end", async () => {
    const { workspaceId } = await seedWorkspace(ctx);
    const { key } = await seedKey(ctx, workspaceId);
    const body = chunkedBody(10 * 1024 * 1024, 64 * 1024);
    const request = new Request("http://localhost:3000/v1/contacts", { method: "POST", ...streamInit(body.stream), headers: { authorization: `Bearer ${key}`, "content-type": "application/json" } });
    const response = await createContact(request, { params: Promise.resolve({}) });
    expect(response.status).toBe(413);
    expect((await response.json()).error).toMatchObject({ type: "invalid_request_error", code: "payload_too_large", param: "body" });
    expect(body.pulled()).toBeLessThanOrEqual(16 + 2); // 16 chunks of 64 KiB fit in 1 MiB
  });

  it("a body of exactly 1 MiB is accepted", async () => {
    const { workspaceId } = await seedWorkspace(ctx);
    const { key } = await seedKey(ctx, workspaceId);
    const json = '{"email":"cap@example.com"}';
    const rawBody = json + " ".repeat(1024 * 1024 - json.length);
    const response = await callApi("POST", "/v1/contacts", { key, rawBody, headers: { "content-type": "application/json" } });
    expect(response.status).toBe(201);
  });

  it("attributes are limited to 50 keys", async () => {
    const { workspaceId } = await seedWorkspace(ctx);
    const { key } = await seedKey(ctx, workspaceId);
    const attributes = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, "v"]));
    const response = await callApi("POST", "/v1/contacts", { key, body: { email: "a@example.com", attributes } });
    expect(response.body.error).toMatchObject({ code: "validation_failed", param: "attributes" });
  });
});
