import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { functions } from "@/inngest";
import { inngest, routeEmbeddedEvents } from "@/inngest/client";
import { createEmbeddedExecutor } from "@/inngest/embedded/executor";
import { setWorkflowCtx } from "@/inngest/workflow-ctx";
import { systemActor } from "@/lib/actor";
import { overrideEnvForTests, reloadEnv } from "@/lib/env";
import { callApi } from "@/lib/testing/api-client";
import { seedKey, seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import { createEndpoint } from "./endpoints";

// The receiver of docs/getting-started.md, run as written, against real deliveries: the guide's
// code must verify what the service signs and refuse what it did not.
type Receiver = {
  verifyWebhook: (secret: string, header: string | undefined, raw: Buffer | string, now?: number) => boolean;
  startReceiver: (
    secret: string,
    port: number,
    onEvent: (event: { id: string; type: string; data: Record<string, unknown> }) => void,
  ) => Promise<Server>;
};

// The receiver checks the signature time against its own clock: the service's clock is the real one here.
const { ctx, clock } = testCtx(new Date());
const executor = createEmbeddedExecutor({ client: inngest, functions, workers: 2 });
let example: Receiver;

beforeAll(async () => {
  overrideEnvForTests({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "1" });
  setWorkflowCtx(ctx);
  routeEmbeddedEvents((sent) => executor.enqueue(ctx, sent));
  example = (await import(path.resolve("docs/examples/webhook-receiver.mjs"))) as Receiver;
});
afterAll(() => {
  reloadEnv();
  setWorkflowCtx(undefined);
});

describe("the getting-started guide's webhook receiver", () => {
  it("verifies a real contact.subscribed delivery after POST /v1/subscribe, and answers 401 to an unsigned or altered one", async () => {
    const received: { id: string; type: string; data: Record<string, unknown> }[] = [];
    const { workspaceId, brandId } = await seedWorkspace(ctx);
    const topicId = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
    const { key } = await seedKey(ctx, workspaceId);
    // The endpoint's URL names the port, and its secret is shown once the endpoint exists: take a free port first.
    const probe = createServer().listen(0, "127.0.0.1");
    await once(probe, "listening");
    const port = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const url = `http://127.0.0.1:${port}/`;
    const { secret } = await createEndpoint(ctx, systemActor("test", workspaceId), { url, eventTypes: [] });
    const server = await example.startReceiver(secret, port, (event) => received.push(event));
    try {
      const answer = await callApi("POST", "/v1/subscribe", {
        key,
        body: { topic_id: topicId, email: "first@example.com" },
      });
      expect(answer.body).toEqual({ data: { status: "subscribed" } });
      clock.advance(2_000); // past the moment the run was queued at
      await executor.runDue(ctx);
      expect(received.map((event) => [event.type, event.data.email])).toEqual([
        ["contact.subscribed", "first@example.com"],
      ]);

      const unsigned = await fetch(url, {
        method: "POST",
        body: JSON.stringify({ id: "evt_forged", type: "contact.subscribed", data: {} }),
      });
      expect(unsigned.status).toBe(401);
      const t = Date.now();
      const signed = (await import("./signature")).signatureHeader(secret, '{"id":"evt_1"}', t);
      const altered = await fetch(url, {
        method: "POST",
        headers: { "x-service-signature": signed },
        body: '{"id":"evt_2"}',
      });
      expect(altered.status).toBe(401);
      expect(example.verifyWebhook(secret, signed, '{"id":"evt_1"}', t + 4 * 60_000)).toBe(true);
      expect(example.verifyWebhook(secret, signed, '{"id":"evt_1"}', t + 6 * 60_000)).toBe(false);
      expect(received).toHaveLength(1);
    } finally {
      server.close();
    }
  });
});
