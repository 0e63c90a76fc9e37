import "server-only";
import { stringify } from "csv-stringify/sync";
import { asc, eq } from "drizzle-orm";
import type { WorkspaceActor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { ISO_TIMESTAMP, rawClient } from "@/lib/db/client";
import { attributeDefinitions, topics } from "@/lib/db/schema";
import { getTopicForActor } from "@/lib/topics/get-topic-for-actor";
import { checkWorkspaceReadable } from "@/lib/workspaces/check-workspace-writable";
import { listContacts, type ContactFilters } from "./list-contacts";

const BATCH = 5000;

/** Per topic, the subscription and its consent evidence. */
const CONSENT_COLUMNS = ["state", "source", "confirmation_sent_at", "confirmed_at", "confirmed_ip", "subscribed_at", "unsubscribed_at"] as const;

interface SubscriptionRow {
  contact_id: string;
  topic_id: string;
  state: string;
  source: string | null;
  confirmation_sent_at: string | null;
  confirmed_at: string | null;
  confirmed_ip: string | null;
  subscribed_at: string | null;
  unsubscribed_at: string | null;
}

/**
 * The workspace's contacts (those the filters select) as CSV, streamed in
 * batches, oldest first: every field, each attribute, the status and, per
 * topic, the subscription with its evidence (sent, confirmed, IP, source).
 * Works in every billing stage but deleted: a read-only workspace can take
 * its data away. A cell starting with = + - or @ is escaped so that a
 * spreadsheet shows it rather than runs it.
 */
export async function* exportContactsCsv(ctx: Ctx, actor: WorkspaceActor, filters: ContactFilters): AsyncGenerator<{ csv: string; rows: number }> {
  await checkWorkspaceReadable(ctx, actor.workspaceId);
  // Before the header: a refused filter must fail the download before its first byte, where it can still be a 404.
  if (filters.topicId) await getTopicForActor(ctx, actor, filters.topicId);
  const attributes = (
    await ctx.db.select({ key: attributeDefinitions.key }).from(attributeDefinitions).where(eq(attributeDefinitions.workspaceId, actor.workspaceId)).orderBy(asc(attributeDefinitions.key))
  ).map((a) => a.key);
  const allTopics = await ctx.db.select({ id: topics.id, name: topics.name }).from(topics).where(eq(topics.workspaceId, actor.workspaceId)).orderBy(asc(topics.id));
  const header = stringify(
    [
      [
        "id",
        "email",
        "first_name",
        "last_name",
        "status",
        "created_at",
        ...attributes.map((key) => `attributes.${key}`),
        ...allTopics.flatMap((topic) => CONSENT_COLUMNS.map((column) => `topic:${topic.name}:${column}`)),
      ],
    ],
    { escape_formulas: true },
  );
  yield { csv: header, rows: 0 };
  const sql = rawClient(ctx.db);
  let afterId: string | null = null;
  for (;;) {
    const page = await listContacts(ctx, actor, filters, { limit: BATCH - 1, afterId, sort: "oldest" });
    if (page.length === 0) return;
    const ts = (column: string) => sql.unsafe(`to_char(${column} at time zone 'UTC', ${ISO_TIMESTAMP})`);
    const subscriptions = await sql<SubscriptionRow[]>`
      select contact_id, topic_id, state, source, ${ts("confirmation_sent_at")} as confirmation_sent_at, ${ts("confirmed_at")} as confirmed_at,
             confirmed_ip, ${ts("subscribed_at")} as subscribed_at, ${ts("unsubscribed_at")} as unsubscribed_at
      from subscriptions where contact_id = any(${page.map((c) => c.id)}::text[])`;
    const byContact = new Map<string, Map<string, SubscriptionRow>>();
    for (const s of subscriptions) {
      if (!byContact.has(s.contact_id)) byContact.set(s.contact_id, new Map());
      byContact.get(s.contact_id)!.set(s.topic_id, s);
    }
    const csv = stringify(
      page.map((contact) => {
        const held = byContact.get(contact.id);
        return [
          contact.id,
          contact.email,
          contact.firstName ?? "",
          contact.lastName ?? "",
          contact.status,
          contact.createdAt.toISOString(),
          ...attributes.map((key) => contact.attributes[key] ?? ""),
          ...allTopics.flatMap((topic) => {
            const s = held?.get(topic.id);
            return CONSENT_COLUMNS.map((column) => (s ? (s[column] ?? "") : ""));
          }),
        ];
      }),
      { cast: { boolean: (value) => String(value) }, escape_formulas: true },
    );
    yield { csv, rows: page.length };
    afterId = page.at(-1)!.id;
  }
}
