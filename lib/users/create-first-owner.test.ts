import { eq, TransactionRollbackError } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import type { Ctx } from "@/lib/context";
import { users, workspaceBilling, workspaces } from "@/lib/db/schema";
import { overrideEnvForTests, reloadEnv } from "@/lib/env";
import { newId } from "@/lib/ids";
import { testCtx } from "@/lib/testing/test-context";
import { createWorkspace } from "@/lib/workspaces/create-workspace";
import { listUserWorkspaces } from "@/lib/workspaces/list-user-workspaces";

import { createFirstOwner } from "./create-first-owner";
import { createUser } from "./create-user";
import { findOrInviteUser } from "./find-or-invite-user";
import { hasAnyUser } from "./has-any-user";
import { hasUserWithPassword } from "./has-user-with-password";
import { isSetupOpen } from "./is-setup-open";
import { verifyCredentials } from "./verify-credentials";

/** Runs `fn` on the still-empty service inside a transaction that is rolled back, so later tests find it empty too. */
async function onEmptyServiceRolledBack(fn: (tx: Ctx) => Promise<void>): Promise<void> {
  const { ctx } = testCtx();
  await ctx.db
    .transaction(async (db) => {
      const tx = { ...ctx, db };
      expect(await isSetupOpen(tx)).toBe(true);
      await fn(tx);
      db.rollback();
    })
    .catch((error: unknown) => {
      if (!(error instanceof TransactionRollbackError)) throw error;
    });
}

const setupClosed = { code: "setup_complete" };

// One database per file: this file starts with no users at all. The tests of a closed setup roll back and come first.
describe("first run is closed once anything exists", () => {
  it("an owner named with workspace:create --owner, without a password, closes setup; setup never sets their password", async () => {
    await onEmptyServiceRolledBack(async (tx) => {
      const { ownerUserId } = await createWorkspace(tx, {
        name: "Named by the CLI",
        ownerEmail: "named.owner@example.com",
      });
      expect(await isSetupOpen(tx)).toBe(false);
      await expect(
        createFirstOwner(tx, { email: "Named.Owner@example.com", password: "taken over", workspaceName: "Mine" }),
      ).rejects.toMatchObject(setupClosed);
      const [owner] = await tx.db.select().from(users).where(eq(users.id, ownerUserId));
      expect(owner!.passwordHash).toBeNull();
      expect(await verifyCredentials(tx, "named.owner@example.com", "taken over")).toBeNull();
      // The sign-in page then points the operator at the admin CLI's user:create instead of the first-run page.
      expect(await hasUserWithPassword(tx)).toBe(false);
    });
  });

  it("any user row closes setup, whatever address the first-run form names", async () => {
    await onEmptyServiceRolledBack(async (tx) => {
      await findOrInviteUser(tx, "invited@example.com");
      expect(await isSetupOpen(tx)).toBe(false);
      await expect(
        createFirstOwner(tx, { email: "someone.else@example.com", password: "long enough", workspaceName: "Other" }),
      ).rejects.toMatchObject(setupClosed);
      expect(await tx.db.select().from(users)).toHaveLength(1);
    });
  });

  it("the first-run form's billing currency is the workspace's, fixed from then on; another currency is refused next to its field", async () => {
    await onEmptyServiceRolledBack(async (tx) => {
      await expect(
        createFirstOwner(tx, {
          email: "yen@example.com",
          password: "long enough",
          workspaceName: "Yen",
          currency: "jpy" as "usd",
        }),
      ).rejects.toMatchObject({
        code: "validation_failed",
        param: "currency",
      });
      const { workspaceId } = await createFirstOwner(tx, {
        email: "euro@example.com",
        password: "long enough",
        workspaceName: "Euro",
        currency: "eur",
      });
      const [billing] = await tx.db
        .select({ currency: workspaceBilling.currency })
        .from(workspaceBilling)
        .where(eq(workspaceBilling.workspaceId, workspaceId));
      expect(billing).toEqual({ currency: "eur" });
    });
  });

  it("on a self-hosted install the person who runs the first-run page is the installation's operator", async () => {
    await onEmptyServiceRolledBack(async (tx) => {
      const { userId } = await createFirstOwner(tx, {
        email: "self-hosted@example.com",
        password: "long enough",
        workspaceName: "Mine",
      });
      const [owner] = await tx.db.select({ isOperator: users.isOperator }).from(users).where(eq(users.id, userId));
      expect(owner).toEqual({ isOperator: true });
    });
  });

  it("on a hosted deployment (HOSTED_SERVICE=1) the first-run owner is an owner only: operators are named with user:grant-operator", async () => {
    overrideEnvForTests({ HOSTED_SERVICE: "1" });
    try {
      await onEmptyServiceRolledBack(async (tx) => {
        const { userId } = await createFirstOwner(tx, {
          email: "hosted@example.com",
          password: "long enough",
          workspaceName: "Theirs",
        });
        const [owner] = await tx.db.select({ isOperator: users.isOperator }).from(users).where(eq(users.id, userId));
        expect(owner).toEqual({ isOperator: false });
      });
    } finally {
      reloadEnv();
    }
  });

  it("a workspace closes setup even when it has no user", async () => {
    await onEmptyServiceRolledBack(async (tx) => {
      await tx.db.insert(workspaces).values({ id: newId("ws"), name: "Ownerless", createdAt: tx.clock.now() });
      expect(await isSetupOpen(tx)).toBe(false);
      await expect(
        createFirstOwner(tx, { email: "first@example.com", password: "long enough", workspaceName: "Mine" }),
      ).rejects.toMatchObject(setupClosed);
      expect(await tx.db.select().from(users)).toHaveLength(0);
    });
  });
});

describe("first run and users", () => {
  it("the first-run page creates the owner and their workspace, once, even when submitted concurrently", async () => {
    const { ctx } = testCtx();
    expect(await hasAnyUser(ctx)).toBe(false);
    expect(await isSetupOpen(ctx)).toBe(true);
    const attempts = await Promise.allSettled(
      ["one", "two", "three"].map((who) =>
        createFirstOwner(ctx, { email: `${who}@example.com`, password: "long enough", workspaceName: who }),
      ),
    );
    const created = attempts.filter((a) => a.status === "fulfilled");
    expect(created).toHaveLength(1);
    for (const attempt of attempts.filter((a) => a.status === "rejected")) {
      expect((attempt as PromiseRejectedResult).reason).toMatchObject({ code: "setup_complete" });
    }
    const { userId, workspaceId } = (created[0] as PromiseFulfilledResult<{ userId: string; workspaceId: string }>)
      .value;
    expect(await listUserWorkspaces(ctx, userId)).toMatchObject([{ id: workspaceId, role: "owner" }]);
    expect(await hasAnyUser(ctx)).toBe(true);
    expect(await isSetupOpen(ctx)).toBe(false);
    expect(await hasUserWithPassword(ctx)).toBe(true);
    expect(await ctx.db.select().from(users)).toHaveLength(1);
  });

  it("signs in with the right password only, whatever the address's case", async () => {
    const { ctx } = testCtx();
    const { userId } = await createUser(ctx, { email: "Sign.In@Example.com", password: "s3cret-pass" });
    expect(await verifyCredentials(ctx, "sign.in@example.com", "s3cret-pass")).toMatchObject({
      id: userId,
      email: "sign.in@example.com",
    });
    expect(await verifyCredentials(ctx, "SIGN.IN@example.com", "s3cret-pass")).toMatchObject({ id: userId });
    expect(await verifyCredentials(ctx, "sign.in@example.com", "wrong-pass")).toBeNull();
    expect(await verifyCredentials(ctx, "nobody@example.com", "s3cret-pass")).toBeNull();
  });

  it("a person named as owner before having an account sets a password with user:create; a second user:create is refused", async () => {
    const { ctx } = testCtx();
    const { ownerUserId } = await createWorkspace(ctx, { name: "Later", ownerEmail: "later@example.com" });
    expect(await verifyCredentials(ctx, "later@example.com", "")).toBeNull();
    const { userId } = await createUser(ctx, { email: "later@example.com", password: "now-i-have-one" });
    expect(userId).toBe(ownerUserId);
    expect(await verifyCredentials(ctx, "later@example.com", "now-i-have-one")).toMatchObject({ id: ownerUserId });
    await expect(createUser(ctx, { email: "later@example.com", password: "another-one" })).rejects.toMatchObject({
      code: "user_exists",
      param: "email",
    });
  });

  it("passwords shorter than 8 characters are refused", async () => {
    const { ctx } = testCtx();
    await expect(createUser(ctx, { email: "short@example.com", password: "1234567" })).rejects.toMatchObject({
      code: "validation_failed",
      param: "password",
    });
  });
});
