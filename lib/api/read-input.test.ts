import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { GET as getContact } from "@/app/v1/contacts/[id]/route";
import { POST as createContact } from "@/app/v1/contacts/route";
import { contacts } from "@/lib/db/schema";
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
      const response = await callApi("POST", "/v1/contacts", {
        key,
        rawBody: '{"email":"a@example.com"}',
        headers: contentType ? { "content-type": contentType } : {},
      });
      expect(response.status, String(contentType)).toBe(400);
      expect(response.body.error).toMatchObject({ code: "validation_failed", param: "body" });
    }
    const withCharset = await callApi("POST", "/v1/contacts", {
      key,
      rawBody: '{"email":"a@example.com"}',
      headers: { "content-type": "application/json; charset=utf-8" },
    });
    expect(withCharset.status).toBe(201);
  });

  it("malformed JSON or a body that is not an object is validation_failed and changes nothing", async () => {
    const { workspaceId } = await seedWorkspace(ctx);
    const { key } = await seedKey(ctx, workspaceId);
    for (const rawBody of ['{"email":', "[]", '"a@example.com"', "null", ""]) {
      const response = await callApi("POST", "/v1/contacts", {
        key,
        rawBody,
        headers: { "content-type": "application/json" },
      });
      expect(response.status, rawBody).toBe(400);
      expect(response.body.error).toMatchObject({ code: "validation_failed", param: "body" });
    }
    expect(await ctx.db.select().from(contacts).where(eq(contacts.workspaceId, workspaceId))).toEqual([]);
  });

  it("bodies over 1 MiB are refused 413 payload_too_large", async () => {
    const { workspaceId } = await seedWorkspace(ctx);
    const { key } = await seedKey(ctx, workspaceId);
    const rawBody = JSON.stringify({ email: "big@example.com", first_name: "x".repeat(1024 * 1024) });
    const response = await callApi("POST", "/v1/contacts", {
      key,
      rawBody,
      headers: { "content-type": "application/json" },
    });
    expect(response.status).toBe(413);
    expect(response.body.error).toMatchObject({
      type: "invalid_request_error",
      code: "payload_too_large",
      param: "body",
    });
    const lying = await callApi("POST", "/v1/contacts", {
      key,
      rawBody,
      headers: { "content-type": "application/json", "content-length": "20" },
    });
    expect(lying.status).toBe(413);
    expect(await ctx.db.select().from(contacts).where(eq(contacts.workspaceId, workspaceId))).toEqual([]);
  });

  it("a chunked body without Content-Length is cut off at 1 MiB, not read to its end", async () => {
    const { workspaceId } = await seedWorkspace(ctx);
    const { key } = await seedKey(ctx, workspaceId);
    const body = chunkedBody(10 * 1024 * 1024, 64 * 1024);
    const request = new Request("http://localhost:3000/v1/contacts", {
      method: "POST",
      ...streamInit(body.stream),
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    });
    const response = await createContact(request, { params: Promise.resolve({}) });
    expect(response.status).toBe(413);
    expect((await response.json()).error).toMatchObject({
      type: "invalid_request_error",
      code: "payload_too_large",
      param: "body",
    });
    expect(body.pulled()).toBeLessThanOrEqual(16 + 2); // 16 chunks of 64 KiB fit in 1 MiB
  });

  it("a body of exactly 1 MiB is accepted", async () => {
    const { workspaceId } = await seedWorkspace(ctx);
    const { key } = await seedKey(ctx, workspaceId);
    const json = '{"email":"cap@example.com"}';
    const rawBody = json + " ".repeat(1024 * 1024 - json.length);
    const response = await callApi("POST", "/v1/contacts", {
      key,
      rawBody,
      headers: { "content-type": "application/json" },
    });
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

// Each of these was a finding of `npm run fuzz:api` (lib/api/malformed-requests.test.ts).
describe("Input the database cannot store, or that zod would drop, is refused", () => {
  const post = (key: string, bytes: Uint8Array<ArrayBuffer>) =>
    createContact(
      new Request("http://localhost:3000/v1/contacts", {
        method: "POST",
        body: bytes,
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      }),
      {
        params: Promise.resolve({}),
      },
    );

  it("a body that is not UTF-8 is validation_failed on body, not stored with U+FFFD in place of its bytes", async () => {
    const { workspaceId } = await seedWorkspace(ctx);
    const { key } = await seedKey(ctx, workspaceId);
    const encode = (text: string) => new TextEncoder().encode(text);
    for (const bad of [[0xc3, 0x28], [0xff], [0xed, 0xa0, 0x80], [0xc0, 0xaf]]) {
      const response = await post(
        key,
        new Uint8Array([...encode('{"email":"a@example.com","first_name":"'), ...bad, ...encode('"}')]),
      );
      expect(response.status, bad.join(" ")).toBe(400);
      expect((await response.json()).error).toMatchObject({
        code: "validation_failed",
        param: "body",
        message: "The body is not valid UTF-8.",
      });
    }
    expect(await ctx.db.select().from(contacts).where(eq(contacts.workspaceId, workspaceId))).toEqual([]);
    // A byte order mark is not an error (RFC 8259 lets a parser ignore it).
    expect((await post(key, new Uint8Array([0xef, 0xbb, 0xbf, ...encode('{"email":"bom@example.com"}')]))).status).toBe(
      201,
    );
  });

  it("a lone surrogate escape (valid JSON, no UTF-8 form) is validation_failed naming the field, not stored as U+FFFD", async () => {
    const { workspaceId } = await seedWorkspace(ctx);
    const { key } = await seedKey(ctx, workspaceId);
    for (const escaped of ["\\ud800", "x\\udc00y", "\\udbff\\ud800"]) {
      const response = await post(key, new TextEncoder().encode(`{"email":"a@example.com","first_name":"${escaped}"}`));
      expect(response.status, escaped).toBe(400);
      expect((await response.json()).error).toMatchObject({ code: "validation_failed", param: "first_name" });
    }
    // A pair is a real character (an emoji) and is kept.
    expect(
      (await post(key, new TextEncoder().encode('{"email":"pair@example.com","first_name":"\\ud83d\\ude00"}'))).status,
    ).toBe(201);
    expect(
      (await ctx.db.select().from(contacts).where(eq(contacts.workspaceId, workspaceId))).map((c) => c.firstName),
    ).toEqual(["😀"]);
  });

  it("a NUL character in a field, a query parameter or a path id is validation_failed naming it, not a 500", async () => {
    const { workspaceId } = await seedWorkspace(ctx);
    const { key } = await seedKey(ctx, workspaceId);
    const inName = await callApi("POST", "/v1/contacts", {
      key,
      body: { email: "a@example.com", first_name: "A\u0000" },
    });
    expect(inName.status).toBe(400);
    expect(inName.body.error).toMatchObject({ code: "validation_failed", param: "first_name" });
    const inAttribute = await callApi("POST", "/v1/contacts", {
      key,
      body: { email: "a@example.com", attributes: { plan: "p\u0000" } },
    });
    expect(inAttribute.body.error).toMatchObject({ code: "validation_failed", param: "attributes.plan" });
    const inNote = await callApi("POST", "/v1/suppressions", { key, body: { email: "b@example.com", note: "\u0000" } });
    expect(inNote.body.error).toMatchObject({ code: "validation_failed", param: "note" });
    const inQuery = await callApi("GET", "/v1/contacts?topic_id=tp_%00", { key });
    expect(inQuery.status).toBe(400);
    expect(inQuery.body.error).toMatchObject({ code: "validation_failed", param: "topic_id" });
    // Next.js hands the route its path parameters percent-decoded: /v1/contacts/ct_%00 names "ct_\u0000".
    const inPath = await getContact(
      new Request("http://localhost:3000/v1/contacts/ct_%00", { headers: { authorization: `Bearer ${key}` } }),
      { params: Promise.resolve({ id: "ct_\u0000" }) },
    );
    expect(inPath.status).toBe(400);
    expect((await inPath.json()).error).toMatchObject({ code: "validation_failed", param: "id" });
    expect(await ctx.db.select().from(contacts).where(eq(contacts.workspaceId, workspaceId))).toEqual([]);
  });

  it("__proto__ as a query parameter or an attribute name is refused like any unknown name, not dropped", async () => {
    const { workspaceId } = await seedWorkspace(ctx);
    const { key } = await seedKey(ctx, workspaceId);
    const query = await callApi("GET", "/v1/contacts?__proto__=x", { key });
    expect(query.status).toBe(400);
    expect(query.body.error).toMatchObject({ code: "validation_failed", param: "__proto__" });
    const attribute = await callApi("POST", "/v1/contacts", {
      key,
      rawBody: '{"email":"a@example.com","attributes":{"__proto__":{"plan":"pro"}}}',
      headers: { "content-type": "application/json" },
    });
    expect(attribute.status).toBe(400);
    expect(attribute.body.error).toMatchObject({ code: "validation_failed", param: "attributes.__proto__" });
    expect(await ctx.db.select().from(contacts).where(eq(contacts.workspaceId, workspaceId))).toEqual([]);
  });
});
