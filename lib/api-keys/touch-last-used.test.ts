import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { authenticate } from "@/lib/api/authenticate";
import { apiKeys } from "@/lib/db/schema";
import { seedKey, seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import { touchLastUsed } from "./touch-last-used";

async function lastUsed(ctx: ReturnType<typeof testCtx>["ctx"], keyId: string) {
  const [row] = await ctx.db.select({ at: apiKeys.lastUsedAt }).from(apiKeys).where(eq(apiKeys.id, keyId));
  return row?.at?.toISOString() ?? null;
}

describe("api_keys.last_used_at", () => {
  it("is set when a request authenticates with the key, without the request waiting for it", async () => {
    const { ctx, clock } = testCtx();
    const { workspaceId } = await seedWorkspace(ctx);
    const { keyId, key } = await seedKey(ctx, workspaceId);
    expect(await lastUsed(ctx, keyId)).toBeNull();
    await authenticate(ctx, `Bearer ${key}`, {
      bucket: "contacts.list",
      allowsPublishable: false,
      origin: null,
      write: false,
    });
    await expect.poll(() => lastUsed(ctx, keyId)).toBe(clock.now().toISOString());
  });

  it("is kept at most once a minute per key", async () => {
    const { ctx, clock } = testCtx();
    const { workspaceId } = await seedWorkspace(ctx);
    const { keyId } = await seedKey(ctx, workspaceId);
    const first = clock.now().toISOString();
    await touchLastUsed(ctx, keyId);
    clock.advance(59_000);
    await touchLastUsed(ctx, keyId);
    expect(await lastUsed(ctx, keyId)).toBe(first);
    clock.advance(2_000);
    await touchLastUsed(ctx, keyId);
    expect(await lastUsed(ctx, keyId)).toBe(clock.now().toISOString());
  });
});
