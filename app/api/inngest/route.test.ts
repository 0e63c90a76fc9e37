import { afterEach, describe, expect, it, vi } from "vitest";

import { parseEnv } from "@/lib/env";
import { workflowConfigProblem } from "@/lib/runtime/workflow-mode";

async function loadRoute() {
  // The Inngest client reads its mode when imported: load it afresh under the environment of the test.
  vi.resetModules();
  return import("./route");
}

function stepCall(method: string, fnId = "mailservice-dispatch-campaign"): Request {
  // What a forger sends: claim every earlier step ran and ask for the next one.
  const body = {
    event: { name: "campaign/dispatch.requested", data: { campaignId: "cmp_x" } },
    events: [],
    steps: {},
    ctx: { run_id: "r", attempt: 0, stack: { stack: [], current: 0 } },
    version: 2,
  };
  return new Request(`http://localhost:3000/api/inngest?fnId=${fnId}&stepId=step`, {
    method,
    headers: { "content-type": "application/json" },
    body: method === "GET" ? undefined : JSON.stringify(body),
  });
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("the workflow endpoint", () => {
  it("does not exist when workflows are embedded: every method answers 404 without reaching a function", async () => {
    vi.stubEnv("INNGEST_DEV", "");
    vi.stubEnv("INNGEST_BASE_URL", "");
    vi.stubEnv("INNGEST_SIGNING_KEY", "");
    const route = await loadRoute();
    for (const [method, handler] of [
      ["GET", route.GET],
      ["POST", route.POST],
      ["PUT", route.PUT],
    ] as const) {
      const response = await handler(stepCall(method), {});
      expect(response.status, method).toBe(404);
      const text = await response.text();
      expect(JSON.parse(text).error.code).toBe("route_not_found");
      expect(text).not.toMatch(/mode|has_signing_key|stack/);
    }
  });

  it("with an Inngest server, refuses an unsigned step call before any function runs", async () => {
    vi.stubEnv("INNGEST_DEV", "");
    vi.stubEnv("INNGEST_BASE_URL", "http://127.0.0.1:1");
    vi.stubEnv("INNGEST_SIGNING_KEY", "signkey-prod-0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef");
    const route = await loadRoute();
    const response = await route.POST(stepCall("POST", "mailservice-dispatch-campaign"), {});
    expect(response.status).toBe(401);
    expect(await response.text()).not.toContain("StepRun");
  });

  it("never answers with a stack trace, even in the dev server's mode", async () => {
    vi.stubEnv("INNGEST_DEV", "1");
    const route = await loadRoute();
    const response = await route.POST(stepCall("POST", "no-such-function"), {});
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text).message).toMatch(/not found/);
    expect(text).not.toContain("stack");
    expect(text).not.toContain("node_modules");
  });
});

describe("workflow configuration", () => {
  it("a production start with an Inngest server requires its signing key", () => {
    expect(
      workflowConfigProblem(parseEnv({ NODE_ENV: "production", INNGEST_BASE_URL: "http://inngest:8288" })),
    ).toMatch(/INNGEST_SIGNING_KEY/);
    expect(
      workflowConfigProblem(
        parseEnv({
          NODE_ENV: "production",
          INNGEST_BASE_URL: "http://inngest:8288",
          INNGEST_SIGNING_KEY: "signkey-prod-00",
        }),
      ),
    ).toBeNull();
  });

  it("a production start refuses the dev mode, which checks no signature", () => {
    expect(workflowConfigProblem(parseEnv({ NODE_ENV: "production", INNGEST_DEV: "1" }))).toMatch(/INNGEST_DEV/);
    expect(
      workflowConfigProblem(
        parseEnv({ NODE_ENV: "production", INNGEST_DEV: "1", INNGEST_SIGNING_KEY: "signkey-prod-00" }),
      ),
    ).toMatch(/INNGEST_DEV/);
  });

  it("embedded workflows and development need no key", () => {
    expect(workflowConfigProblem(parseEnv({ NODE_ENV: "production" }))).toBeNull();
    expect(workflowConfigProblem(parseEnv({ NODE_ENV: "development", INNGEST_DEV: "1" }))).toBeNull();
  });
});
