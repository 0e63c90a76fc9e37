import "server-only";

import { and, eq } from "drizzle-orm";

import type { WorkspaceActor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { contacts } from "@/lib/db/schema";
import { notFound } from "@/lib/errors";
import { parseInput } from "@/lib/validation/parse-input";

import { editContactNamesSchema, type EditContactNamesInput } from "./contact-schemas";

/**
 * A member corrects a contact's name from the contact's page. It changes no
 * subscription, so it is allowed for an opted-out contact too: the rule that
 * refuses such a contact whole is about adding them again (POST /v1/contacts,
 * imports, the add-contact form), which could resubscribe them.
 */
export async function editContactNames(
  ctx: Ctx,
  actor: WorkspaceActor,
  input: EditContactNamesInput,
): Promise<{ contactId: string }> {
  const { contactId, firstName, lastName } = parseInput(editContactNamesSchema, input);
  const [updated] = await ctx.db
    .update(contacts)
    .set({ firstName: firstName || null, lastName: lastName || null, updatedAt: ctx.clock.now() })
    .where(and(eq(contacts.id, contactId), eq(contacts.workspaceId, actor.workspaceId)))
    .returning({ id: contacts.id });
  if (!updated) throw notFound("contact_not_found", `No contact ${contactId}.`);
  return { contactId };
}
