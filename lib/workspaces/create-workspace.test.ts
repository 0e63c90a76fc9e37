import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { memberships, workspaceBilling } from "@/lib/db/schema";
import { testCtx } from "@/lib/testing/test-context";

import { approveWorkspace } from "./approve-workspace";
import { createWorkspace } from "./create-workspace";
import { listUserWorkspaces } from "./list-user-workspaces";

describe("workspaces", () => {
  it("a new workspace is owned by the named person and starts a 14-day trial", async () => {
    const { ctx } = testCtx(new Date("2026-03-01T00:00:00.000Z"));
    const { workspaceId, ownerUserId } = await createWorkspace(ctx, { name: "Acme", ownerEmail: "Founder@Acme.test" });
    const [member] = await ctx.db.select().from(memberships).where(eq(memberships.workspaceId, workspaceId));
    expect(member).toMatchObject({ userId: ownerUserId, role: "owner" });
    const [billing] = await ctx.db.select().from(workspaceBilling).where(eq(workspaceBilling.workspaceId, workspaceId));
    expect(billing).toMatchObject({ stage: "trial", sendAllowance: 1000, sendsUsed: 0 });
    expect(billing!.trialEndsAt!.toISOString()).toBe("2026-03-15T00:00:00.000Z");
  });

  it("the trial is per person: a second workspace starts read-only until a plan is chosen", async () => {
    const { ctx } = testCtx();
    await createWorkspace(ctx, { name: "First", ownerEmail: "twice@example.com" });
    const { workspaceId } = await createWorkspace(ctx, { name: "Second", ownerEmail: "twice@example.com" });
    const [billing] = await ctx.db.select().from(workspaceBilling).where(eq(workspaceBilling.workspaceId, workspaceId));
    expect(billing).toMatchObject({ stage: "read_only", trialEndsAt: null, sendAllowance: 0 });
  });

  it("a workspace is in review until approved, and the owner sees it in their list", async () => {
    const { ctx } = testCtx();
    const { workspaceId, ownerUserId } = await createWorkspace(ctx, {
      name: "Reviewed",
      ownerEmail: "reviewed@example.com",
    });
    expect(await listUserWorkspaces(ctx, ownerUserId)).toEqual([
      { id: workspaceId, name: "Reviewed", role: "owner", approved: false },
    ]);
    await approveWorkspace(ctx, workspaceId);
    expect((await listUserWorkspaces(ctx, ownerUserId))[0]!.approved).toBe(true);
  });

  it("bad input is refused with validation_failed naming the field and creates nothing", async () => {
    const { ctx } = testCtx();
    const before = await ctx.db.select().from(workspaceBilling);
    await expect(createWorkspace(ctx, { name: "", ownerEmail: "ok@example.com" })).rejects.toMatchObject({
      code: "validation_failed",
      param: "name",
    });
    await expect(createWorkspace(ctx, { name: "X", ownerEmail: "not-an-address" })).rejects.toMatchObject({
      code: "validation_failed",
      param: "ownerEmail",
    });
    expect(await ctx.db.select().from(workspaceBilling)).toEqual(before);
  });
});
