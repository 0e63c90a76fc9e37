import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { systemActor, userActor } from "@/lib/actor";
import { memberships, users } from "@/lib/db/schema";
import { listMailbox } from "@/lib/mail/list-mailbox";
import { seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";
import { createUser } from "@/lib/users/create-user";
import { verifyCredentials } from "@/lib/users/verify-credentials";

import { acceptInvitation } from "./accept-invitation";
import { acceptMembership } from "./accept-membership";
import { describeInvitation } from "./describe-invitation";
import { INVITATION_VALID_MS } from "./invitation-link";
import { INVITATION_MAILS_PER_DAY, inviteMember, resendInvitation } from "./invite-member";
import { listMembers } from "./list-members";
import { removeMember } from "./remove-member";

function tokenOf(text: string): string {
  return /\/invite\/([^\s"<]+)/.exec(text)![1]!;
}

const keep = { keysAndEndpoints: "keep" } as const;

const sandboxOf = async (ctx: ReturnType<typeof testCtx>["ctx"], workspaceId: string) =>
  (
    await ctx.db.execute<{ email: string }>(
      sql`select email from sandbox_recipients where workspace_id = ${workspaceId} order by email`,
    )
  ).map((row) => row.email);

describe("members", () => {
  it("an invitation adds the member and mails a link that sets their password once, within 7 days", async () => {
    const { ctx, clock } = testCtx();
    const { workspaceId, ownerUserId } = await seedWorkspace(ctx);
    const owner = userActor(ownerUserId, workspaceId);
    const { userId, mailed } = await inviteMember(ctx, owner, { email: "New.Member@Example.com" });
    expect(mailed).toBe(true);
    expect((await listMembers(ctx, owner)).find((member) => member.userId === userId)).toMatchObject({
      email: "new.member@example.com",
      role: "member",
      active: false,
    });

    const [mail] = await listMailbox(ctx, systemActor("test"), { to: "new.member@example.com" });
    const token = tokenOf(mail!.text);
    await expect(acceptInvitation(ctx, { token, password: "short" })).rejects.toMatchObject({
      code: "validation_failed",
    });
    await acceptInvitation(ctx, { token, password: "a long enough password" });
    expect(await verifyCredentials(ctx, "new.member@example.com", "a long enough password")).toMatchObject({
      id: userId,
    });
    // The link cannot change a password once set.
    await expect(acceptInvitation(ctx, { token, password: "another password" })).rejects.toMatchObject({
      code: "invitation_used",
    });

    const { userId: later } = await inviteMember(ctx, owner, { email: "late@example.com" });
    const [lateMail] = await listMailbox(ctx, systemActor("test"), { to: "late@example.com" });
    clock.advance(INVITATION_VALID_MS + 1);
    await expect(
      acceptInvitation(ctx, { token: tokenOf(lateMail!.text), password: "a long enough password" }),
    ).rejects.toMatchObject({ code: "invitation_invalid" });
    const [lateUser] = await ctx.db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, later));
    expect(lateUser!.passwordHash).toBeNull();
  });

  it("the invitation, whose link sets a password, shows in the test mailbox as the service's own mail, not to a plain member", async () => {
    const { ctx } = testCtx();
    const { workspaceId, ownerUserId } = await seedWorkspace(ctx);
    const owner = userActor(ownerUserId, workspaceId);
    const { userId: plain } = await createUser(ctx, {
      email: "plain.member@example.com",
      password: "a long enough password",
      workspaceId,
    });
    await inviteMember(ctx, owner, { email: "private@example.com" });
    expect((await listMailbox(ctx, owner, { to: "private@example.com" })).map((mail) => mail.serviceMail)).toEqual([
      "invitation",
    ]);
    expect(await listMailbox(ctx, userActor(plain, workspaceId), { to: "private@example.com" })).toEqual([]);
  });

  it("a removed invitee's link sets no password", async () => {
    const { ctx } = testCtx();
    const { workspaceId, ownerUserId } = await seedWorkspace(ctx);
    const owner = userActor(ownerUserId, workspaceId);
    const { userId } = await inviteMember(ctx, owner, { email: "removed@example.com" });
    const [mail] = await listMailbox(ctx, systemActor("test"), { to: "removed@example.com" });
    await removeMember(ctx, owner, userId, keep);
    await expect(
      acceptInvitation(ctx, { token: tokenOf(mail!.text), password: "a long enough password" }),
    ).rejects.toMatchObject({ code: "invitation_invalid" });
    const [user] = await ctx.db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, userId));
    expect(user!.passwordHash).toBeNull();
  });

  it("inviting a member twice is refused and adds nothing", async () => {
    const { ctx } = testCtx();
    const { workspaceId, ownerUserId } = await seedWorkspace(ctx);
    const owner = userActor(ownerUserId, workspaceId);
    await inviteMember(ctx, owner, { email: "twice@example.com" });
    await expect(inviteMember(ctx, owner, { email: "twice@example.com" })).rejects.toMatchObject({
      code: "member_exists",
      param: "email",
    });
    expect((await listMembers(ctx, owner)).filter((member) => member.email === "twice@example.com")).toHaveLength(1);
  });

  it("only owners and admins invite or remove members", async () => {
    const { ctx } = testCtx();
    const { workspaceId, ownerUserId } = await seedWorkspace(ctx);
    const { userId: memberId } = await inviteMember(ctx, userActor(ownerUserId, workspaceId), {
      email: "plain@example.com",
    });
    const member = userActor(memberId, workspaceId);
    await expect(inviteMember(ctx, member, { email: "friend@example.com" })).rejects.toMatchObject({
      code: "not_allowed",
    });
    await expect(removeMember(ctx, member, ownerUserId, keep)).rejects.toMatchObject({ code: "not_allowed" });
    expect(await listMembers(ctx, member)).toHaveLength(2);
  });

  it("the last owner cannot be removed; a member can", async () => {
    const { ctx } = testCtx();
    const { workspaceId, ownerUserId } = await seedWorkspace(ctx);
    const owner = userActor(ownerUserId, workspaceId);
    const { userId: memberId } = await inviteMember(ctx, owner, { email: "leaving@example.com" });
    await expect(removeMember(ctx, owner, ownerUserId, keep)).rejects.toMatchObject({ code: "last_owner" });
    await removeMember(ctx, owner, memberId, keep);
    expect(await ctx.db.select().from(memberships).where(eq(memberships.workspaceId, workspaceId))).toHaveLength(1);
  });

  it("an owner of workspace A cannot remove a member of workspace B", async () => {
    const { ctx } = testCtx();
    const a = await seedWorkspace(ctx);
    const b = await seedWorkspace(ctx);
    await expect(removeMember(ctx, userActor(a.ownerUserId, a.workspaceId), b.ownerUserId, keep)).rejects.toMatchObject(
      { code: "member_not_found" },
    );
    expect(await ctx.db.select().from(memberships).where(eq(memberships.workspaceId, b.workspaceId))).toHaveLength(1);
  });

  it("invitation mail is limited as confirmation links are: one per address per 10 minutes, 20 per workspace per day, resends included", async () => {
    const { ctx, clock } = testCtx();
    const { workspaceId, ownerUserId } = await seedWorkspace(ctx);
    const owner = userActor(ownerUserId, workspaceId);
    const { userId } = await inviteMember(ctx, owner, { email: "looped@example.com" });
    await expect(resendInvitation(ctx, owner, userId)).rejects.toMatchObject({
      type: "rate_limit_error",
      code: "rate_limited",
    });
    // The refused resend counted too, so the address waits two windows.
    clock.advance(20 * 60_000);
    expect(await resendInvitation(ctx, owner, userId)).toEqual({ mailed: true });
    expect(await listMailbox(ctx, systemActor("test"), { to: "looped@example.com" })).toHaveLength(2);
    // Refused attempts count too: three so far, then 17 more make 20.
    for (let i = 1; i <= INVITATION_MAILS_PER_DAY - 3; i++)
      await inviteMember(ctx, owner, { email: `many${i}@example.com` });
    await expect(inviteMember(ctx, owner, { email: "one-too-many@example.com" })).rejects.toMatchObject({
      code: "rate_limited",
      param: "email",
    });
    expect(await listMailbox(ctx, systemActor("test"), { to: "one-too-many@example.com" })).toEqual([]);
    expect((await listMembers(ctx, owner)).map((member) => member.email)).not.toContain("one-too-many@example.com");
  });

  it("an invited person who already has an account is a sandbox recipient only once they accept from the mailed link", async () => {
    const { ctx } = testCtx();
    const { workspaceId, ownerUserId } = await seedWorkspace(ctx);
    const owner = userActor(ownerUserId, workspaceId);
    await createUser(ctx, { email: "has.account@example.com", password: "an existing password" });
    const { userId } = await inviteMember(ctx, owner, { email: "has.account@example.com" });
    expect(await sandboxOf(ctx, workspaceId)).not.toContain("has.account@example.com");
    expect((await listMembers(ctx, owner)).find((member) => member.userId === userId)).toMatchObject({ active: false });

    const [mail] = await listMailbox(ctx, systemActor("test"), { to: "has.account@example.com" });
    const token = tokenOf(mail!.text);
    expect(await describeInvitation(ctx, token)).toMatchObject({
      email: "has.account@example.com",
      hasPassword: true,
      accepted: false,
    });
    expect(await sandboxOf(ctx, workspaceId)).not.toContain("has.account@example.com"); // opening the page accepts nothing
    // The link cannot set the password of an account that has one.
    await expect(acceptInvitation(ctx, { token, password: "a new password" })).rejects.toMatchObject({
      code: "invitation_used",
    });
    expect(await verifyCredentials(ctx, "has.account@example.com", "an existing password")).toMatchObject({
      id: userId,
    });

    expect(await acceptMembership(ctx, token)).toEqual({
      email: "has.account@example.com",
      workspaceName: expect.any(String),
    });
    expect(await sandboxOf(ctx, workspaceId)).toContain("has.account@example.com");
    expect((await listMembers(ctx, owner)).find((member) => member.userId === userId)).toMatchObject({ active: true });
    await expect(acceptMembership(ctx, token)).rejects.toMatchObject({ code: "invitation_used" });
  });

  it("a new account's invitation is accepted when its password is set; a removed invitee's link accepts nothing", async () => {
    const { ctx } = testCtx();
    const { workspaceId, ownerUserId } = await seedWorkspace(ctx);
    const owner = userActor(ownerUserId, workspaceId);
    await inviteMember(ctx, owner, { email: "fresh@example.com" });
    expect(await sandboxOf(ctx, workspaceId)).not.toContain("fresh@example.com");
    const [mail] = await listMailbox(ctx, systemActor("test"), { to: "fresh@example.com" });
    await acceptInvitation(ctx, { token: tokenOf(mail!.text), password: "a long enough password" });
    expect(await sandboxOf(ctx, workspaceId)).toContain("fresh@example.com");

    await createUser(ctx, { email: "gone@example.com", password: "an existing password" });
    const { userId } = await inviteMember(ctx, owner, { email: "gone@example.com" });
    const [goneMail] = await listMailbox(ctx, systemActor("test"), { to: "gone@example.com" });
    await removeMember(ctx, owner, userId, keep);
    await expect(acceptMembership(ctx, tokenOf(goneMail!.text))).rejects.toMatchObject({ code: "invitation_invalid" });
    expect(await sandboxOf(ctx, workspaceId)).not.toContain("gone@example.com");
  });
});
