import "server-only";

import { and, eq, sql, type SQL } from "drizzle-orm";

import { requireActorWorkspace, type Actor } from "@/lib/actor";
import { enterOnEvent } from "@/lib/automations/trigger-matching";
import { withTransaction, type Ctx } from "@/lib/context";
import { contactEvents, contacts } from "@/lib/db/schema";
import { notFound } from "@/lib/errors";
import { emitEvents } from "@/lib/events/emit-events";
import { contactEventRecorded } from "@/lib/events/workflow-events";
import { newId } from "@/lib/ids";

export interface RecordContactEventInput {
  /** The contact, by id or by (normalised) address: exactly one. */
  contactId?: string;
  email?: string;
  name: string;
  properties: Record<string, unknown>;
  /** When it happened; left out: now. */
  occurredAt?: Date;
}

/**
 * The sender's systems say a contact did something (POST /v1/events). In one transaction: the
 * event is stored, runs waiting for it are told (`contact/event.recorded`, keyed
 * "<contactId>:<name>"; only the key's brand's automations' runs for a brand-locked key), and active automations triggered by that name take the person in — only
 * those of a topic the person is subscribed to (consent lives on the topic; otherwise nobody enters,
 * and a later subscription does not replay the event), and only the key's brand's for a brand-locked
 * key. A test key finds the contact and records nothing.
 */
export async function recordContactEvent(
  ctx: Ctx,
  actor: Actor,
  input: RecordContactEventInput,
): Promise<{ id: string; contactId: string; entered: number }> {
  const workspaceId = requireActorWorkspace(actor);
  return withTransaction(ctx, async (tx) => {
    const byWhat = input.contactId !== undefined ? eq(contacts.id, input.contactId) : eq(contacts.email, input.email!);
    const [contact] = await tx.db
      .select({ id: contacts.id, brands: wakesBrands(workspaceId, actor.brandId) })
      .from(contacts)
      .where(and(eq(contacts.workspaceId, workspaceId), byWhat));
    if (!contact)
      throw notFound(
        "contact_not_found",
        input.contactId !== undefined ? `No contact ${input.contactId}.` : "No contact with that address.",
        input.contactId !== undefined ? "contact_id" : "email",
      );
    const id = newId("cev");
    if (actor.mode === "test") return { id, contactId: contact.id, entered: 0 };
    const now = tx.clock.now();
    await tx.db.insert(contactEvents).values({
      id,
      workspaceId: workspaceId,
      contactId: contact.id,
      name: input.name,
      properties: input.properties,
      occurredAt: input.occurredAt ?? now,
      createdAt: now,
    });
    await emitEvents(tx, [
      {
        name: contactEventRecorded.name,
        id: `contact-event-${id}`,
        data: {
          eventId: id,
          workspaceId: workspaceId,
          contactId: contact.id,
          name: input.name,
          key: `${contact.id}:${input.name}`,
          brands: contact.brands,
        },
      },
    ]);
    const { entryIds } = await enterOnEvent(tx, workspaceId, contact.id, input.name, actor.brandId);
    return { id, contactId: contact.id, entered: entryIds.length };
  });
}

/**
 * The brands whose automations' waiting runs the event may wake, as the event carries them: the
 * brand-locked key's own, else every brand of the workspace (read in the contact's statement).
 */
function wakesBrands(workspaceId: string, brandId: string | null): SQL<Record<string, true>> {
  if (brandId) return sql<Record<string, true>>`jsonb_build_object(${brandId}::text, true)`;
  return sql<Record<string, true>>`(select coalesce(jsonb_object_agg(b.id, true), '{}'::jsonb)
    from brands b where b.workspace_id = ${workspaceId})`;
}
