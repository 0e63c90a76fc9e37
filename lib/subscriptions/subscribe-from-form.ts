import "server-only";

import { and, eq, sql } from "drizzle-orm";

import { requireActorWorkspace, type Actor } from "@/lib/actor";
import { attributeChanges, enterAttributeChanged } from "@/lib/automations/trigger-matching";
import { emitConfirmationRequested, recordConfirmationRequest } from "@/lib/consent/record-confirmation-request";
import { validateAttributes } from "@/lib/contacts/attributes";
import { lockOrCreateContact } from "@/lib/contacts/lock-contact";
import { mergeContactFields, mergeTimeZone } from "@/lib/contacts/merge-contact-fields";
import { withTransaction, type Ctx } from "@/lib/context";
import { confirmationRequests, contacts, subscriptions, type SubscriptionOrigin } from "@/lib/db/schema";
import { newId } from "@/lib/ids";
import { getTopicForActorOrThrow } from "@/lib/topics/get-topic-for-actor";

import { subscribeDirectly } from "./subscribe-directly";
import { actorOrigin } from "./subscription-origin";

export interface FormSubmission {
  topicId: string;
  email: string;
  firstName?: string;
  lastName?: string;
  attributes?: Record<string, unknown>;
  /** The visitor's time zone as their browser names it, already canonical (time-zone.ts); fills a blank one only. */
  timeZone?: string;
  /** The honeypot: people leave it empty, bots fill it. */
  website?: string;
}

export type FormAnswer = "confirmation_sent" | "subscribed";

export interface FormOutcome {
  status: FormAnswer;
  /** The subscription this submission created or asked to confirm again; null when it changed none. */
  subscriptionId: string | null;
}

/**
 * POST /v1/subscribe. The answer depends only on the topic, never on the
 * address's history, so the form cannot be used to learn who is subscribed.
 * A confirmed address is not mailed again; an opted-out one is not
 * resubscribed; a filled honeypot is answered the same and dropped.
 * Double opt-in topics get a pending subscription and a recorded
 * confirmation request (mailed by the confirmation workflow, which applies
 * the de-duplication windows); other topics subscribe at once. The
 * subscription keeps where it came from: the signup form when `origin` names
 * one, else the API key.
 */
export async function subscribeFromForm(
  ctx: Ctx,
  actor: Actor,
  submission: FormSubmission,
  origin?: SubscriptionOrigin,
): Promise<FormOutcome> {
  const workspaceId = requireActorWorkspace(actor);
  return withTransaction(ctx, async (tx) => {
    const topic = await getTopicForActorOrThrow(tx, actor, submission.topicId);
    const status: FormAnswer = topic.requiresConfirmation ? "confirmation_sent" : "subscribed";
    const answer: FormOutcome = { status, subscriptionId: null };
    if (submission.website) return answer;
    const attributes = await validateAttributes(tx, workspaceId, submission.attributes ?? {});

    const incoming = { firstName: submission.firstName, lastName: submission.lastName, attributes };
    const initial = mergeContactFields("overwrite", { firstName: null, lastName: null, attributes: {} }, incoming);
    const { contact, created } = await lockOrCreateContact(tx, workspaceId, submission.email, {
      ...initial,
      timeZone: submission.timeZone ?? null,
    });
    if (contact.optedOutAt) return answer;

    // A contact made just now has no subscriptions: skip the look-up (this is the form's common path).
    const [existing] = created
      ? []
      : await tx.db
          .select({ id: subscriptions.id, state: subscriptions.state })
          .from(subscriptions)
          .where(and(eq(subscriptions.contactId, contact.id), eq(subscriptions.topicId, topic.id)));
    if (existing && existing.state !== "pending") return answer; // subscribed: not re-mailed; unsubscribed: not resurrected

    if (!created) {
      // An anonymous form only fills blanks: it must not let anyone rewrite a known contact's name.
      const merged = mergeContactFields("keep_existing", contact, incoming);
      const timeZone = mergeTimeZone("keep_existing", contact.timeZone, submission.timeZone);
      await tx.db
        .update(contacts)
        .set({ ...merged, timeZone, updatedAt: tx.clock.now() })
        .where(eq(contacts.id, contact.id));
      if (actor.mode === "live")
        await enterAttributeChanged(
          tx,
          workspaceId,
          attributeChanges(contact.id, contact.attributes, merged.attributes),
        );
    }

    if (!topic.requiresConfirmation) {
      await subscribeDirectly(tx, actor, contact, [topic], "api", origin);
      const [subscribed] = await tx.db
        .select({ id: subscriptions.id })
        .from(subscriptions)
        .where(and(eq(subscriptions.contactId, contact.id), eq(subscriptions.topicId, topic.id)));
      return { status, subscriptionId: subscribed?.id ?? null };
    }
    const now = tx.clock.now();
    const from = origin ?? (await actorOrigin(tx, actor));
    const live = actor.mode === "live"; // test keys write the audience but mail nothing
    if (existing) {
      // The latest signup is where the confirmation it asks for came from.
      await tx.db.update(subscriptions).set({ origin: from }).where(eq(subscriptions.id, existing.id));
      if (live) await recordConfirmationRequest(tx, { workspaceId, subscriptionId: existing.id, email: contact.email });
      return { status, subscriptionId: existing.id };
    }
    const requestId = newId("cfr");
    const subscriptionId = newId("sub");
    const insertPending = sql`insert into ${subscriptions} (id, workspace_id, contact_id, topic_id, state, origin, created_at, updated_at)
      values (${subscriptionId}, ${workspaceId}, ${contact.id}, ${topic.id}, 'pending', ${from === null ? null : JSON.stringify(from)}::jsonb, ${now.toISOString()}, ${now.toISOString()})`;
    // The pending subscription and its confirmation request in one statement: this is the form's common path.
    await tx.db.execute(
      live
        ? sql`with pending as (${insertPending} returning id)
              insert into ${confirmationRequests} (id, workspace_id, subscription_id, email, requested_at)
              select ${requestId}, ${workspaceId}, pending.id, ${contact.email}, ${now.toISOString()} from pending`
        : insertPending,
    );
    if (live) await emitConfirmationRequested(tx, requestId);
    return { status, subscriptionId };
  });
}
