import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";

import { functions } from "@/inngest";
import { inngest, routeEmbeddedEvents } from "@/inngest/client";
import { createEmbeddedExecutor } from "@/inngest/embedded/executor";
import { setWorkflowCtx } from "@/inngest/workflow-ctx";
import { systemActor } from "@/lib/actor";
import { upsertContact } from "@/lib/contacts/upsert-contact";
import { overrideEnvForTests, reloadEnv } from "@/lib/env";
import { createEndpoint } from "@/lib/webhooks/endpoints";

import { seedTopic, seedWorkspace } from "./factories";
import { testCtx } from "./test-context";
import { startWebhookReceiver, type Responder } from "./webhook-receiver";

/**
 * What a webhook delivery test file shares: an embedded executor the test drives, a receiver on
 * loopback that is new for every test, and a workspace with an endpoint pointing at it (`setup`).
 * Call it once at the top of the file: it registers the hooks that start and stop both.
 */
export function webhookDeliveryFixture() {
  // API calls stamp rows with the real time; the workflow clock starts ahead of it so their runs are due.
  const { ctx, clock } = testCtx(new Date(Date.now() + 60 * 60_000));
  const executor = createEmbeddedExecutor({ client: inngest, functions, workers: 4 });
  let current: Awaited<ReturnType<typeof startWebhookReceiver>>;

  beforeAll(() => {
    setWorkflowCtx(ctx);
    routeEmbeddedEvents((sent) => executor.enqueue(ctx, sent));
  });
  afterAll(() => setWorkflowCtx(undefined));
  beforeEach(async () => {
    overrideEnvForTests({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "1" });
    current = await startWebhookReceiver();
  });
  afterEach(async () => {
    reloadEnv();
    await current.close();
  });

  /** The running test's receiver, whichever test that is. */
  const receiver = {
    get url() {
      return current.url;
    },
    get received() {
      return current.received;
    },
    respondWith: (next: Responder) => current.respondWith(next),
  };

  async function setup(eventTypes: string[] = []) {
    const { workspaceId, brandId } = await seedWorkspace(ctx);
    const topicId = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
    const { endpointId, secret } = await createEndpoint(ctx, systemActor("test", workspaceId), {
      url: receiver.url,
      eventTypes,
    });
    const subscribe = async (email: string) =>
      (await upsertContact(ctx, systemActor("test", workspaceId), { email, topicIds: [topicId] })).contact;
    return { workspaceId, brandId, topicId, endpointId, secret, subscribe };
  }

  return { ctx, clock, executor, receiver, setup };
}
