import { and, eq } from "drizzle-orm";
import type { Caller } from "@/lib/caller";
import { withTransaction, type Ctx } from "@/lib/context";
import { confirmationRequests, contacts, subscriptions } from "@/lib/db/schema";
import { validateAttributes } from "@/lib/contacts/attributes";
import { lockOrCreateContact } from "@/lib/contacts/lock-contact";
import { mergeContactFields } from "@/lib/contacts/merge-contact-fields";
import { newId } from "@/lib/ids";
import { getTopicForCaller } from "@/lib/topics/get-topic-for-caller";
import { subscribeDirectly } from "./subscribe-directly";

export interface FormSubmission {
  topicId: string;
  email: string;
  firstName?: string;
  lastName?: string;
  attributes?: Record<string, unknown>;
  /** The honeypot: people leave it empty, bots fill it. */
  website?: string;
}

export type FormAnswer = "confirmation_sent" | "subscribed";

/**
 * POST /v1/subscribe. The answer depends only on the topic, never on the
 * address's history, so the form cannot be used to learn who is subscribed.
 * A confirmed address is not mailed again; an opted-out one is not
 * resubscribed; a filled honeypot is answered the same and dropped.
 * Double opt-in topics get a pending subscription and a recorded
 * confirmation request (mailed by the confirmation workflow, which applies
 * the de-duplication windows); other topics subscribe at once.
 */
export async function subscribeFromForm(ctx: Ctx, caller: Caller, submission: FormSubmission): Promise<FormAnswer> {
  return withTransaction(ctx, async (tx) => {
    const topic = await getTopicForCaller(tx, caller, submission.topicId);
    const answer: FormAnswer = topic.requiresConfirmation ? "confirmation_sent" : "subscribed";
    if (submission.website) return answer;
    const attributes = await validateAttributes(tx, caller.workspaceId, submission.attributes ?? {});

    const incoming = { firstName: submission.firstName, lastName: submission.lastName, attributes };
    const initial = mergeContactFields("overwrite", { firstName: null, lastName: null, attributes: {} }, incoming);
    const { contact, created } = await lockOrCreateContact(tx, caller.workspaceId, submission.email, initial);
    if (contact.optedOutAt) return answer;

    const [existing] = await tx.db
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.contactId, contact.id), eq(subscriptions.topicId, topic.id)));
    if (existing && existing.state !== "pending") return answer; // subscribed: not re-mailed; unsubscribed: not resurrected

    if (!created) {
      // An anonymous form only fills blanks: it must not let anyone rewrite a known contact's name.
      const merged = mergeContactFields("keep_existing", contact, incoming);
      await tx.db.update(contacts).set({ ...merged, updatedAt: tx.clock.now() }).where(eq(contacts.id, contact.id));
    }

    if (!topic.requiresConfirmation) {
      await subscribeDirectly(tx, caller, contact, [topic], "api");
      return answer;
    }
    const now = tx.clock.now();
    const subscriptionId = existing?.id ?? newId("sub");
    if (!existing) {
      await tx.db.insert(subscriptions).values({ id: subscriptionId, workspaceId: caller.workspaceId, contactId: contact.id, topicId: topic.id, state: "pending", createdAt: now, updatedAt: now });
    }
    // Test keys write the audience but mail nothing.
    if (caller.mode === "live") {
      await tx.db.insert(confirmationRequests).values({ id: newId("cfr"), workspaceId: caller.workspaceId, subscriptionId, email: contact.email, requestedAt: now });
    }
    return answer;
  });
}
