import "server-only";
import { and, desc, eq } from "drizzle-orm";
import { simpleParser } from "mailparser";
import { inActorWorkspace, type Actor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { mailMessages } from "@/lib/db/schema";
import { normalizeEmail } from "@/lib/contacts/email-address";

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
}

/**
 * Newest first: what the local transport stored for the actor's workspace, parsed back from its
 * raw bytes. Mail stored without a workspace is seen only by a system actor across workspaces.
 */
export async function listMailbox(ctx: Ctx, actor: Actor, filters: { to?: string; limit?: number } = {}): Promise<MailboxMessage[]> {
  const rows = await ctx.db
    .select()
    .from(mailMessages)
    .where(and(filters.to ? eq(mailMessages.toAddress, normalizeEmail(filters.to)) : undefined, inActorWorkspace(actor, mailMessages.workspaceId)))
    .orderBy(desc(mailMessages.id))
    .limit(filters.limit ?? 50);
  return Promise.all(rows.map(parseStored));
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
  };
}

/** The links a reader could follow: hrefs of the HTML part, else URLs in the text part. */
export function extractLinks(html: string, text: string): string[] {
  const found = html ? [...html.matchAll(/href\s*=\s*"([^"]*)"/gi)].map((m) => m[1]!.replace(/&amp;/g, "&")) : [...text.matchAll(/https?:\/\/[^\s<>"]+/g)].map((m) => m[0]);
  return [...new Set(found.filter((link) => /^https?:\/\//.test(link)))];
}
