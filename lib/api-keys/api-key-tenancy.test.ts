import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { systemActor, userActor } from "@/lib/actor";
import { apiKeys } from "@/lib/db/schema";
import { seedKey, seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import { createApiKey } from "./create-api-key";
import { revokeApiKey } from "./revoke-api-key";

const { ctx } = testCtx();
const operator = systemActor("test");

async function tenants() {
  const a = await seedWorkspace(ctx);
  const b = await seedWorkspace(ctx);
  return { a, b, memberOfA: userActor(a.ownerUserId, a.workspaceId) };
}

const keysIn = async (workspaceId: string) => ctx.db.select().from(apiKeys).where(eq(apiKeys.workspaceId, workspaceId));

describe("API keys are reached only from their own workspace", () => {
  it("revokeApiKey: a member of workspace A cannot revoke workspace B's key; the operator can", async () => {
    const { b, memberOfA } = await tenants();
    const { keyId } = await seedKey(ctx, b.workspaceId);
    await expect(revokeApiKey(ctx, memberOfA, keyId)).rejects.toMatchObject({ code: "key_not_found" });
    expect((await keysIn(b.workspaceId))[0]!.revokedAt).toBeNull();
    await revokeApiKey(ctx, operator, keyId);
    expect((await keysIn(b.workspaceId))[0]!.revokedAt).not.toBeNull();
  });

  it("createApiKey: a member of workspace A cannot lock a key to workspace B's brand; the operator must name a workspace", async () => {
    const { a, b, memberOfA } = await tenants();
    await expect(
      createApiKey(ctx, memberOfA, { kind: "secret", environment: "live", brandId: b.brandId }),
    ).rejects.toMatchObject({ code: "brand_not_found" });
    await expect(createApiKey(ctx, operator, { kind: "secret", environment: "live" })).rejects.toMatchObject({
      code: "workspace_required",
    });
    expect(await keysIn(a.workspaceId)).toEqual([]);
    expect(await keysIn(b.workspaceId)).toEqual([]);
    const { keyId } = await createApiKey(ctx, memberOfA, { kind: "secret", environment: "test", brandId: a.brandId });
    expect(await keysIn(a.workspaceId)).toMatchObject([{ id: keyId, brandId: a.brandId, environment: "test" }]);
  });
});
