import "server-only";

import { and, asc, eq, isNull } from "drizzle-orm";

import type { Ctx } from "@/lib/context";
import { subscriptions, topics } from "@/lib/db/schema";

import type { PreferencesLink } from "./links";
import { loadContactBrand } from "./load-consent-context";
import { resubscribe } from "./resubscribe";
import { unsubscribe } from "./unsubscribe";

export interface TopicPreference {
  id: string;
  name: string;
  description: string;
  subscribed: boolean;
}

/** The preference centre shows only topics of the brand the person already has a relationship with. */
export async function loadPreferences(ctx: Ctx, contactId: string, brandId: string) {
  const found = await loadContactBrand(ctx, contactId, brandId);
  if (!found) return null;
  const rows = await ctx.db
    .select({ id: topics.id, name: topics.name, description: topics.description, state: subscriptions.state })
    .from(subscriptions)
    .innerJoin(topics, eq(topics.id, subscriptions.topicId))
    .where(and(eq(subscriptions.contactId, contactId), eq(topics.brandId, brandId), isNull(topics.archivedAt)))
    .orderBy(asc(topics.name));
  const optedOutOfAll = found.contact.optedOutAt !== null;
  const topicsOut: TopicPreference[] = rows.map(({ state, ...topic }) => ({
    ...topic,
    subscribed: state === "subscribed" && !optedOutOfAll,
  }));
  return { contact: found.contact, brand: found.brand, topics: topicsOut, optedOutOfAll };
}

/**
 * Saves the per-topic choices: ticked topics are (re)subscribed, unticked
 * ones unsubscribed (scope topic). Topics outside the person's relationship
 * are ignored, whatever the form sends.
 */
export async function savePreferences(ctx: Ctx, link: PreferencesLink, subscribedTopicIds: string[]) {
  const current = await loadPreferences(ctx, link.contactId, link.brandId);
  if (!current) return;
  const wanted = new Set(subscribedTopicIds);
  for (const topic of current.topics) {
    if (wanted.has(topic.id) && !topic.subscribed)
      await resubscribe(ctx, { contactId: link.contactId, topicId: topic.id });
    if (!wanted.has(topic.id) && topic.subscribed) {
      await unsubscribe(ctx, { ...link, scope: "topic", topicId: topic.id });
    }
  }
}
