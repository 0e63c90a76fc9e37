import "server-only";

import type { WorkspaceActor } from "@/lib/actor";
import type { ContactCount, ContactCountQuery, ContactListQuery, ContactPage } from "@/lib/contacts/contact-list-query";
import { countContacts } from "@/lib/contacts/count-contacts";
import { listContacts, type ContactFilters } from "@/lib/contacts/list-contacts";
import type { Ctx } from "@/lib/context";

import { findOrNull } from "./find-or-null";

export const CONTACTS_PAGE_SIZE = 50;

const filtersOf = (query: ContactCountQuery): ContactFilters => ({
  search: query.q,
  status: query.status,
  topicId: query.topic,
  listId: query.list,
});

/** One page of the contacts table, for the page's first render and for its JSON read alike. */
export async function readContactPage(ctx: Ctx, actor: WorkspaceActor, query: ContactListQuery): Promise<ContactPage> {
  // A topic or list id of another workspace finds nothing, like an empty filter result.
  const found = await findOrNull(
    listContacts(ctx, actor, filtersOf(query), {
      limit: CONTACTS_PAGE_SIZE,
      afterId: query.after ?? null,
      sort: query.sort,
    }),
  );
  const rows = (found ?? []).slice(0, CONTACTS_PAGE_SIZE);
  return {
    rows: rows.map((contact) => ({
      id: contact.id,
      email: contact.email,
      name: [contact.firstName, contact.lastName].filter(Boolean).join(" ") || null,
      status: contact.status,
      createdAt: contact.createdAt.toISOString(),
      attributes: contact.attributes,
    })),
    nextAfter: (found?.length ?? 0) > CONTACTS_PAGE_SIZE ? rows.at(-1)!.id : null,
  };
}

/** The contacts table's total for its search and filters, streamed into the page or read as JSON. */
export async function readContactCount(
  ctx: Ctx,
  actor: WorkspaceActor,
  query: ContactCountQuery,
): Promise<ContactCount> {
  return (await findOrNull(countContacts(ctx, actor, filtersOf(query)))) ?? { count: 0, more: false };
}
