import "server-only";

import { aliasedTable, and, desc, eq, exists, inArray, isNull, ne, notExists, or, sql, type SQL } from "drizzle-orm";
import { simpleParser } from "mailparser";

import { inActorWorkspace, type Actor } from "@/lib/actor";
import { normalizeEmail } from "@/lib/contacts/email-address";
import type { Ctx } from "@/lib/context";
import { mailMessages, memberships, users } from "@/lib/db/schema";
import type { ServiceMailKind } from "@/lib/db/schema/mail-messages";

import { mailTransportName } from "./mailbox-enabled";

const otherMemberships = aliasedTable(memberships, "other_memberships");

export interface MailboxMessage {
  id: string;
  to: string;
  from: string;
  subject: string;
  /** Every header as received, unfolded; repeated headers joined with ", ". */
  headers: Record<string, string>;
  text: string;
  html: string;
  links: string[];
  sentAt: Date;
  /** The service's own mail (an invitation, a password reset…), or null for the workspace's. */
  serviceMail: ServiceMailKind | null;
}

/**
 * Newest first: what the local transport stored for the actor's workspace, parsed back from its
 * raw bytes. A system actor sees all of it (across workspaces when it names none); a member, as
 * visibleToMember says; an API key, the workspace's own mail only.
 */
export async function listMailbox(
  ctx: Ctx,
  actor: Actor,
  filters: { to?: string; limit?: number } = {},
): Promise<MailboxMessage[]> {
  const visible =
    actor.kind === "system"
      ? inActorWorkspace(actor, mailMessages.workspaceId)
      : actor.kind === "user"
        ? await visibleToMember(ctx, actor.workspaceId, actor.userId)
        : and(eq(mailMessages.workspaceId, actor.workspaceId), isNull(mailMessages.serviceMail));
  const rows = await ctx.db
    .select()
    .from(mailMessages)
    .where(and(filters.to ? eq(mailMessages.toAddress, normalizeEmail(filters.to)) : undefined, visible))
    .orderBy(desc(mailMessages.id))
    .limit(filters.limit ?? 50);
  return Promise.all(rows.map(parseStored));
}

/**
 * What a member reads in the workspace's test mailbox: all of the workspace's own mail, and, while mail
 * goes to the local transport (so the mailbox is the only place it goes), the service's own mail that is
 * theirs to act on. Its links act for someone, so each kind goes only to whom its link is for:
 * - mail to the member's own address: about this workspace (an invitation to it), or about no workspace
 *   (a review's decision or a billing notice, stored without one so that a deleted workspace's data does not
 *   take them along, and their own password reset); nobody else's password reset, ever;
 * - a link confirming an address for this workspace's sandbox: to every member, as every member may add one;
 * - an invitation to this workspace: to its owners and admins, who invite, but only while the invited
 *   account is new (no password, in no other workspace, no operator) and only to those who could grant its
 *   role (an admin never sees an owner's). An existing account's link would accept for a person who never
 *   read it, and an account of another workspace would be taken over.
 * Mail stored before a move to smtp or resend stays hidden: its links would now act beside real mail.
 */
async function visibleToMember(ctx: Ctx, workspaceId: string, userId: string): Promise<SQL | undefined> {
  const [member] = await ctx.db
    .select({ email: users.email, role: memberships.role })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, userId)));
  const ownMail = and(eq(mailMessages.workspaceId, workspaceId), isNull(mailMessages.serviceMail));
  if (!member || mailTransportName() !== "local") return ownMail;
  // Whoever opens an invitation's link holds the new account: an admin, who cannot make owners, never sees one that does.
  const grantable = member.role === "owner" ? (["owner", "admin", "member"] as const) : (["admin", "member"] as const);
  const invitationForNewAccount = exists(
    ctx.db
      .select({ one: sql`1` })
      .from(users)
      .innerJoin(memberships, and(eq(memberships.userId, users.id), eq(memberships.workspaceId, workspaceId)))
      .where(
        and(
          eq(users.email, mailMessages.toAddress),
          isNull(users.passwordHash),
          eq(users.isOperator, false),
          inArray(memberships.role, [...grantable]),
          notExists(
            ctx.db
              .select({ one: sql`1` })
              .from(otherMemberships)
              .where(and(eq(otherMemberships.userId, users.id), ne(otherMemberships.workspaceId, workspaceId))),
          ),
        ),
      ),
  );
  const invites = member.role === "owner" || member.role === "admin";
  return or(
    ownMail,
    and(
      eq(mailMessages.toAddress, member.email),
      or(
        eq(mailMessages.workspaceId, workspaceId),
        and(isNull(mailMessages.workspaceId), inArray(mailMessages.serviceMail, ["password_reset", "notice"])),
      ),
    ),
    and(eq(mailMessages.workspaceId, workspaceId), eq(mailMessages.serviceMail, "verify_address")),
    invites
      ? and(
          eq(mailMessages.workspaceId, workspaceId),
          eq(mailMessages.serviceMail, "invitation"),
          invitationForNewAccount,
        )
      : undefined,
  );
}

async function parseStored(row: typeof mailMessages.$inferSelect): Promise<MailboxMessage> {
  const parsed = await simpleParser(row.raw);
  const headers: Record<string, string> = {};
  for (const { line } of parsed.headerLines) {
    const colon = line.indexOf(":");
    const name = line.slice(0, colon);
    const value = line
      .slice(colon + 1)
      .replace(/\r?\n[ \t]+/g, " ")
      .trim();
    headers[name] = headers[name] ? `${headers[name]}, ${value}` : value;
  }
  const html = typeof parsed.html === "string" ? parsed.html : "";
  return {
    id: row.id,
    to: row.toAddress,
    from: row.fromAddress,
    subject: parsed.subject ?? row.subject,
    headers,
    text: parsed.text ?? "",
    html,
    links: extractLinks(html, parsed.text ?? ""),
    sentAt: row.createdAt,
    serviceMail: row.serviceMail,
  };
}

/** The links a reader could follow: hrefs of the HTML part, else URLs in the text part. */
export function extractLinks(html: string, text: string): string[] {
  const found = html
    ? [...html.matchAll(/href\s*=\s*"([^"]*)"/gi)].map((m) => m[1]!.replace(/&amp;/g, "&"))
    : [...text.matchAll(/https?:\/\/[^\s<>"]+/g)].map((m) => m[0]);
  return [...new Set(found.filter((link) => /^https?:\/\//.test(link)))];
}
