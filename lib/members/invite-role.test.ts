import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { userActor } from "@/lib/actor";
import { memberships } from "@/lib/db/schema";
import { seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import { inviteMember } from "./invite-member";
import { listMembers } from "./list-members";

const { ctx } = testCtx();

async function workspaceWithAdmin() {
  const { workspaceId, ownerUserId } = await seedWorkspace(ctx);
  const owner = userActor(ownerUserId, workspaceId);
  const { userId } = await inviteMember(ctx, owner, { email: `admin-${workspaceId}@example.com`, role: "admin" });
  return { workspaceId, owner, admin: userActor(userId, workspaceId) };
}

describe("an invitation names the role the member gets", () => {
  it("an owner invites with any role: owner, admin or member, and member when none is named", async () => {
    const { workspaceId, owner } = await workspaceWithAdmin();
    await inviteMember(ctx, owner, { email: "co-owner@example.com", role: "owner" });
    await inviteMember(ctx, owner, { email: "plain@example.com" });
    const roles = Object.fromEntries((await listMembers(ctx, owner)).map((member) => [member.email, member.role]));
    expect(roles).toMatchObject({
      [`admin-${workspaceId}@example.com`]: "admin",
      "co-owner@example.com": "owner",
      "plain@example.com": "member",
    });
  });

  it("an admin invites admins and members but not owners: that is refused on the role and adds no one", async () => {
    const { workspaceId, admin } = await workspaceWithAdmin();
    await expect(inviteMember(ctx, admin, { email: "would-own@example.com", role: "owner" })).rejects.toMatchObject({
      code: "not_allowed",
      param: "role",
    });
    await inviteMember(ctx, admin, { email: "second-admin@example.com", role: "admin" });
    const rows = await ctx.db
      .select({ role: memberships.role })
      .from(memberships)
      .where(eq(memberships.workspaceId, workspaceId));
    expect(rows.map((row) => row.role).sort()).toEqual(["admin", "admin", "owner"]);
  });

  it("a role the service does not have is refused on its field", async () => {
    const { owner } = await workspaceWithAdmin();
    await expect(
      inviteMember(ctx, owner, { email: "odd@example.com", role: "superuser" as "admin" }),
    ).rejects.toMatchObject({ code: "validation_failed", param: "role" });
  });
});
