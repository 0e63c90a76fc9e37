import "server-only";

import { and, eq } from "drizzle-orm";

import type { WorkspaceActor } from "@/lib/actor";
import { attributeChanges, enterAttributeChanged } from "@/lib/automations/trigger-matching";
import { withTransaction, type Ctx } from "@/lib/context";
import { contacts } from "@/lib/db/schema";
import { notFound } from "@/lib/errors";
import { parseInput } from "@/lib/validation/parse-input";

import { validateAttributes } from "./attributes";
import { editContactSchema, type EditContactInput } from "./contact-schemas";
import { mergeContactFields } from "./merge-contact-fields";
import { canonicalTimeZone } from "./time-zone";

/**
 * A member corrects a contact's name, time zone and custom attributes from the contact's
 * page. Attributes are checked as the API checks them (defined on the
 * workspace, of their type: `validation_failed` on `attributes.<key>`), and
 * what the member typed wins whatever the merge policy. It changes no
 * subscription, so it is allowed for an opted-out contact too: the rule that
 * refuses such a contact whole is about adding them again (POST /v1/contacts,
 * imports, the add-contact form), which could resubscribe them.
 */
export async function editContact(
  ctx: Ctx,
  actor: WorkspaceActor,
  input: EditContactInput,
): Promise<{ contactId: string }> {
  const { contactId, firstName, lastName, timeZone, attributes } = parseInput(editContactSchema, input);
  return withTransaction(ctx, async (tx) => {
    const [contact] = await tx.db
      .select()
      .from(contacts)
      .where(and(eq(contacts.id, contactId), eq(contacts.workspaceId, actor.workspaceId)))
      .for("update");
    if (!contact) throw notFound("contact_not_found", `No contact ${contactId}.`);
    const checked = await validateAttributes(tx, actor.workspaceId, attributes ?? {});
    const fields = mergeContactFields("overwrite", contact, { firstName, lastName, attributes: checked });
    await tx.db
      .update(contacts)
      .set({
        ...fields,
        ...(timeZone === undefined ? {} : { timeZone: timeZone ? canonicalTimeZone(timeZone) : null }),
        updatedAt: tx.clock.now(),
      })
      .where(eq(contacts.id, contact.id));
    await enterAttributeChanged(
      tx,
      actor.workspaceId,
      attributeChanges(contact.id, contact.attributes, fields.attributes),
    );
    return { contactId };
  });
}
