import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { systemActor, userActor } from "@/lib/actor";
import { memberships, users } from "@/lib/db/schema";
import { listMailbox } from "@/lib/mail/list-mailbox";
import { seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";
import { verifyCredentials } from "@/lib/users/verify-credentials";
import { acceptInvitation } from "./accept-invitation";
import { INVITATION_VALID_MS } from "./invitation-link";
import { inviteMember } from "./invite-member";
import { listMembers } from "./list-members";
import { removeMember } from "./remove-member";

function tokenOf(text: string): string {
  return /\/invite\/([^\s"<]+)/.exec(text)![1]!;
}

describe("members", () => {
  it("an invitation adds the member and mails a link that sets their password once, within 7 days", async () => {
    const { ctx, clock } = testCtx();
    const { workspaceId, ownerUserId } = await seedWorkspace(ctx);
    const owner = userActor(ownerUserId, workspaceId);
    const { userId, mailed } = await inviteMember(ctx, owner, { email: "New.Member@Example.com" });
    expect(mailed).toBe(true);
    expect((await listMembers(ctx, owner)).find((member) => member.userId === userId)).toMatchObject({ email: "new.member@example.com", role: "member", active: false });

    const [mail] = await listMailbox(ctx, systemActor("test"), { to: "new.member@example.com" });
    const token = tokenOf(mail!.text);
    await expect(acceptInvitation(ctx, { token, password: "short" })).rejects.toMatchObject({ code: "validation_failed" });
    await acceptInvitation(ctx, { token, password: "a long enough password" });
    expect(await verifyCredentials(ctx, "new.member@example.com", "a long enough password")).toMatchObject({ id: userId });
    // The link cannot change a password once set.
    await expect(acceptInvitation(ctx, { token, password: "another password" })).rejects.toMatchObject({ code: "invitation_used" });

    const { userId: later } = await inviteMember(ctx, owner, { email: "late@example.com" });
    const [lateMail] = await listMailbox(ctx, systemActor("test"), { to: "late@example.com" });
    clock.advance(INVITATION_VALID_MS + 1);
    await expect(acceptInvitation(ctx, { token: tokenOf(lateMail!.text), password: "a long enough password" })).rejects.toMatchObject({ code: "invitation_invalid" });
    const [lateUser] = await ctx.db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, later));
    expect(lateUser!.passwordHash).toBeNull();
  });

  it("the invitation, whose link sets a password, never shows in the workspace's test mailbox", async () => {
    const { ctx } = testCtx();
    const { workspaceId, ownerUserId } = await seedWorkspace(ctx);
    const owner = userActor(ownerUserId, workspaceId);
    await inviteMember(ctx, owner, { email: "private@example.com" });
    expect(await listMailbox(ctx, owner, { to: "private@example.com" })).toEqual([]);
    expect(await listMailbox(ctx, systemActor("test"), { to: "private@example.com" })).toHaveLength(1);
  });

  it("a removed invitee's link sets no password", async () => {
    const { ctx } = testCtx();
    const { workspaceId, ownerUserId } = await seedWorkspace(ctx);
    const owner = userActor(ownerUserId, workspaceId);
    const { userId } = await inviteMember(ctx, owner, { email: "removed@example.com" });
    const [mail] = await listMailbox(ctx, systemActor("test"), { to: "removed@example.com" });
    await removeMember(ctx, owner, userId);
    await expect(acceptInvitation(ctx, { token: tokenOf(mail!.text), password: "a long enough password" })).rejects.toMatchObject({ code: "invitation_invalid" });
    const [user] = await ctx.db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, userId));
    expect(user!.passwordHash).toBeNull();
  });

  it("inviting a member twice is refused and adds nothing", async () => {
    const { ctx } = testCtx();
    const { workspaceId, ownerUserId } = await seedWorkspace(ctx);
    const owner = userActor(ownerUserId, workspaceId);
    await inviteMember(ctx, owner, { email: "twice@example.com" });
    await expect(inviteMember(ctx, owner, { email: "twice@example.com" })).rejects.toMatchObject({ code: "member_exists", param: "email" });
    expect((await listMembers(ctx, owner)).filter((member) => member.email === "twice@example.com")).toHaveLength(1);
  });

  it("only owners and admins invite or remove members", async () => {
    const { ctx } = testCtx();
    const { workspaceId, ownerUserId } = await seedWorkspace(ctx);
    const { userId: memberId } = await inviteMember(ctx, userActor(ownerUserId, workspaceId), { email: "plain@example.com" });
    const member = userActor(memberId, workspaceId);
    await expect(inviteMember(ctx, member, { email: "friend@example.com" })).rejects.toMatchObject({ code: "not_allowed" });
    await expect(removeMember(ctx, member, ownerUserId)).rejects.toMatchObject({ code: "not_allowed" });
    expect(await listMembers(ctx, member)).toHaveLength(2);
  });

  it("the last owner cannot be removed; a member can", async () => {
    const { ctx } = testCtx();
    const { workspaceId, ownerUserId } = await seedWorkspace(ctx);
    const owner = userActor(ownerUserId, workspaceId);
    const { userId: memberId } = await inviteMember(ctx, owner, { email: "leaving@example.com" });
    await expect(removeMember(ctx, owner, ownerUserId)).rejects.toMatchObject({ code: "last_owner" });
    await removeMember(ctx, owner, memberId);
    expect(await ctx.db.select().from(memberships).where(eq(memberships.workspaceId, workspaceId))).toHaveLength(1);
  });

  it("an owner of workspace A cannot remove a member of workspace B", async () => {
    const { ctx } = testCtx();
    const a = await seedWorkspace(ctx);
    const b = await seedWorkspace(ctx);
    await expect(removeMember(ctx, userActor(a.ownerUserId, a.workspaceId), b.ownerUserId)).rejects.toMatchObject({ code: "member_not_found" });
    expect(await ctx.db.select().from(memberships).where(eq(memberships.workspaceId, b.workspaceId))).toHaveLength(1);
  });
});
