import { afterEach, describe, expect, it } from "vitest";

import { functions } from "@/inngest";
import { inngest, routeEmbeddedEvents } from "@/inngest/client";
import { createEmbeddedExecutor } from "@/inngest/embedded/executor";
import { setWorkflowCtx } from "@/inngest/workflow-ctx";
import { systemActor } from "@/lib/actor";
import { upsertContact } from "@/lib/contacts/upsert-contact";
import { webhookEndpoints } from "@/lib/db/schema";
import { overrideEnvForTests, reloadEnv } from "@/lib/env";
import { newId } from "@/lib/ids";
import { seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";
import { startWebhookReceiver } from "@/lib/testing/webhook-receiver";

import { createEndpoint, listDeliveries } from "./endpoints";
import { isPublicAddress, PRIVATE_TARGET_MESSAGE } from "./target-address";

const { ctx } = testCtx(new Date(Date.now() + 60 * 60_000));
afterEach(() => {
  reloadEnv();
});

async function register(url: string) {
  const { workspaceId } = await seedWorkspace(ctx);
  return createEndpoint(ctx, systemActor("test", workspaceId), { url, eventTypes: [] }).then(
    () => null,
    (error: { code?: string; param?: string; message: string }) => ({
      code: error.code,
      param: error.param,
      message: error.message,
    }),
  );
}

describe("webhook target addresses", () => {
  it.each([
    ["loopback", "https://127.0.0.1/hooks"],
    ["a private network", "https://10.0.0.1/hooks"],
    ["the cloud metadata address", "https://169.254.169.254/latest/meta-data"],
    ["IPv6 loopback", "https://[::1]/hooks"],
    ["IPv4 mapped into IPv6", "https://[::ffff:127.0.0.1]/hooks"],
    ["IPv4-compatible IPv6 (::/96) holding loopback", "https://[::7f00:1]/hooks"],
    ["IPv4-compatible IPv6 written with a dotted quad", "https://[::127.0.0.1]/hooks"],
    ["IPv4-compatible IPv6 even holding a public address", "https://[::808:808]/hooks"],
    ["IPv4 mapped into IPv6 holding a private network", "https://[::ffff:a00:1]/hooks"],
    ["NAT64 (64:ff9b::/96) holding loopback", "https://[64:ff9b::7f00:1]/hooks"],
    ["local-use NAT64 (64:ff9b:1::/48) holding a private network", "https://[64:ff9b:1::a00:1]/hooks"],
    ["6to4 (2002::/16) holding loopback", "https://[2002:7f00:1::1]/hooks"],
    ["6to4 holding the cloud metadata address", "https://[2002:a9fe:a9fe::1]/hooks"],
    ["SIIT (::ffff:0:0:0/96) holding loopback", "https://[::ffff:0:7f00:1]/hooks"],
    ["unassigned IPv6 outside 2000::/3", "https://[4000::1]/hooks"],
    ["a hostname resolving to a private address", "https://localhost/hooks"],
  ])("registration refuses %s", async (_, url) => {
    expect(await register(url)).toEqual({
      code: "webhook_target_refused",
      param: "url",
      message: expect.stringContaining(PRIVATE_TARGET_MESSAGE),
    });
  });

  it("the refusal of a name resolving to loopback does not say what it resolves to", async () => {
    const refusal = await register("https://localhost/hooks");
    expect(refusal!.message).toMatch(/^This URL points to a private or internal address/);
    for (const address of ["127.0.0.1", "::1", "localhost"]) expect(refusal!.message).not.toContain(address);
  });

  it("registration refuses plain http and credentials in the URL, and accepts a public https target", async () => {
    expect(await register("http://93.184.215.14/hooks")).toMatchObject({
      code: "webhook_target_refused",
      message: expect.stringMatching(/^The URL must start with https:\/\//),
    });
    expect(await register("https://user:pw@93.184.215.14/hooks")).toMatchObject({
      code: "webhook_target_refused",
      message: expect.stringMatching(/^The URL must not carry a user name or password/),
    });
    expect(await register("https://93.184.215.14/hooks")).toBeNull();
  });

  it("a refusal is written as sentences for people, and on a self-hosted install says how to allow plain http and private targets", async () => {
    for (const url of [
      "not a url",
      "http://93.184.215.14/hooks",
      "https://127.0.0.1/hooks",
      "https://user:pw@93.184.215.14/hooks",
    ]) {
      const { message } = (await register(url))!;
      expect([url, message]).toEqual([url, expect.stringMatching(/^[A-Z].*\.$/)]);
    }
    for (const url of ["http://93.184.215.14/hooks", "https://127.0.0.1/hooks"])
      expect((await register(url))!.message).toContain("set WEBHOOK_ALLOW_PRIVATE_TARGETS=1");
  });

  it("on a hosted deployment the refusal does not tell members about the installation's settings", async () => {
    overrideEnvForTests({ HOSTED_SERVICE: "1" });
    for (const url of ["http://93.184.215.14/hooks", "https://127.0.0.1/hooks"])
      expect((await register(url))!.message).not.toContain("WEBHOOK_ALLOW_PRIVATE_TARGETS");
  });

  it("registration refuses an unknown event type with validation_failed", async () => {
    const { workspaceId } = await seedWorkspace(ctx);
    await expect(
      createEndpoint(ctx, systemActor("test", workspaceId), {
        url: "https://93.184.215.14/",
        eventTypes: ["email.sent"],
      }),
    ).rejects.toMatchObject({
      code: "validation_failed",
      param: "event",
    });
  });

  it("WEBHOOK_ALLOW_PRIVATE_TARGETS=1 lets an operator register http and loopback targets", async () => {
    overrideEnvForTests({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "1" });
    expect(await register("http://127.0.0.1:9/hooks")).toBeNull();
    expect(await register("http://localhost:9/hooks")).toBeNull();
  });

  it("classifies addresses: only public unicast is allowed", () => {
    for (const address of [
      "127.0.0.1",
      "10.1.2.3",
      "172.16.0.1",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "224.0.0.1",
      "::1",
      "fe80::1",
      "fd00:ec2::254",
      "::ffff:10.0.0.1",
      "::",
      "::7f00:1",
      "::a00:1",
      "::808:808",
      "64:ff9b::a9fe:a9fe",
      "2002:c0a8:101::1",
      "2001:0:4136:e378:8000:63bf:3fff:fdd2",
    ]) {
      expect([address, isPublicAddress(address)]).toEqual([address, false]);
    }
    for (const address of ["93.184.215.14", "8.8.8.8", "2606:4700:4700::1111", "::ffff:8.8.8.8"])
      expect([address, isPublicAddress(address)]).toEqual([address, true]);
  });

  it("delivery checks the address again at connection time (DNS rebinding): a target that now resolves to loopback gets nothing; plain http is refused again", async () => {
    const receiver = await startWebhookReceiver();
    const executor = createEmbeddedExecutor({ client: inngest, functions });
    setWorkflowCtx(ctx);
    routeEmbeddedEvents((sent) => executor.enqueue(ctx, sent));
    try {
      const { workspaceId, brandId } = await seedWorkspace(ctx);
      const topicId = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
      // Registered while the name was public; by delivery time it points at loopback.
      const byName = newId("wh");
      const byAddress = newId("wh");
      await ctx.db.insert(webhookEndpoints).values([
        { id: byName, workspaceId, url: `https://localhost:${receiver.port}/hooks`, signingSecret: "whsec_x" },
        { id: byAddress, workspaceId, url: `https://127.0.0.1:${receiver.port}/hooks`, signingSecret: "whsec_x" },
      ]);
      await upsertContact(ctx, systemActor("test", workspaceId), { email: "rebind@example.com", topicIds: [topicId] });
      await executor.runDue(ctx);
      expect(receiver.received).toHaveLength(0);
      const plainHttp = newId("wh");
      await ctx.db
        .insert(webhookEndpoints)
        .values({ id: plainHttp, workspaceId, url: "http://93.184.215.14/hooks", signingSecret: "whsec_x" });
      await upsertContact(ctx, systemActor("test", workspaceId), { email: "plain@example.com", topicIds: [topicId] });
      await executor.runDue(ctx);
      expect((await listDeliveries(ctx, systemActor("test"), plainHttp)).deliveries[0]!.attempts[0]).toMatchObject({
        statusCode: null,
        error: "refused: url must use https",
      });
      for (const endpointId of [byName, byAddress]) {
        const { deliveries } = await listDeliveries(ctx, systemActor("test"), endpointId);
        expect(deliveries[0]).toMatchObject({ status: "pending", attemptCount: 1 });
        // Whatever the name resolved to stays out of the attempt log.
        expect(deliveries[0]!.attempts[0]).toMatchObject({
          statusCode: null,
          error: `refused: ${PRIVATE_TARGET_MESSAGE}`,
        });
      }
    } finally {
      setWorkflowCtx(undefined);
      await receiver.close();
    }
  });
});
