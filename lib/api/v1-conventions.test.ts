import { readdirSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { contacts } from "@/lib/db/schema";
import { callApi } from "@/lib/testing/api-client";
import { captureLogs } from "@/lib/testing/capture-logs";
import { seedKey, seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import { apiRoute } from "./api-route";
import { HTTP_METHODS } from "./methods-not-allowed";

const { ctx } = testCtx();

// Every route file under app/v1 but the catch-all, found on disk: a new route is covered without editing this test.
const V1 = path.resolve("app/v1");
const routeFiles = readdirSync(V1, { recursive: true, encoding: "utf8" })
  .filter((file) => file.endsWith("route.ts") && !file.includes("[..."))
  .map((file) => ({ file, urlPath: `/v1/${path.dirname(file).replace(/\[(\w+)\]/g, "x_$1")}` }));

describe("Conventions: every /v1 answer is in the contract's shape", () => {
  it("an unsupported method on a known /v1 path answers 405 method_not_allowed with an Allow header and the error shape", async () => {
    expect(routeFiles.length).toBeGreaterThanOrEqual(11);
    for (const { file, urlPath } of routeFiles) {
      const route = (await import(path.join(V1, file))) as Record<string, unknown>;
      const handlers = HTTP_METHODS.map((method) => ({
        method,
        handler: route[method] as ((request: Request) => Response) & { notAllowed?: true },
      }));
      for (const { method, handler } of handlers) expect(handler, `${file} answers ${method}`).toBeTypeOf("function");
      const served = handlers.filter((h) => !h.handler.notAllowed).map((h) => h.method);
      expect(served.length, file).toBeGreaterThan(0);
      for (const { method, handler } of handlers.filter((h) => h.handler.notAllowed)) {
        const response = handler(new Request(`http://localhost:3000${urlPath}`, { method }));
        expect(response.status, `${method} ${urlPath}`).toBe(405);
        expect(response.headers.get("allow")).toBe(served.join(", "));
        expect(response.headers.get("request-id")).toMatch(/^req_[0-9a-z]{26}$/);
        expect(await response.json()).toEqual({
          error: {
            type: "invalid_request_error",
            code: "method_not_allowed",
            message: expect.stringContaining(served.join(", ")),
          },
        });
      }
    }
  });

  it("POST /v1/topics, which topics do not take, answers 405 with Allow: GET", async () => {
    const { workspaceId } = await seedWorkspace(ctx);
    const { key } = await seedKey(ctx, workspaceId);
    const response = await callApi("POST", "/v1/topics", { key, body: { name: "News" } });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET");
    expect(response.body.error.code).toBe("method_not_allowed");
  });

  it("a body on a GET is validation_failed on body and changes nothing", async () => {
    const { workspaceId } = await seedWorkspace(ctx);
    const { key } = await seedKey(ctx, workspaceId);
    // What Next.js hands a route for a GET sent with a body: the body's headers (fetch cannot build such a request itself).
    const bodyHeaders: Record<string, string>[] = [
      { "content-type": "application/json", "content-length": "25" },
      { "transfer-encoding": "chunked" },
    ];
    for (const headers of bodyHeaders) {
      const response = await callApi("GET", "/v1/contacts", { key, headers });
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({
        type: "invalid_request_error",
        code: "validation_failed",
        param: "body",
      });
    }
    expect((await callApi("GET", "/v1/contacts", { key, headers: { "content-length": "0" } })).status).toBe(200);
    expect(await ctx.db.select().from(contacts).where(eq(contacts.workspaceId, workspaceId))).toEqual([]);
  });

  it("every /v1 answer, success or error, carries its own Request-Id", async () => {
    const { workspaceId } = await seedWorkspace(ctx);
    const { key } = await seedKey(ctx, workspaceId);
    const answers = [
      await callApi("GET", "/v1/topics", { key }),
      await callApi("GET", "/v1/topics", { key }),
      await callApi("GET", "/v1/topics", { key: "sk_live_forged" }),
      await callApi("POST", "/v1/contacts", { key, body: { email: "not an address" } }),
      await callApi("PUT", "/v1/contacts/ct_x", { key }),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 401, 400, 405]);
    const ids = answers.map((a) => a.headers.get("request-id"));
    for (const id of ids) expect(id).toMatch(/^req_[0-9a-z]{26}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("a fault of ours answers 500 internal_error without its stack, and is logged once, with its stack, under the Request-Id the client receives", async () => {
    const { workspaceId } = await seedWorkspace(ctx);
    const { key } = await seedKey(ctx, workspaceId);
    const failing = apiRoute(
      { key: "secret", bucket: "topics.list", doc: { summary: "fails", responses: {} } },
      async () => {
        throw new Error("database password is hunter2");
      },
    );
    const logs = captureLogs();
    try {
      const response = await failing(
        new Request("http://localhost:3000/v1/failing", { headers: { authorization: `Bearer ${key}` } }),
        { params: Promise.resolve({}) },
      );
      const requestId = response.headers.get("request-id");
      const text = await response.text();
      expect(response.status).toBe(500);
      expect(JSON.parse(text)).toEqual({
        error: { type: "api_error", code: "internal_error", message: expect.any(String) },
      });
      expect(text).not.toContain("hunter2");
      expect(requestId).toMatch(/^req_/);
      const logged = logs.lines.filter((line) => JSON.stringify(line).includes("hunter2"));
      expect(logged).toHaveLength(1);
      expect(logged[0]).toMatchObject({
        level: "error",
        request_id: requestId,
        status: 500,
        workspace_id: workspaceId,
        err: { message: "database password is hunter2" },
      });
      expect((logged[0]!.err as { stack: string }).stack).toMatch(/hunter2\n\s+at /);
    } finally {
      logs.restore();
    }
  });
});
