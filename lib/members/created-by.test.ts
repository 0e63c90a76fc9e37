import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { systemActor, userActor } from "@/lib/actor";
import { createApiKey } from "@/lib/api-keys/create-api-key";
import { listApiKeys } from "@/lib/api-keys/list-api-keys";
import { apiKeys, webhookEndpoints } from "@/lib/db/schema";
import { seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";
import { createEndpoint, listEndpoints } from "@/lib/webhooks/endpoints";

import { inviteMember } from "./invite-member";
import { listMemberCreations } from "./list-member-creations";
import { removeMember } from "./remove-member";

const { ctx } = testCtx();

/** A workspace with a member who created a key and an endpoint, and a key and an endpoint the CLI created. */
async function workspaceWithCreations(email: string) {
  const { workspaceId, ownerUserId } = await seedWorkspace(ctx);
  const owner = userActor(ownerUserId, workspaceId);
  const { userId } = await inviteMember(ctx, owner, { email });
  const member = userActor(userId, workspaceId);
  const { keyId } = await createApiKey(ctx, member, { kind: "secret", environment: "live", name: "their key" });
  const { endpointId } = await createEndpoint(ctx, member, { url: "https://93.184.215.14/theirs", eventTypes: [] });
  const cli = systemActor("admin-cli", workspaceId);
  const { keyId: cliKeyId } = await createApiKey(ctx, cli, { kind: "secret", environment: "live" });
  const { endpointId: cliEndpointId } = await createEndpoint(ctx, cli, {
    url: "https://93.184.215.14/cli",
    eventTypes: [],
  });
  return { workspaceId, owner, userId, keyId, endpointId, cliKeyId, cliEndpointId };
}

const keyRow = async (keyId: string) => (await ctx.db.select().from(apiKeys).where(eq(apiKeys.id, keyId)))[0];
const endpointRow = async (endpointId: string) =>
  (await ctx.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpointId)))[0];

describe("who created each API key and webhook endpoint", () => {
  it("keys and endpoints name the member who created them; those the CLI created name no one", async () => {
    const { owner, userId, keyId, endpointId, cliKeyId, cliEndpointId } =
      await workspaceWithCreations("creator@example.com");
    const keys = await listApiKeys(ctx, owner);
    expect(keys.find((key) => key.id === keyId)).toMatchObject({
      createdByUserId: userId,
      createdByEmail: "creator@example.com",
    });
    expect(keys.find((key) => key.id === cliKeyId)).toMatchObject({ createdByUserId: null, createdByEmail: null });
    const endpoints = await listEndpoints(ctx, owner);
    expect(endpoints.find((endpoint) => endpoint.id === endpointId)).toMatchObject({
      createdByUserId: userId,
      createdByEmail: "creator@example.com",
    });
    expect(endpoints.find((endpoint) => endpoint.id === cliEndpointId)).toMatchObject({
      createdByUserId: null,
      createdByEmail: null,
    });
  });

  it("removing a member lists the keys and endpoints they created; kept, they go on working", async () => {
    const { owner, userId, keyId, endpointId, cliKeyId } = await workspaceWithCreations("kept@example.com");
    expect(await listMemberCreations(ctx, owner, userId)).toEqual({
      apiKeys: [expect.objectContaining({ id: keyId, name: "their key" })],
      webhookEndpoints: [expect.objectContaining({ id: endpointId, url: "https://93.184.215.14/theirs" })],
    });
    expect(await removeMember(ctx, owner, userId, { keysAndEndpoints: "keep" })).toEqual({
      userId,
      revokedKeys: 0,
      disabledEndpoints: 0,
    });
    expect((await keyRow(keyId))!.revokedAt).toBeNull();
    expect(await endpointRow(endpointId)).toMatchObject({ enabled: true });
    expect((await keyRow(cliKeyId))!.revokedAt).toBeNull();
  });

  it("removing a member with their keys and endpoints revokes those keys and turns those endpoints off, and nothing else", async () => {
    const { owner, userId, keyId, endpointId, cliKeyId, cliEndpointId } =
      await workspaceWithCreations("revoked@example.com");
    expect(await removeMember(ctx, owner, userId, { keysAndEndpoints: "revoke" })).toEqual({
      userId,
      revokedKeys: 1,
      disabledEndpoints: 1,
    });
    expect((await keyRow(keyId))!.revokedAt).toEqual(ctx.clock.now());
    expect(await endpointRow(endpointId)).toMatchObject({
      enabled: false,
      disabledAt: ctx.clock.now(),
      disabledReason: "its creator was removed from the workspace",
    });
    expect((await keyRow(cliKeyId))!.revokedAt).toBeNull();
    expect(await endpointRow(cliEndpointId)).toMatchObject({ enabled: true });
    // Nothing of theirs is left to list.
    expect(await listMemberCreations(ctx, owner, userId)).toEqual({ apiKeys: [], webhookEndpoints: [] });
  });

  it("the removal's choice is explicit: without it nothing is removed", async () => {
    const { owner, userId, keyId } = await workspaceWithCreations("undecided@example.com");
    await expect(removeMember(ctx, owner, userId, {} as never)).rejects.toMatchObject({
      code: "validation_failed",
      param: "keysAndEndpoints",
    });
    expect((await listMemberCreations(ctx, owner, userId)).apiKeys.map((key) => key.id)).toEqual([keyId]);
  });

  it("an owner of workspace A sees nothing of what a member of workspace B created, and cannot touch it", async () => {
    const a = await seedWorkspace(ctx);
    const b = await workspaceWithCreations("other@example.com");
    const ownerOfA = userActor(a.ownerUserId, a.workspaceId);
    expect(await listMemberCreations(ctx, ownerOfA, b.userId)).toEqual({ apiKeys: [], webhookEndpoints: [] });
    await expect(removeMember(ctx, ownerOfA, b.userId, { keysAndEndpoints: "revoke" })).rejects.toMatchObject({
      code: "member_not_found",
    });
    expect((await keyRow(b.keyId))!.revokedAt).toBeNull();
    expect(await endpointRow(b.endpointId)).toMatchObject({ enabled: true });
  });
});
