import "server-only";

import { and, eq, inArray } from "drizzle-orm";

import { requireActorWorkspace, type Actor } from "@/lib/actor";
import { attributeChanges, enterAttributeChanged } from "@/lib/automations/trigger-matching";
import { withTransaction, type Ctx } from "@/lib/context";
import { contacts, subscriptions, workspaces, type AttributeValue } from "@/lib/db/schema";
import { ApiError } from "@/lib/errors";
import { subscribeDirectly } from "@/lib/subscriptions/subscribe-directly";
import { getTopicForActorOrThrow } from "@/lib/topics/get-topic-for-actor";

import { validateAttributes } from "./attributes";
import { createdContactView, getContactOrThrow, type ContactView } from "./contact-view";
import { contactErased, isErasedAddress } from "./erased-address";
import { hasOptedOut } from "./has-opted-out";
import { createContactUnlessErased, lockContact, lockOrCreateContact } from "./lock-contact";
import { mergeContactFields, mergeTimeZone } from "./merge-contact-fields";
import { canonicalTimeZone } from "./time-zone";

export interface UpsertContactInput {
  email: string;
  firstName?: string | null;
  lastName?: string | null;
  attributes?: Record<string, unknown>;
  /** An IANA time zone (time-zone.ts), checked by the caller's schema; merged like the names. */
  timeZone?: string | null;
  topicIds?: string[];
}

const contactUnsubscribed = () =>
  new ApiError({
    type: "invalid_request_error",
    code: "contact_unsubscribed",
    param: "email",
    message: "This address opted out. Only the person can resubscribe, from a link in mail they received.",
  });

/**
 * POST /v1/contacts: create, or merge into the contact with this address under
 * the workspace merge policy. `topicIds` subscribe directly (the actor
 * asserts consent; source `api`, or `dashboard` for a member). An unsubscribed contact, or one that opted
 * out of a requested topic, refuses the whole request and nothing is written; so does the address
 * of a contact the workspace erased, unless the person has since signed up again themselves.
 */
export async function upsertContact(
  ctx: Ctx,
  actor: Actor,
  input: UpsertContactInput,
): Promise<{ contact: ContactView; created: boolean }> {
  const workspaceId = requireActorWorkspace(actor);
  const topicIds = [...new Set(input.topicIds ?? [])];
  const timeZone = input.timeZone ? canonicalTimeZone(input.timeZone) : input.timeZone;
  const initialFields = (attributes: Record<string, AttributeValue | null>) => ({
    ...mergeContactFields("overwrite", { firstName: null, lastName: null, attributes: {} }, { ...input, attributes }),
    timeZone: timeZone ?? null,
  });
  // Topics are looked up before attributes are checked, so a request wrong in both is told about the topic.
  const checkedAttributes =
    topicIds.length === 0 ? await validateAttributes(ctx, workspaceId, input.attributes ?? {}) : null;
  if (checkedAttributes) {
    // A new address without topics is one statement, which needs no transaction around it (the API's common case).
    const fields = initialFields(checkedAttributes);
    const created = await createContactUnlessErased(ctx, workspaceId, input.email, fields);
    if (created) {
      const { firstName, lastName, attributes } = fields;
      const written = { ...created, email: input.email, firstName, lastName, attributes };
      return { contact: await createdContactView(ctx, written), created: true };
    }
  }
  // An erased person comes back only by their own signup (a form, /v1/subscribe), never added by the sender.
  const erased = await isErasedAddress(ctx, workspaceId, input.email);
  return withTransaction(ctx, async (tx) => {
    const topics = [];
    for (const [index, topicId] of topicIds.entries())
      topics.push(await getTopicForActorOrThrow(tx, actor, topicId, `topic_ids.${index}`));
    const attributes = checkedAttributes ?? (await validateAttributes(tx, workspaceId, input.attributes ?? {}));
    // Without topics the insert was tried above and found the address taken: lock it rather than insert again.
    const known = checkedAttributes || erased ? await lockContact(tx, workspaceId, input.email) : null;
    if (!known && erased) throw contactErased();
    const { contact, created } = known
      ? { contact: known, created: false }
      : await lockOrCreateContact(tx, workspaceId, input.email, initialFields(attributes));
    if (!created) {
      // Not the derived status: it ranks bounced and complained above unsubscribed.
      if (await hasOptedOut(tx, contact.id)) throw contactUnsubscribed();
      if (topicIds.length > 0) {
        const optedOut = await tx.db
          .select({ topicId: subscriptions.topicId })
          .from(subscriptions)
          .where(
            and(
              eq(subscriptions.contactId, contact.id),
              inArray(subscriptions.topicId, topicIds),
              eq(subscriptions.state, "unsubscribed"),
            ),
          );
        if (optedOut.length > 0) throw contactUnsubscribed();
      }
      const [workspace] = await tx.db
        .select({ mergePolicy: workspaces.mergePolicy })
        .from(workspaces)
        .where(eq(workspaces.id, workspaceId));
      const merged = mergeContactFields(workspace!.mergePolicy, contact, {
        ...input,
        attributes: attributes as Record<string, AttributeValue | null>,
      });
      const mergedZone = mergeTimeZone(workspace!.mergePolicy, contact.timeZone, timeZone);
      if (
        mergedZone !== contact.timeZone ||
        JSON.stringify(merged) !==
          JSON.stringify({ firstName: contact.firstName, lastName: contact.lastName, attributes: contact.attributes })
      ) {
        await tx.db
          .update(contacts)
          .set({ ...merged, timeZone: mergedZone, updatedAt: tx.clock.now() })
          .where(eq(contacts.id, contact.id));
        if (actor.mode === "live")
          await enterAttributeChanged(
            tx,
            workspaceId,
            attributeChanges(contact.id, contact.attributes, merged.attributes),
          );
      }
    }
    // A member adding someone in the dashboard asserts consent as an API caller does; the source says which door.
    await subscribeDirectly(tx, actor, contact, topics, actor.kind === "user" ? "dashboard" : "api");
    return { contact: await getContactOrThrow(tx, actor, contact.id), created };
  });
}
