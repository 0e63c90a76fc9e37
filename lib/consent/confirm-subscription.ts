import "server-only";

import { and, eq } from "drizzle-orm";

import { systemActor } from "@/lib/actor";
import { enterAutomations } from "@/lib/automations/enter-automation";
import { withTransaction, type Ctx } from "@/lib/context";
import { brands, confirmationRequests, contacts, subscriptions, topics } from "@/lib/db/schema";
import { emitEvents } from "@/lib/events/emit-events";
import { recordEvent } from "@/lib/events/record-event";
import { subscriptionConfirmed } from "@/lib/events/workflow-events";
import { verifyToken } from "@/lib/tokens/signed-token";

import { CONFIRMATION_VALIDITY_MS } from "./confirmation-windows";
import type { BrandRow, TopicRow } from "./load-consent-context";

export type ConfirmResult =
  | {
      outcome: "confirmed" | "already_confirmed" | "expired" | "not_pending";
      brand: BrandRow;
      topic: TopicRow;
      requestId: string;
    }
  | { outcome: "invalid" };

/**
 * The confirmation link. Within 14 days of its mail it confirms a pending
 * subscription, storing when, from which IP and with which user agent, and
 * records contact.subscribed (source double_opt_in). Visiting again says
 * "already confirmed" (mail scanners open links first). An older link
 * changes nothing; the page offers to sign up again. It never brings back
 * someone who opted out.
 */
export async function confirmSubscription(
  ctx: Ctx,
  token: string,
  evidence: { ip: string | null; userAgent: string | null },
): Promise<ConfirmResult> {
  const payload = verifyToken<{ r: string }>("confirm", token);
  if (!payload) return { outcome: "invalid" };
  return withTransaction(ctx, async (tx) => {
    const [row] = await tx.db
      .select({
        request: confirmationRequests,
        subscription: subscriptions,
        topic: topics,
        brand: brands,
        contact: contacts,
      })
      .from(confirmationRequests)
      .innerJoin(subscriptions, eq(subscriptions.id, confirmationRequests.subscriptionId))
      .innerJoin(topics, eq(topics.id, subscriptions.topicId))
      .innerJoin(brands, eq(brands.id, topics.brandId))
      .innerJoin(contacts, eq(contacts.id, subscriptions.contactId))
      .where(eq(confirmationRequests.id, payload.r))
      .for("update", { of: subscriptions });
    if (!row?.request.mailedAt) return { outcome: "invalid" };
    const base = { brand: row.brand, topic: row.topic, requestId: row.request.id };
    if (row.subscription.state === "subscribed") return { outcome: "already_confirmed", ...base };
    if (row.subscription.state !== "pending" || row.contact.optedOutAt) return { outcome: "not_pending", ...base };
    const now = tx.clock.now();
    if (now.getTime() - row.request.mailedAt.getTime() > CONFIRMATION_VALIDITY_MS)
      return { outcome: "expired", ...base };

    await tx.db
      .update(subscriptions)
      .set({
        state: "subscribed",
        source: "double_opt_in",
        confirmedAt: now,
        confirmedIp: evidence.ip,
        confirmedUserAgent: evidence.userAgent?.slice(0, 500) ?? null,
        subscribedAt: now,
        updatedAt: now,
      })
      .where(and(eq(subscriptions.id, row.subscription.id), eq(subscriptions.state, "pending")));
    await recordEvent(
      tx,
      systemActor("consent:confirm", row.request.workspaceId),
      "contact.subscribed",
      {
        contact_id: row.contact.id,
        email: row.contact.email,
        topic_id: row.topic.id,
        topic_name: row.topic.name,
        brand_id: row.brand.id,
        source: "double_opt_in",
        occurred_at: now.toISOString(),
      },
      now,
    );
    await emitEvents(tx, [
      {
        name: subscriptionConfirmed.name,
        id: `confirmed-${row.subscription.id}`,
        data: { subscriptionId: row.subscription.id },
      },
    ]);
    await enterAutomations(tx, row.subscription.workspaceId, {
      topicId: row.topic.id,
      contactId: row.contact.id,
      trigger: "topic_confirmed",
    });
    return { outcome: "confirmed", ...base };
  });
}
