import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";

import { systemActor } from "@/lib/actor";
import { decideConfirmation } from "@/lib/consent/decide-confirmation";
import { confirmationRequests, subscriptions } from "@/lib/db/schema";
import { overrideEnvForTests, reloadEnv } from "@/lib/env";
import { PEER_IP_HEADER, PEER_IP_HEADER_SET } from "@/lib/http/client-ip";
import { subscribeFromForm } from "@/lib/subscriptions/subscribe-from-form";
import { seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";
import { signToken } from "@/lib/tokens/signed-token";

const request = vi.hoisted(() => ({ headers: new Headers() }));
vi.mock("next/headers", () => ({ headers: async () => request.headers }));
const { default: ConfirmPage } = await import("./page");

// The page stamps with the real clock: the mail must have gone out "now" for the link to be valid.
const { ctx } = testCtx(new Date());
const PEER = "198.51.100.20";

/** Opens the confirmation link of a fresh pending subscription with these headers; returns the IP recorded. */
async function confirmFrom(headers: Record<string, string>) {
  const { workspaceId, brandId } = await seedWorkspace(ctx);
  const topicId = await seedTopic(ctx, workspaceId, brandId);
  await subscribeFromForm(ctx, systemActor("test", workspaceId), { topicId, email: "ip@example.com" });
  const [pending] = await ctx.db
    .select()
    .from(confirmationRequests)
    .where(eq(confirmationRequests.workspaceId, workspaceId));
  await decideConfirmation(ctx, pending!.id);
  request.headers = new Headers({ [PEER_IP_HEADER]: PEER, ...headers });
  await ConfirmPage({
    params: Promise.resolve({ token: signToken("confirm", { r: pending!.id }) }),
    searchParams: Promise.resolve({}),
  });
  const [subscription] = await ctx.db.select().from(subscriptions).where(eq(subscriptions.topicId, topicId));
  expect(subscription!.state).toBe("subscribed");
  return subscription!.confirmedIp;
}

describe("confirmation page: the confirming IP", () => {
  const served = (trustedProxies: string) =>
    overrideEnvForTests({ [PEER_IP_HEADER_SET]: "1", TRUSTED_PROXIES: trustedProxies });
  afterEach(() => reloadEnv());

  it("without TRUSTED_PROXIES a spoofed X-Forwarded-For is ignored and the peer address is recorded", async () => {
    served("");
    expect(await confirmFrom({ "x-forwarded-for": "203.0.113.66", "x-real-ip": "203.0.113.67" })).toBe(PEER);
  });

  it("with the peer in TRUSTED_PROXIES the forwarded client is recorded", async () => {
    served(`${PEER},10.0.0.0/8`);
    expect(await confirmFrom({ "x-forwarded-for": "203.0.113.9" })).toBe("203.0.113.9");
  });

  it("a chain with a spoofed left-most entry records the right-most untrusted one", async () => {
    served(`${PEER},10.0.0.0/8`);
    expect(await confirmFrom({ "x-forwarded-for": "203.0.113.66, 203.0.113.9, 10.1.2.3" })).toBe("203.0.113.9");
  });
});
