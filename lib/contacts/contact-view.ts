import "server-only";

import { and, eq } from "drizzle-orm";

import { inActorWorkspace, type Actor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { contacts, type AttributeValue } from "@/lib/db/schema";
import { notFound } from "@/lib/errors";

import { contactStatusSql, type ContactStatus } from "./contact-status";

/** A contact as the API shows it. */
export interface ContactView {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  status: ContactStatus;
  attributes: Record<string, AttributeValue>;
  createdAt: Date;
}

export const contactViewColumns = {
  id: contacts.id,
  email: contacts.email,
  firstName: contacts.firstName,
  lastName: contacts.lastName,
  status: contactStatusSql(),
  attributes: contacts.attributes,
  createdAt: contacts.createdAt,
};

/** A contact of another workspace than the actor's is not found, like one that does not exist. */
export async function getContactOrThrow(ctx: Ctx, actor: Actor, contactId: string): Promise<ContactView> {
  const [contact] = await ctx.db
    .select(contactViewColumns)
    .from(contacts)
    .where(and(eq(contacts.id, contactId), inActorWorkspace(actor, contacts.workspaceId)));
  if (!contact) throw notFound("contact_not_found", `No contact ${contactId}.`);
  return contact;
}
