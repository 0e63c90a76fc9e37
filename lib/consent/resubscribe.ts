import "server-only";

import { and, eq, ne } from "drizzle-orm";

import { systemActor } from "@/lib/actor";
import { withTransaction, type Ctx } from "@/lib/context";
import { contacts, subscriptions, topics } from "@/lib/db/schema";
import { recordEvent } from "@/lib/events/record-event";
import { newId } from "@/lib/ids";

/**
 * The only way back from unsubscribed: the person's own action from a link
 * in mail they received (consent proven from their mailbox, hence source
 * double_opt_in). Lifts an opt-out of everything too. Idempotent.
 */
export async function resubscribe(
  ctx: Ctx,
  request: { contactId: string; topicId: string },
): Promise<{ changed: boolean }> {
  return withTransaction(ctx, async (tx) => {
    const [contact] = await tx.db.select().from(contacts).where(eq(contacts.id, request.contactId)).for("update");
    const [topic] = contact
      ? await tx.db
          .select()
          .from(topics)
          .where(and(eq(topics.id, request.topicId), eq(topics.workspaceId, contact.workspaceId)))
      : [];
    if (!contact || !topic || topic.archivedAt) return { changed: false };
    const now = tx.clock.now();
    if (contact.optedOutAt)
      await tx.db.update(contacts).set({ optedOutAt: null, updatedAt: now }).where(eq(contacts.id, contact.id));
    await tx.db
      .insert(subscriptions)
      .values({
        id: newId("sub"),
        workspaceId: contact.workspaceId,
        contactId: contact.id,
        topicId: topic.id,
        state: "pending",
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing();
    const changed = await tx.db
      .update(subscriptions)
      // Consent now comes from the person's own mailbox, not from the form, key or import that subscribed them before.
      .set({
        state: "subscribed",
        source: "double_opt_in",
        origin: null,
        subscribedAt: now,
        unsubscribedAt: null,
        updatedAt: now,
      })
      .where(
        and(
          eq(subscriptions.contactId, contact.id),
          eq(subscriptions.topicId, topic.id),
          ne(subscriptions.state, "subscribed"),
        ),
      )
      .returning({ id: subscriptions.id });
    if (changed.length === 0 && !contact.optedOutAt) return { changed: false };
    if (changed.length > 0) {
      await recordEvent(
        tx,
        systemActor("consent:resubscribe", contact.workspaceId),
        "contact.subscribed",
        {
          contact_id: contact.id,
          email: contact.email,
          topic_id: topic.id,
          topic_name: topic.name,
          brand_id: topic.brandId,
          source: "double_opt_in",
          occurred_at: now.toISOString(),
        },
        now,
      );
    }
    return { changed: true };
  });
}
