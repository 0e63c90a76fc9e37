import "server-only";

import { and, eq } from "drizzle-orm";

import type { Ctx } from "@/lib/context";
import { memberships, users } from "@/lib/db/schema";

import { sendServiceMail, workspaceLink } from "./send-service-mail";

interface OwnerMail {
  subject: string;
  /** Paragraphs separated by a blank line. */
  text: string;
  link?: { href: string; label: string };
  /** Per owner, with the owner's id appended: a retried step mails nobody twice. */
  idempotencyKey?: string;
  /** Throw when the transport refuses a message, so the caller's step is retried rather than the mail lost. */
  required?: boolean;
}

/** The service's own mail to each owner of a workspace; returns how many it reached. System: the service's review and the billing ladder write to owners; no person's request reaches it. */
export async function mailOwners(ctx: Ctx, workspaceId: string, mail: OwnerMail): Promise<number> {
  const owners = await ctx.db
    .select({ id: users.id, email: users.email })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.role, "owner")));
  let mailed = 0;
  for (const owner of owners) {
    const sent = await sendServiceMail(ctx, {
      // Mail to a person, not the workspace's: kept when a deleted workspace's data goes (lib/billing/delete-workspace-data.ts).
      kind: "notice",
      to: owner.email,
      subject: mail.subject,
      paragraphs: mail.text.split("\n\n"),
      link: mail.link ?? workspaceLink(workspaceId),
      idempotencyKey: mail.idempotencyKey ? `${mail.idempotencyKey}-${owner.id}` : undefined,
    });
    if (sent) mailed++;
    else if (mail.required) throw new Error(`the service's mail to a workspace owner was refused: ${mail.subject}`);
  }
  return mailed;
}
