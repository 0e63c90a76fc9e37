import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { systemActor, userActor } from "@/lib/actor";
import { webhookEndpoints } from "@/lib/db/schema";
import { recordEvent } from "@/lib/events/record-event";
import { seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import {
  createEndpoint,
  deliveriesOf,
  enableEndpoint,
  getEndpointOrThrow,
  listDeliveries,
  listEndpoints,
  rotateSecret,
} from "./endpoints";

const { ctx, clock } = testCtx();
const operator = systemActor("test");

/** Each workspace has an endpoint; B's has one delivery. */
async function tenants() {
  const a = await seedWorkspace(ctx);
  const b = await seedWorkspace(ctx);
  const endpointOfA = (
    await createEndpoint(ctx, systemActor("test", a.workspaceId), { url: "https://93.184.215.14/a", eventTypes: [] })
  ).endpointId;
  const endpointOfB = (
    await createEndpoint(ctx, systemActor("test", b.workspaceId), { url: "https://93.184.215.14/b", eventTypes: [] })
  ).endpointId;
  await recordEvent(ctx, systemActor("test", b.workspaceId), "email.delivered", { send_id: "snd_b" }, clock.now());
  return { a, b, endpointOfA, endpointOfB, memberOfA: userActor(a.ownerUserId, a.workspaceId) };
}

const endpointRow = async (endpointId: string) =>
  (await ctx.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpointId)))[0]!;

describe("webhook endpoints are reached only from their own workspace", () => {
  it("getEndpointOrThrow: a member of workspace A cannot read workspace B's endpoint; the operator can", async () => {
    const { endpointOfA, endpointOfB, memberOfA } = await tenants();
    await expect(getEndpointOrThrow(ctx, memberOfA, endpointOfB)).rejects.toMatchObject({
      code: "webhook_endpoint_not_found",
    });
    expect((await getEndpointOrThrow(ctx, memberOfA, endpointOfA)).id).toBe(endpointOfA);
    expect((await getEndpointOrThrow(ctx, operator, endpointOfB)).id).toBe(endpointOfB);
  });

  it("rotateSecret: a member of workspace A cannot rotate workspace B's signing secret; the operator can", async () => {
    const { endpointOfB, memberOfA } = await tenants();
    const { signingSecret } = await endpointRow(endpointOfB);
    await expect(rotateSecret(ctx, memberOfA, endpointOfB)).rejects.toMatchObject({
      code: "webhook_endpoint_not_found",
    });
    expect((await endpointRow(endpointOfB)).signingSecret).toBe(signingSecret);
    const { secret } = await rotateSecret(ctx, operator, endpointOfB);
    expect((await endpointRow(endpointOfB)).signingSecret).toBe(secret);
  });

  it("enableEndpoint: a member of workspace A cannot turn workspace B's endpoint back on; the operator can", async () => {
    const { endpointOfB, memberOfA } = await tenants();
    await ctx.db
      .update(webhookEndpoints)
      .set({ enabled: false, disabledAt: clock.now(), disabledReason: "failing" })
      .where(eq(webhookEndpoints.id, endpointOfB));
    await expect(enableEndpoint(ctx, memberOfA, endpointOfB)).rejects.toMatchObject({
      code: "webhook_endpoint_not_found",
    });
    expect((await endpointRow(endpointOfB)).enabled).toBe(false);
    expect((await enableEndpoint(ctx, operator, endpointOfB)).enabled).toBe(true);
  });

  it("listDeliveries: a member of workspace A cannot list workspace B's deliveries; the operator can", async () => {
    const { endpointOfB, memberOfA } = await tenants();
    await expect(listDeliveries(ctx, memberOfA, endpointOfB)).rejects.toMatchObject({
      code: "webhook_endpoint_not_found",
    });
    expect((await listDeliveries(ctx, operator, endpointOfB)).deliveries).toMatchObject([
      { endpointId: endpointOfB, eventType: "email.delivered" },
    ]);
  });

  it("deliveriesOf: a member of workspace A gets nothing of workspace B's endpoint; the operator gets its deliveries", async () => {
    const { endpointOfB, memberOfA } = await tenants();
    expect(await deliveriesOf(ctx, memberOfA, endpointOfB)).toEqual([]);
    expect(await deliveriesOf(ctx, operator, endpointOfB, 20)).toMatchObject([
      { endpointId: endpointOfB, eventType: "email.delivered" },
    ]);
  });

  it("listEndpoints: a member of workspace A sees A's endpoints only; the operator sees B's too", async () => {
    const { endpointOfA, endpointOfB, memberOfA } = await tenants();
    expect((await listEndpoints(ctx, memberOfA)).map((e) => e.id)).toEqual([endpointOfA]);
    expect((await listEndpoints(ctx, operator)).map((e) => e.id)).toEqual(
      expect.arrayContaining([endpointOfA, endpointOfB]),
    );
  });

  it("createEndpoint: the endpoint is made in the actor's workspace; an input naming workspace B is refused, and so is the operator without a workspace", async () => {
    const { a, b, memberOfA } = await tenants();
    const namingB = { url: "https://93.184.215.14/c", eventTypes: [], workspaceId: b.workspaceId };
    await expect(createEndpoint(ctx, memberOfA, namingB)).rejects.toMatchObject({
      code: "validation_failed",
      param: "workspaceId",
    });
    await expect(
      createEndpoint(ctx, operator, { url: "https://93.184.215.14/c", eventTypes: [] }),
    ).rejects.toMatchObject({ code: "workspace_required" });
    const { endpointId } = await createEndpoint(ctx, memberOfA, { url: "https://93.184.215.14/c", eventTypes: [] });
    expect((await endpointRow(endpointId)).workspaceId).toBe(a.workspaceId);
    expect(await listEndpoints(ctx, systemActor("test", b.workspaceId))).toHaveLength(1);
  });
});
