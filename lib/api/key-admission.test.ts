import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";

import { systemActor } from "@/lib/actor";
import { revokeApiKey } from "@/lib/api-keys/revoke-api-key";
import { rateLimitWindows } from "@/lib/db/schema";
import { ApiError } from "@/lib/errors";
import { seedKey, seedWorkspace, setBillingStage } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import { KeyAdmission, type KeyUse } from "./authenticate";

const { ctx } = testCtx();
// Two app instances: each its own key cache and its own listening connection, as two processes have.
const first = new KeyAdmission();
const second = new KeyAdmission();
afterAll(() => Promise.all([first.close(), second.close()]));

const read: KeyUse = { bucket: "contacts.list", allowsPublishable: false, origin: null, write: false };
const write: KeyUse = { bucket: "contacts.create", allowsPublishable: false, origin: null, write: true };

async function refusal(admission: Promise<unknown>): Promise<string | null> {
  try {
    await admission;
    return null;
  } catch (error) {
    if (error instanceof ApiError) return error.code;
    throw error;
  }
}

describe("API keys cached in each app process", () => {
  it("revocation takes effect on the next request, with no grace period, on every instance", async () => {
    const { workspaceId } = await seedWorkspace(ctx);
    // Many keys, each revoked and then used at once on both instances: the request must never win the race.
    for (let i = 0; i < 20; i++) {
      const { key, keyId } = await seedKey(ctx, workspaceId);
      // Both instances have the key cached.
      await first.admit(ctx, `Bearer ${key}`, read);
      await second.admit(ctx, `Bearer ${key}`, read);
      await revokeApiKey(ctx, systemActor("test", workspaceId), keyId);
      expect(await refusal(second.admit(ctx, `Bearer ${key}`, read))).toBe("invalid_api_key");
      expect(await refusal(first.admit(ctx, `Bearer ${key}`, read))).toBe("invalid_api_key");
    }
  });

  it("a workspace's billing stage applies to the next request on every instance (team_inactive)", async () => {
    const { workspaceId } = await seedWorkspace(ctx);
    const { key } = await seedKey(ctx, workspaceId);
    expect((await first.admit(ctx, `Bearer ${key}`, write)).counted).toBe(true);
    expect((await second.admit(ctx, `Bearer ${key}`, write)).counted).toBe(true);
    await setBillingStage(ctx, workspaceId, "read_only");
    for (const admission of [first, second]) {
      const { key: admitted, counted } = await admission.admit(ctx, `Bearer ${key}`, write);
      expect({ stage: admitted.billingStage, counted }).toEqual({ stage: "read_only", counted: false });
    }
    await setBillingStage(ctx, workspaceId, "active");
    expect((await second.admit(ctx, `Bearer ${key}`, write)).counted).toBe(true);
  });

  it("rate limits are one budget per key across instances", async () => {
    const { workspaceId } = await seedWorkspace(ctx);
    const { key } = await seedKey(ctx, workspaceId);
    const remaining = [];
    for (let i = 0; i < 6; i++)
      remaining.push((await (i % 2 ? second : first).admit(ctx, `Bearer ${key}`, read)).limits.remaining);
    expect(remaining).toEqual([119, 118, 117, 116, 115, 114]);
    // Exhausted on one instance, refused on the other.
    const subscribe: KeyUse = { bucket: "subscribe", allowsPublishable: true, origin: null, write: true };
    for (let i = 0; i < 30; i++)
      expect((await first.admit(ctx, `Bearer ${key}`, subscribe)).retryAfterSeconds).toBeNull();
    expect((await second.admit(ctx, `Bearer ${key}`, subscribe)).retryAfterSeconds).toBeGreaterThanOrEqual(1);
  });

  it("requests counted together are counted as if one at a time: each its own count, the total exact", async () => {
    const { workspaceId } = await seedWorkspace(ctx);
    const a = await seedKey(ctx, workspaceId);
    const b = await seedKey(ctx, workspaceId);
    await first.admit(ctx, `Bearer ${a.key}`, read); // cached, so the requests below wait for one count together
    const admissions = await Promise.all(
      Array.from({ length: 12 }, (_, i) => first.admit(ctx, `Bearer ${(i % 3 ? a : b).key}`, read)),
    );
    const remainingOf = (key: string) =>
      admissions.filter((_, i) => (i % 3 ? a : b).key === key).map((admission) => admission.limits.remaining);
    expect(remainingOf(a.key).sort((x, y) => y - x)).toEqual([118, 117, 116, 115, 114, 113, 112, 111]);
    expect(remainingOf(b.key).sort((x, y) => y - x)).toEqual([119, 118, 117, 116]);
    const [row] = await ctx.db
      .select({ count: rateLimitWindows.count })
      .from(rateLimitWindows)
      .where(eq(rateLimitWindows.keyId, a.keyId));
    expect(row!.count).toBe(9);
  });
});
