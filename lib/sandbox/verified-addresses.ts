import "server-only";

import { and, asc, eq, isNotNull, isNull } from "drizzle-orm";

import type { WorkspaceActor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { memberships, users, verifiedAddresses, workspaces } from "@/lib/db/schema";
import { notFound, validationFailed } from "@/lib/errors";
import { limitServiceMail, SERVICE_MAILS_PER_DAY } from "@/lib/mail/limit-service-mail";
import { sendServiceMail } from "@/lib/mail/send-service-mail";
import { appUrl } from "@/lib/runtime/app-url";
import { signToken, verifyToken } from "@/lib/tokens/signed-token";
import { emailField } from "@/lib/validation/fields";

/** A verification link is valid this long. */
export const VERIFY_ADDRESS_VALID_MS = 7 * 24 * 60 * 60_000;

export interface SandboxAddress {
  email: string;
  /** member: a member's own sign-in address, which counts once they have accepted the invitation and set a password; added: one the workspace added. */
  kind: "member" | "added";
  verifiedAt: Date | null;
}

/** Who the sandbox may mail, and the added addresses still waiting for their link to be followed. */
export async function listSandboxAddresses(ctx: Ctx, actor: WorkspaceActor): Promise<SandboxAddress[]> {
  const [members, added] = await Promise.all([
    ctx.db
      .select({ email: users.email, acceptedAt: memberships.acceptedAt, signedUp: isNotNull(users.passwordHash) })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(eq(memberships.workspaceId, actor.workspaceId)),
    ctx.db
      .select()
      .from(verifiedAddresses)
      .where(eq(verifiedAddresses.workspaceId, actor.workspaceId))
      .orderBy(asc(verifiedAddresses.email)),
  ]);
  return [
    // A member counts once they have accepted the invitation and have a password (sandbox_recipients says the same).
    ...members.map((member) => ({
      email: member.email,
      kind: "member" as const,
      verifiedAt: member.signedUp ? member.acceptedAt : null,
    })),
    ...added
      .filter((row) => !members.some((member) => member.email === row.email))
      .map((row) => ({ email: row.email, kind: "added" as const, verifiedAt: row.verifiedAt })),
  ];
}

function verifyAddressLink(workspaceId: string, email: string, now: Date): string {
  return `${appUrl()}/verify-address/${signToken("verify_address", { w: workspaceId, e: email, x: now.getTime() + VERIFY_ADDRESS_VALID_MS })}`;
}

export function readVerifyAddressToken(token: string, now: Date): { workspaceId: string; email: string } | null {
  const data = verifyToken<{ w: string; e: string; x: number }>("verify_address", token);
  if (
    !data ||
    typeof data.w !== "string" ||
    typeof data.e !== "string" ||
    typeof data.x !== "number" ||
    data.x < now.getTime()
  )
    return null;
  return { workspaceId: data.w, email: data.e };
}

/**
 * Adds an address the sandbox may mail once its owner follows the link
 * mailed to it: proof that the address is the workspace's own (a colleague,
 * a seed inbox), not a list it wants to try. Asking again mails a new link.
 */
export async function addVerifiedAddress(
  ctx: Ctx,
  actor: WorkspaceActor,
  input: { email: string },
): Promise<{ email: string; mailed: boolean }> {
  const parsed = emailField.safeParse(input.email);
  if (!parsed.success) throw validationFailed("email", "email: must be a valid email address.");
  const email = parsed.data;
  const [existing] = await ctx.db
    .select()
    .from(verifiedAddresses)
    .where(and(eq(verifiedAddresses.workspaceId, actor.workspaceId), eq(verifiedAddresses.email, email)));
  if (existing?.verifiedAt) throw validationFailed("email", "email: this address is already verified.");
  await limitVerificationMails(ctx, actor.workspaceId, email);
  const [workspace] = await ctx.db
    .select({ name: workspaces.name })
    .from(workspaces)
    .where(eq(workspaces.id, actor.workspaceId));
  const workspaceName = workspace!.name;
  await ctx.db
    .insert(verifiedAddresses)
    .values({ workspaceId: actor.workspaceId, email, createdAt: ctx.clock.now() })
    .onConflictDoNothing();
  const mailed = await sendServiceMail(ctx, {
    kind: "verify_address",
    workspaceId: actor.workspaceId,
    to: email,
    subject: `Confirm that ${workspaceName} may send you test mail`,
    paragraphs: [
      `${workspaceName} asked to send campaigns to ${email} while its account is being set up.`,
      "If this is your address and you agree, confirm it with the link below (valid for 7 days). If you did not expect this, ignore this mail: nothing will be sent to you.",
    ],
    link: { href: verifyAddressLink(actor.workspaceId, email, ctx.clock.now()), label: "Confirm this address" },
  });
  return { email, mailed };
}

/** Confirmation links are limited as every mail of the service's own that a workspace asks for (limit-service-mail.ts). */
export const VERIFICATION_MAILS_PER_DAY = SERVICE_MAILS_PER_DAY;

function limitVerificationMails(ctx: Ctx, workspaceId: string, email: string): Promise<void> {
  return limitServiceMail(ctx, workspaceId, email, {
    bucket: "verify_address",
    what: "confirmation links",
    param: "email",
  });
}

/** The owner of the address followed the link and confirmed: from now on the sandbox may mail it. */
export async function confirmVerifiedAddress(
  ctx: Ctx,
  token: string,
): Promise<{ email: string; workspaceName: string } | null> {
  const target = readVerifyAddressToken(token, ctx.clock.now());
  if (!target) return null;
  const [row] = await ctx.db
    .update(verifiedAddresses)
    .set({ verifiedAt: ctx.clock.now() })
    .where(
      and(
        eq(verifiedAddresses.workspaceId, target.workspaceId),
        eq(verifiedAddresses.email, target.email),
        isNull(verifiedAddresses.verifiedAt),
      ),
    )
    .returning({ email: verifiedAddresses.email });
  const [workspace] = await ctx.db
    .select({ name: workspaces.name })
    .from(workspaces)
    .where(eq(workspaces.id, target.workspaceId));
  if (!workspace) return null;
  const [still] = row
    ? [row]
    : await ctx.db
        .select({ email: verifiedAddresses.email })
        .from(verifiedAddresses)
        .where(and(eq(verifiedAddresses.workspaceId, target.workspaceId), eq(verifiedAddresses.email, target.email)));
  return still ? { email: still.email, workspaceName: workspace.name } : null;
}

export async function removeVerifiedAddress(ctx: Ctx, actor: WorkspaceActor, email: string): Promise<void> {
  const removed = await ctx.db
    .delete(verifiedAddresses)
    .where(and(eq(verifiedAddresses.workspaceId, actor.workspaceId), eq(verifiedAddresses.email, email)))
    .returning({ email: verifiedAddresses.email });
  if (removed.length === 0) throw notFound("verified_address_not_found", `No added address ${email}.`);
}

/** What the confirmation page shows before anything is confirmed: the address and who asked; null for a bad or expired link. */
export async function describeVerifyAddressLink(
  ctx: Ctx,
  token: string,
): Promise<{ email: string; workspaceName: string } | null> {
  const target = readVerifyAddressToken(token, ctx.clock.now());
  if (!target) return null;
  const [workspace] = await ctx.db
    .select({ name: workspaces.name })
    .from(workspaces)
    .where(eq(workspaces.id, target.workspaceId));
  return workspace ? { email: target.email, workspaceName: workspace.name } : null;
}
