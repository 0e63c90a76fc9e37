import { and, eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";

import { apiKeyActor, systemActor, userActor } from "@/lib/actor";
import { memberships, users, workspaces } from "@/lib/db/schema";
import { overrideEnvForTests, reloadEnv } from "@/lib/env";
import { inviteMember } from "@/lib/members/invite-member";
import { addVerifiedAddress } from "@/lib/sandbox/verified-addresses";
import { seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";
import { createUser } from "@/lib/users/create-user";
import { requestPasswordReset } from "@/lib/users/request-password-reset";

import { listMailbox } from "./list-mailbox";
import { mailOwners } from "./mail-owners";
import { simulateOutcome } from "./simulate-outcome";

const { ctx } = testCtx();
let counter = 0;
const unique = (name: string) => `${name}-${Date.now().toString(36)}${(counter++).toString(36)}@example.com`;

afterEach(() => {
  reloadEnv();
});

/** Workspace A with an owner, an admin and a plain member who can all sign in; workspace B beside it. */
async function team() {
  const a = await seedWorkspace(ctx);
  const b = await seedWorkspace(ctx);
  const admin = await createUser(ctx, {
    email: unique("admin"),
    password: "admin password",
    workspaceId: a.workspaceId,
  });
  await ctx.db.update(memberships).set({ role: "admin" }).where(eq(memberships.userId, admin.userId));
  const member = await createUser(ctx, {
    email: unique("member"),
    password: "member password",
    workspaceId: a.workspaceId,
  });
  return {
    a,
    b,
    owner: userActor(a.ownerUserId, a.workspaceId),
    admin: userActor(admin.userId, a.workspaceId),
    member: userActor(member.userId, a.workspaceId),
    ownerOfB: userActor(b.ownerUserId, b.workspaceId),
  };
}

type Reader = Parameters<typeof listMailbox>[1];
const subjectsTo = async (reader: Reader, to: string) =>
  (await listMailbox(ctx, reader, { to })).map((mail) => mail.subject);

describe("the service's own mail in the test mailbox, with the local transport", () => {
  it("an invitation of a new person shows, marked as the service's, to the workspace's owners and admins only", async () => {
    const { owner, admin, member, ownerOfB } = await team();
    const invitee = unique("invitee");
    await inviteMember(ctx, owner, { email: invitee });
    const [seen] = await listMailbox(ctx, admin, { to: invitee });
    expect(seen).toMatchObject({ serviceMail: "invitation", links: [expect.stringContaining("/invite/")] });
    expect(await subjectsTo(owner, invitee)).toHaveLength(1);
    expect(await subjectsTo(member, invitee)).toEqual([]);
    expect(await subjectsTo(ownerOfB, invitee)).toEqual([]);
    expect(
      await subjectsTo(
        apiKeyActor({ keyId: "key_x", workspaceId: owner.workspaceId, brandId: null, mode: "live" }),
        invitee,
      ),
    ).toEqual([]);
  });

  it("an invitation that makes a new person an owner shows to the owners, never to an admin, who could not make one", async () => {
    const { owner, admin } = await team();
    const future = unique("future-owner");
    const { userId } = await inviteMember(ctx, owner, { email: future });
    await ctx.db
      .update(memberships)
      .set({ role: "owner" })
      .where(and(eq(memberships.userId, userId), eq(memberships.workspaceId, owner.workspaceId)));
    expect(await subjectsTo(owner, future)).toHaveLength(1);
    expect(await subjectsTo(admin, future)).toEqual([]);
  });

  it("an invitation of an account that exists elsewhere shows only to that person, whose link it is", async () => {
    const { a, b, owner, admin } = await team();
    // One signs in already; the other owns workspace B and has not set a password yet: its link would set it.
    const elsewhere = unique("elsewhere");
    const { userId } = await createUser(ctx, {
      email: elsewhere,
      password: "their own password",
      workspaceId: b.workspaceId,
    });
    const ownerOfBEmail = await emailOf(b.ownerUserId);
    await inviteMember(ctx, owner, { email: elsewhere });
    await inviteMember(ctx, owner, { email: ownerOfBEmail });
    for (const reader of [owner, admin]) {
      expect(await subjectsTo(reader, elsewhere)).toEqual([]);
      expect(await subjectsTo(reader, ownerOfBEmail)).toEqual([]);
    }
    // The invited person, a member of A until they accept, reads their own invitation there.
    expect(await subjectsTo(userActor(userId, a.workspaceId), elsewhere)).toEqual([
      `You have been invited to ${await workspaceName(a.workspaceId)}`,
    ]);
  });

  it("a confirmation link for a sandbox address shows to every member of the workspace, and to no other workspace", async () => {
    const { owner, admin, member, ownerOfB } = await team();
    const seedInbox = unique("seed");
    await addVerifiedAddress(ctx, member, { email: seedInbox });
    for (const reader of [owner, admin, member])
      expect((await listMailbox(ctx, reader, { to: seedInbox })).map((mail) => mail.serviceMail)).toEqual([
        "verify_address",
      ]);
    expect(await subjectsTo(ownerOfB, seedInbox)).toEqual([]);
  });

  it("a review's decision shows to the owner it was mailed to, not to the other members", async () => {
    const { a, owner, admin, member } = await team();
    const ownerEmail = await emailOf(a.ownerUserId);
    await mailOwners(ctx, a.workspaceId, { subject: "Your workspace passed the review", text: "Done." });
    expect(await subjectsTo(owner, ownerEmail)).toEqual(["Your workspace passed the review"]);
    expect(await subjectsTo(admin, ownerEmail)).toEqual([]);
    expect(await subjectsTo(member, ownerEmail)).toEqual([]);
  });

  it("a password reset shows only to the person it was sent to, never to an owner of their workspace", async () => {
    const { a, owner, admin, member } = await team();
    const memberEmail = await emailOf(member.userId);
    await (
      await requestPasswordReset(ctx, { email: memberEmail, ip: "192.0.2.1" })
    ).mailing;
    expect((await listMailbox(ctx, member, { to: memberEmail })).map((mail) => mail.serviceMail)).toEqual([
      "password_reset",
    ]);
    expect(await subjectsTo(owner, memberEmail)).toEqual([]);
    expect(await subjectsTo(admin, memberEmail)).toEqual([]);
    expect(await subjectsTo(systemActor("test", a.workspaceId), memberEmail)).toEqual([]);
    expect(await subjectsTo(systemActor("test"), memberEmail)).toEqual(["Reset your password"]);
  });

  it("a member reports no provider outcome for the service's mail", async () => {
    const { owner } = await team();
    const invitee = unique("bounced");
    await inviteMember(ctx, owner, { email: invitee });
    const [mail] = await listMailbox(ctx, owner, { to: invitee });
    await expect(simulateOutcome(ctx, owner, mail!.id, { type: "complained" })).rejects.toMatchObject({
      code: "message_not_found",
    });
  });

  it("once mail goes out through smtp or resend, the service's mail stored earlier is hidden from members", async () => {
    const { owner, admin } = await team();
    const invitee = unique("later");
    await inviteMember(ctx, owner, { email: invitee });
    overrideEnvForTests({ MAIL_TRANSPORT: "resend", RESEND_API_KEY: "re_test" });
    expect(await subjectsTo(admin, invitee)).toEqual([]);
    expect(await subjectsTo(systemActor("test"), invitee)).toHaveLength(1);
  });
});

async function emailOf(userId: string): Promise<string> {
  const [user] = await ctx.db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  return user!.email;
}

async function workspaceName(workspaceId: string): Promise<string> {
  const [workspace] = await ctx.db
    .select({ name: workspaces.name })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId));
  return workspace!.name;
}
