import "server-only";

import { and, eq } from "drizzle-orm";

import type { Ctx } from "@/lib/context";
import { subscriptions } from "@/lib/db/schema";

import { preferencesUrl, type UnsubscribeTarget } from "./links";
import { loadContactTopic } from "./load-consent-context";

/** What the unsubscribe page shows for a link: whose address, which topic of which brand, subscribed or not. */
export async function getUnsubscribeView(ctx: Ctx, target: UnsubscribeTarget) {
  const found = await loadContactTopic(ctx, target.contactId, target.topicId);
  if (!found) return null;
  const [subscription] = await ctx.db
    .select({ state: subscriptions.state })
    .from(subscriptions)
    .where(and(eq(subscriptions.contactId, target.contactId), eq(subscriptions.topicId, target.topicId)));
  const subscribed = subscription?.state === "subscribed" && !found.contact.optedOutAt;
  return {
    email: found.contact.email,
    topic: { id: found.topic.id, name: found.topic.name },
    brand: found.brand,
    subscribed,
    preferencesUrl: preferencesUrl(target.contactId, found.brand.id, target),
  };
}
