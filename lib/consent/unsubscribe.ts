import "server-only";

import { and, eq, inArray, isNull, ne, type SQL } from "drizzle-orm";

import { actorLabel, systemActor, type WorkspaceActor } from "@/lib/actor";
import { sendsOfCampaign } from "@/lib/campaigns/send-id-range";
import { withTransaction, type Ctx } from "@/lib/context";
import { campaigns, contacts, optOutsOnBehalf, sends, subscriptions, topics } from "@/lib/db/schema";
import { recordEvent } from "@/lib/events/record-event";
import { newId } from "@/lib/ids";
import { countUnsubscribe } from "@/lib/reports/count-unsubscribe";

import type { CampaignMail } from "./links";

export type UnsubscribeScope = "topic" | "brand" | "all";

/** The campaign fields name the mail whose link was used, when there was one. */
export interface UnsubscribeRequest extends CampaignMail {
  contactId: string;
  scope: UnsubscribeScope;
  /** Required for scope topic. */
  topicId?: string;
  /** Required for scope brand (for topic it is the topic's). */
  brandId?: string;
  /**
   * Set when a member of the sender's workspace makes the opt-out for the person (who asked by
   * phone, by letter…): who, and the note of how the person asked, kept beside the event. The
   * opt-out and its event are the person's own otherwise.
   */
  onBehalf?: { actor: WorkspaceActor; note: string };
}

/**
 * The person opts out: of one topic (the default of every unsubscribe
 * link), of every topic of a brand, or of everything. Idempotent: doing it
 * again changes nothing and records nothing. Records contact.unsubscribed
 * with the scope, the topic and brand, and the campaign whose link was used;
 * one made on the person's behalf is recorded in opt_outs_on_behalf too.
 */
export async function unsubscribe(ctx: Ctx, request: UnsubscribeRequest): Promise<{ changed: boolean }> {
  return withTransaction(ctx, async (tx) => {
    const [contact] = await tx.db.select().from(contacts).where(eq(contacts.id, request.contactId)).for("update");
    if (!contact) return { changed: false };
    const now = tx.clock.now();
    let topicIds: string[] = [];
    let topic: typeof topics.$inferSelect | undefined;
    if (request.scope === "topic") {
      [topic] = await tx.db
        .select()
        .from(topics)
        .where(and(eq(topics.id, request.topicId!), eq(topics.workspaceId, contact.workspaceId)));
      if (!topic) return { changed: false };
      topicIds = [topic.id];
      // An opt-out is recorded even without a subscription row, so the wish is kept.
      await tx.db
        .insert(subscriptions)
        .values({
          id: newId("sub"),
          workspaceId: contact.workspaceId,
          contactId: contact.id,
          topicId: topic.id,
          state: "unsubscribed",
          unsubscribedAt: now,
          createdAt: now,
          updatedAt: now,
        })
        .onConflictDoNothing();
    } else if (request.scope === "brand") {
      const brandTopics = await tx.db
        .select({ id: topics.id })
        .from(topics)
        .where(and(eq(topics.brandId, request.brandId!), eq(topics.workspaceId, contact.workspaceId)));
      topicIds = brandTopics.map((t) => t.id);
    }
    const leaving = request.scope === "all" || topicIds.length > 0;
    const changedRows = leaving
      ? await tx.db
          .update(subscriptions)
          .set({ state: "unsubscribed", unsubscribedAt: now, updatedAt: now })
          .where(
            and(
              eq(subscriptions.contactId, contact.id),
              // What an opt-out can end: canOptOut (lib/subscriptions/subscription-state.ts).
              ne(subscriptions.state, "unsubscribed"),
              request.scope === "all" ? undefined : inArray(subscriptions.topicId, topicIds),
            ),
          )
          .returning({ id: subscriptions.id })
      : [];
    let changed = changedRows.length > 0;
    if (request.scope === "all" && !contact.optedOutAt) {
      await tx.db.update(contacts).set({ optedOutAt: now, updatedAt: now }).where(eq(contacts.id, contact.id));
      changed = true;
    }
    if (changed) {
      const brandId = request.scope === "all" ? null : (topic?.brandId ?? request.brandId ?? null);
      await countUnsubscribe(tx, { workspaceId: contact.workspaceId, brandId, at: now });
      // The campaign report's `unsubscribed`: recipients of that campaign who opted out through its mail.
      const send = await sendOfLink(tx, request);
      if (send) {
        await tx.db
          .update(sends)
          .set({ unsubscribedAt: now, updatedAt: now })
          .where(and(send, eq(sends.contactId, contact.id), isNull(sends.unsubscribedAt)));
      }
      const eventId = await recordEvent(
        tx,
        request.onBehalf?.actor ?? systemActor("consent:unsubscribe", contact.workspaceId),
        "contact.unsubscribed",
        {
          contact_id: contact.id,
          email: contact.email,
          scope: request.scope,
          topic_id: topic?.id ?? null,
          topic_name: topic?.name ?? null,
          brand_id: topic?.brandId ?? (request.scope === "brand" ? request.brandId : null) ?? null,
          campaign_id: request.campaignId ?? null,
          occurred_at: now.toISOString(),
        },
        now,
      );
      if (request.onBehalf) {
        await tx.db.insert(optOutsOnBehalf).values({
          id: newId("oob"),
          workspaceId: contact.workspaceId,
          contactId: contact.id,
          eventId,
          scope: request.scope,
          topicId: topic?.id ?? null,
          madeBy: actorLabel(request.onBehalf.actor),
          note: request.onBehalf.note,
          createdAt: now,
        });
      }
    }
    return { changed };
  });
}

/**
 * The send whose link was used. Links name it (token field s); links mailed before they did name only
 * the campaign, whose sends are then searched for the contact (the caller's condition).
 */
async function sendOfLink(ctx: Ctx, request: UnsubscribeRequest): Promise<SQL | null> {
  if (request.sendId) return eq(sends.id, request.sendId);
  if (!request.campaignId) return null;
  const [campaign] = await ctx.db.select().from(campaigns).where(eq(campaigns.id, request.campaignId));
  return campaign ? sendsOfCampaign(campaign) : null;
}
