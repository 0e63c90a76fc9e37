import { describe, expect, it } from "vitest";
import { users } from "@/lib/db/schema";
import { testCtx } from "@/lib/testing/test-context";
import { listUserWorkspaces } from "@/lib/workspaces/list-user-workspaces";
import { createFirstOwner } from "./create-first-owner";
import { createUser } from "./create-user";
import { hasAnyUser } from "./has-any-user";
import { verifyCredentials } from "./verify-credentials";

// One database per file: this file starts with no users at all.
describe("first run and users", () => {
  it("the first-run page creates the owner and their workspace, once, even when submitted concurrently", async () => {
    const { ctx } = testCtx();
    expect(await hasAnyUser(ctx)).toBe(false);
    const attempts = await Promise.allSettled(
      ["one", "two", "three"].map((who) => createFirstOwner(ctx, { email: `${who}@example.com`, password: "long enough", workspaceName: who })),
    );
    const created = attempts.filter((a) => a.status === "fulfilled");
    expect(created).toHaveLength(1);
    for (const attempt of attempts.filter((a) => a.status === "rejected")) {
      expect((attempt as PromiseRejectedResult).reason).toMatchObject({ code: "setup_complete" });
    }
    const { userId, workspaceId } = (created[0] as PromiseFulfilledResult<{ userId: string; workspaceId: string }>).value;
    expect(await listUserWorkspaces(ctx, userId)).toMatchObject([{ id: workspaceId, role: "owner" }]);
    expect(await hasAnyUser(ctx)).toBe(true);
    expect(await ctx.db.select().from(users)).toHaveLength(1);
  });

  it("signs in with the right password only, whatever the address's case", async () => {
    const { ctx } = testCtx();
    const { userId } = await createUser(ctx, { email: "Sign.In@Example.com", password: "s3cret-pass" });
    expect(await verifyCredentials(ctx, "sign.in@example.com", "s3cret-pass")).toMatchObject({ id: userId, email: "sign.in@example.com" });
    expect(await verifyCredentials(ctx, "SIGN.IN@example.com", "s3cret-pass")).toMatchObject({ id: userId });
    expect(await verifyCredentials(ctx, "sign.in@example.com", "wrong-pass")).toBeNull();
    expect(await verifyCredentials(ctx, "nobody@example.com", "s3cret-pass")).toBeNull();
  });

  it("a person named as owner before having an account sets a password with user:create; a second user:create is refused", async () => {
    const { ctx } = testCtx();
    const { createWorkspace } = await import("@/lib/workspaces/create-workspace");
    const { ownerUserId } = await createWorkspace(ctx, { name: "Later", ownerEmail: "later@example.com" });
    expect(await verifyCredentials(ctx, "later@example.com", "")).toBeNull();
    const { userId } = await createUser(ctx, { email: "later@example.com", password: "now-i-have-one" });
    expect(userId).toBe(ownerUserId);
    expect(await verifyCredentials(ctx, "later@example.com", "now-i-have-one")).toMatchObject({ id: ownerUserId });
    await expect(createUser(ctx, { email: "later@example.com", password: "another-one" })).rejects.toMatchObject({ code: "user_exists", param: "email" });
  });

  it("passwords shorter than 8 characters are refused", async () => {
    const { ctx } = testCtx();
    await expect(createUser(ctx, { email: "short@example.com", password: "1234567" })).rejects.toMatchObject({ code: "validation_failed", param: "password" });
  });
});
