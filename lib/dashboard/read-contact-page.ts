import "server-only";

import type { WorkspaceActor } from "@/lib/actor";
import type { ContactListQuery, ContactPage } from "@/lib/contacts/contact-list-query";
import { listContacts } from "@/lib/contacts/list-contacts";
import type { Ctx } from "@/lib/context";

import { findOrNull } from "./find-or-null";

export const CONTACTS_PAGE_SIZE = 50;

/** One page of the contacts table, for the page's first render and for its JSON read alike. */
export async function readContactPage(ctx: Ctx, actor: WorkspaceActor, query: ContactListQuery): Promise<ContactPage> {
  const filters = { search: query.q, status: query.status, topicId: query.topic, listId: query.list };
  // A topic or list id of another workspace finds nothing, like an empty filter result.
  const found = await findOrNull(
    listContacts(ctx, actor, filters, { limit: CONTACTS_PAGE_SIZE, afterId: query.after ?? null, sort: query.sort }),
  );
  const rows = (found ?? []).slice(0, CONTACTS_PAGE_SIZE);
  return {
    rows: rows.map((contact) => ({
      id: contact.id,
      email: contact.email,
      name: [contact.firstName, contact.lastName].filter(Boolean).join(" ") || null,
      status: contact.status,
      createdAt: contact.createdAt.toISOString(),
    })),
    nextAfter: (found?.length ?? 0) > CONTACTS_PAGE_SIZE ? rows.at(-1)!.id : null,
  };
}
