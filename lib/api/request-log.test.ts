import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { overrideEnvForTests, reloadEnv } from "@/lib/env";
import { sendLogsTo } from "@/lib/log/logger";
import { callApi } from "@/lib/testing/api-client";
import { captureLogs, type CapturedLogs } from "@/lib/testing/capture-logs";
import { seedKey, seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

const { ctx } = testCtx();
let logs: CapturedLogs;
beforeEach(() => {
  logs = captureLogs();
});
afterEach(() => logs.restore());

describe("Logs: one line per /v1 request", () => {
  it("a /v1 request writes one JSON log line with request id, workspace, key prefix, route, status and duration", async () => {
    const { workspaceId } = await seedWorkspace(ctx);
    const { key, keyId } = await seedKey(ctx, workspaceId);
    const response = await callApi("GET", "/v1/contacts/ct_nobody", { key });
    expect(response.status).toBe(404);
    const lines = logs.withMessage("api request");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toEqual({
      level: "info",
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      pid: process.pid,
      hostname: expect.any(String),
      msg: "api request",
      request_id: response.headers.get("request-id"),
      method: "GET",
      route: "/v1/contacts/{id}",
      path: "/v1/contacts/ct_nobody",
      status: 404,
      duration_ms: expect.any(Number),
      stages_ms: { authenticate: expect.any(Number), input: expect.any(Number) }, // the handler threw the 404
      workspace_id: workspaceId,
      key_id: keyId,
      key_prefix: `sk_live_…${key.slice(-4)}`,
    });
    expect(JSON.stringify(logs.lines)).not.toContain(key);
  });

  it("the line gives the milliseconds of each stage of the pipeline: authenticate, input, handler", async () => {
    const { workspaceId } = await seedWorkspace(ctx);
    const { key } = await seedKey(ctx, workspaceId);
    expect((await callApi("GET", "/v1/contacts", { key })).status).toBe(200);
    const [line] = logs.withMessage("api request");
    const stages = line!.stages_ms as Record<string, number>;
    expect(Object.keys(stages)).toEqual(["authenticate", "input", "handler"]);
    expect(Object.values(stages).every((ms) => ms >= 0)).toBe(true);
    expect(Object.values(stages).reduce((sum, ms) => sum + ms, 0)).toBeLessThanOrEqual(
      (line!.duration_ms as number) + 0.05,
    );
  });

  it("a request refused before its key is known is logged too, without a workspace and without its query", async () => {
    const response = await callApi("GET", "/v1/topics?email=someone@example.com", { key: "sk_live_forged" });
    expect(response.status).toBe(401);
    const [line, ...others] = logs.withMessage("api request");
    expect(others).toEqual([]);
    expect(line).toMatchObject({
      request_id: response.headers.get("request-id"),
      route: "/v1/topics",
      path: "/v1/topics",
      status: 401,
    });
    expect(line).not.toHaveProperty("workspace_id");
    expect(JSON.stringify(line)).not.toContain("someone@example.com");
  });

  it("LOG_LEVEL above info writes no request line", async () => {
    logs.restore();
    const lines: string[] = [];
    overrideEnvForTests({ LOG_LEVEL: "warn" });
    sendLogsTo({ write: (line: string) => void lines.push(line) });
    try {
      await callApi("GET", "/v1/topics", { key: "sk_live_forged" });
      expect(lines).toEqual([]);
    } finally {
      reloadEnv();
    }
  });
});
