import "server-only";

import { and, asc, eq, gt } from "drizzle-orm";

import type { WorkspaceActor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { contacts, listMembers } from "@/lib/db/schema";

export interface ListMemberRow {
  contactId: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
}

/** One page of a list's members in contact-id order, for the dashboard; `limit + 1` rows say whether more follow. */
export function listListMembers(
  ctx: Ctx,
  actor: WorkspaceActor,
  listId: string,
  page: { limit: number; afterContactId: string | null },
): Promise<ListMemberRow[]> {
  return ctx.db
    .select({
      contactId: contacts.id,
      email: contacts.email,
      firstName: contacts.firstName,
      lastName: contacts.lastName,
    })
    .from(listMembers)
    .innerJoin(contacts, eq(contacts.id, listMembers.contactId))
    .where(
      and(
        eq(listMembers.listId, listId),
        eq(listMembers.workspaceId, actor.workspaceId),
        page.afterContactId ? gt(listMembers.contactId, page.afterContactId) : undefined,
      ),
    )
    .orderBy(asc(listMembers.contactId))
    .limit(page.limit + 1);
}
