import { and, desc, eq, exists, lt, sql } from "drizzle-orm";
import type { Caller } from "@/lib/caller";
import type { Ctx } from "@/lib/context";
import { contacts, subscriptions } from "@/lib/db/schema";
import { getTopicForCaller } from "@/lib/topics/get-topic-for-caller";
import { contactStatusSql, type ContactStatus } from "./contact-status";
import { contactViewColumns, type ContactView } from "./contact-view";

export interface ContactFilters {
  status?: ContactStatus;
  topicId?: string;
}

/** Newest first, keyset-paginated on id (creation order); returns up to `limit + 1` rows. */
export async function listContacts(ctx: Ctx, caller: Caller, filters: ContactFilters, page: { limit: number; afterId: string | null }): Promise<ContactView[]> {
  if (filters.topicId) await getTopicForCaller(ctx, caller, filters.topicId);
  return ctx.db
    .select(contactViewColumns)
    .from(contacts)
    .where(
      and(
        eq(contacts.workspaceId, caller.workspaceId),
        page.afterId ? lt(contacts.id, page.afterId) : undefined,
        filters.status ? sql`${contactStatusSql()} = ${filters.status}` : undefined,
        filters.topicId
          ? exists(
              ctx.db
                .select({ one: sql`1` })
                .from(subscriptions)
                .where(and(eq(subscriptions.contactId, contacts.id), eq(subscriptions.topicId, filters.topicId), eq(subscriptions.state, "subscribed"))),
            )
          : undefined,
      ),
    )
    .orderBy(desc(contacts.id))
    .limit(page.limit + 1);
}
