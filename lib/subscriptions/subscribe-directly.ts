import { and, eq, inArray } from "drizzle-orm";
import type { Caller } from "@/lib/caller";
import type { Ctx } from "@/lib/context";
import { subscriptions, type SubscriptionSource } from "@/lib/db/schema";
import { recordEvent } from "@/lib/events/record-event";
import { newId } from "@/lib/ids";
import type { TopicRow } from "@/lib/topics/get-topic-for-caller";

/**
 * Subscribes a contact to topics without a confirmation mail: the caller
 * asserts consent. New and pending subscriptions become subscribed and fire
 * `contact.subscribed`; subscribed ones are left alone. Unsubscribed ones are
 * never touched here: callers refuse or skip them before calling.
 */
export async function subscribeDirectly(
  ctx: Ctx,
  caller: Caller,
  contact: { id: string; email: string },
  topics: TopicRow[],
  source: SubscriptionSource,
): Promise<string[]> {
  if (topics.length === 0) return [];
  const now = ctx.clock.now();
  const topicIds = topics.map((t) => t.id);
  await ctx.db
    .insert(subscriptions)
    .values(topics.map((t) => ({ id: newId("sub"), workspaceId: caller.workspaceId, contactId: contact.id, topicId: t.id, state: "pending" as const, createdAt: now, updatedAt: now })))
    .onConflictDoNothing();
  const changed = await ctx.db
    .update(subscriptions)
    .set({ state: "subscribed", source, subscribedAt: now, updatedAt: now })
    .where(and(eq(subscriptions.contactId, contact.id), inArray(subscriptions.topicId, topicIds), eq(subscriptions.state, "pending")))
    .returning({ topicId: subscriptions.topicId });
  for (const { topicId } of changed) {
    const topic = topics.find((t) => t.id === topicId)!;
    await recordEvent(ctx, caller, "contact.subscribed", {
      contact_id: contact.id,
      email: contact.email,
      topic_id: topic.id,
      topic_name: topic.name,
      brand_id: topic.brandId,
      source,
      occurred_at: now.toISOString(),
    }, now);
  }
  return changed.map((c) => c.topicId);
}
