import "server-only";

import { and, eq, inArray } from "drizzle-orm";

import { requireActorWorkspace, type Actor } from "@/lib/actor";
import { enterAutomations } from "@/lib/automations/enter-automation";
import type { Ctx } from "@/lib/context";
import { subscriptions, type SubscriptionOrigin, type SubscriptionSource } from "@/lib/db/schema";
import { notFound } from "@/lib/errors";
import { recordEvent } from "@/lib/events/record-event";
import { newId } from "@/lib/ids";
import type { TopicRow } from "@/lib/topics/get-topic-for-actor";

import { actorOriginSql } from "./subscription-origin";

/**
 * Subscribes a contact to topics without a confirmation mail: the actor
 * asserts consent. New and pending subscriptions become subscribed and fire
 * `contact.subscribed`; subscribed ones are left alone. Unsubscribed ones are
 * never touched here: callers refuse or skip them before calling. The contact
 * and topics must be of the actor's workspace. `origin` is kept with each
 * subscription it subscribes (a signup form); an API key's subscriptions
 * without one record the key.
 */
export async function subscribeDirectly(
  ctx: Ctx,
  actor: Actor,
  contact: { id: string; email: string; workspaceId: string },
  topics: TopicRow[],
  source: SubscriptionSource,
  origin?: SubscriptionOrigin,
): Promise<string[]> {
  const workspaceId = requireActorWorkspace(actor);
  // The callers looked these up for the actor; checked again because a foreign row here would write a subscription across workspaces.
  if (contact.workspaceId !== workspaceId) throw notFound("contact_not_found", `No contact ${contact.id}.`);
  const foreign = topics.find((t) => t.workspaceId !== workspaceId);
  if (foreign) throw notFound("topic_not_found", `No topic ${foreign.id}.`);
  if (topics.length === 0) return [];
  const now = ctx.clock.now();
  const topicIds = topics.map((t) => t.id);
  await ctx.db
    .insert(subscriptions)
    .values(
      topics.map((t) => ({
        id: newId("sub"),
        workspaceId,
        contactId: contact.id,
        topicId: t.id,
        state: "pending" as const,
        createdAt: now,
        updatedAt: now,
      })),
    )
    .onConflictDoNothing();
  const changed = await ctx.db
    .update(subscriptions)
    .set({ state: "subscribed", source, origin: origin ?? actorOriginSql(actor), subscribedAt: now, updatedAt: now })
    .where(
      and(
        eq(subscriptions.contactId, contact.id),
        inArray(subscriptions.topicId, topicIds),
        eq(subscriptions.state, "pending"),
      ),
    )
    .returning({ topicId: subscriptions.topicId });
  for (const { topicId } of changed) {
    const topic = topics.find((t) => t.id === topicId)!;
    await recordEvent(
      ctx,
      actor,
      "contact.subscribed",
      {
        contact_id: contact.id,
        email: contact.email,
        topic_id: topic.id,
        topic_name: topic.name,
        brand_id: topic.brandId,
        source,
        occurred_at: now.toISOString(),
      },
      now,
    );
  }
  // Subscribed without a confirmation (the topic skips it, or the caller asserts consent): the
  // topic's welcome series starts as it does for a confirmed double opt-in. A test key mails nothing.
  if (actor.mode === "live")
    for (const { topicId } of changed)
      await enterAutomations(ctx, workspaceId, { topicId, contactId: contact.id, trigger: "topic_confirmed" });
  return changed.map((c) => c.topicId);
}
