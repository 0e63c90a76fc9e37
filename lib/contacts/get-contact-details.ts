import "server-only";

import { and, desc, eq, sql } from "drizzle-orm";

import { actorLabelText, type WorkspaceActor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import {
  campaigns,
  events,
  listMembers,
  lists,
  optOutsOnBehalf,
  sends,
  subscriptions,
  topics,
  users,
  type SubscriptionOrigin,
} from "@/lib/db/schema";

import { getContactOrThrow, type ContactView } from "./contact-view";

/** How much history the contact page shows; the full record stays in the database and the API. */
const RECENT = 50;

/** One of the contact's recent sends: its campaign, its state and what became of it. */
export interface ContactSendRow {
  id: string;
  campaignId: string;
  campaignName: string;
  state: string;
  failureReason: string | null;
  acceptedAt: Date | null;
  deliveredAt: Date | null;
  bouncedAt: Date | null;
  complainedAt: Date | null;
  openedAt: Date | null;
  clickedAt: Date | null;
  unsubscribedAt: Date | null;
}

export interface ContactDetails {
  contact: ContactView & { optedOutAt: Date | null; timeZone: string | null };
  /** Every subscription with the evidence of consent the service stores (spec: sent, clicked, IP). */
  subscriptions: {
    topicId: string;
    topicName: string;
    state: "pending" | "subscribed" | "unsubscribed";
    source: string | null;
    /** Which signup form, API key or import row it came from; null when made before this was kept. */
    origin: SubscriptionOrigin | null;
    confirmationSentAt: Date | null;
    confirmedAt: Date | null;
    confirmedIp: string | null;
    confirmedUserAgent: string | null;
    subscribedAt: Date | null;
    unsubscribedAt: Date | null;
  }[];
  lists: { id: string; name: string }[];
  sends: ContactSendRow[];
  timeline: {
    id: string;
    type: string;
    occurredAt: Date;
    data: Record<string, unknown>;
    /** Set when a machine, not the person, made this open or click (lib/tracking/machine-engagement.ts). */
    machine: string | null;
    /** An opt-out a member made for the person: who, and how the person asked. */
    onBehalf: { by: string; note: string } | null;
  }[];
}

/** Everything the dashboard shows about one contact of the actor's workspace. */
export async function getContactDetailsOrThrow(
  ctx: Ctx,
  actor: WorkspaceActor,
  contactId: string,
): Promise<ContactDetails> {
  const contact = await getContactOrThrow(ctx, actor, contactId);
  const workspaceId = actor.workspaceId;
  const [optedOut, subscriptionRows, listRows, sendRows, eventRows] = await Promise.all([
    ctx.db.execute<{ opted_out_at: Date | null; time_zone: string | null }>(
      sql`select opted_out_at, time_zone from contacts where id = ${contactId} and workspace_id = ${workspaceId}`,
    ),
    ctx.db
      .select({
        topicId: topics.id,
        topicName: topics.name,
        state: subscriptions.state,
        source: subscriptions.source,
        origin: subscriptions.origin,
        confirmationSentAt: subscriptions.confirmationSentAt,
        confirmedAt: subscriptions.confirmedAt,
        confirmedIp: subscriptions.confirmedIp,
        confirmedUserAgent: subscriptions.confirmedUserAgent,
        subscribedAt: subscriptions.subscribedAt,
        unsubscribedAt: subscriptions.unsubscribedAt,
      })
      .from(subscriptions)
      .innerJoin(topics, eq(topics.id, subscriptions.topicId))
      .where(and(eq(subscriptions.contactId, contactId), eq(subscriptions.workspaceId, workspaceId)))
      .orderBy(topics.name),
    ctx.db
      .select({ id: lists.id, name: lists.name })
      .from(listMembers)
      .innerJoin(lists, eq(lists.id, listMembers.listId))
      .where(and(eq(listMembers.contactId, contactId), eq(listMembers.workspaceId, workspaceId)))
      .orderBy(lists.name),
    ctx.db
      .select({
        id: sends.id,
        campaignId: sends.campaignId,
        campaignName: campaigns.name,
        state: sends.state,
        failureReason: sends.failureReason,
        acceptedAt: sends.acceptedAt,
        deliveredAt: sends.deliveredAt,
        bouncedAt: sends.bouncedAt,
        complainedAt: sends.complainedAt,
        openedAt: sends.openedAt,
        clickedAt: sends.clickedAt,
        unsubscribedAt: sends.unsubscribedAt,
      })
      .from(sends)
      .innerJoin(campaigns, eq(campaigns.id, sends.campaignId))
      .where(and(eq(sends.contactId, contactId), eq(sends.workspaceId, workspaceId)))
      .orderBy(desc(sends.id))
      .limit(RECENT),
    ctx.db
      .select({
        id: events.id,
        type: events.type,
        occurredAt: events.occurredAt,
        data: events.data,
        machine: events.machine,
        madeBy: optOutsOnBehalf.madeBy,
        madeByEmail: users.email,
        note: optOutsOnBehalf.note,
      })
      .from(events)
      .leftJoin(
        optOutsOnBehalf,
        and(eq(optOutsOnBehalf.eventId, events.id), eq(optOutsOnBehalf.workspaceId, events.workspaceId)),
      )
      .leftJoin(users, eq(optOutsOnBehalf.madeBy, sql`'user:' || ${users.id}`))
      .where(and(eq(events.workspaceId, workspaceId), sql`(${events.data}->>'contact_id') collate "C" = ${contactId}`))
      .orderBy(desc(events.id))
      .limit(RECENT),
  ]);
  const optedOutAt = optedOut[0]?.opted_out_at ?? null;
  return {
    contact: {
      ...contact,
      optedOutAt: optedOutAt ? new Date(optedOutAt) : null,
      timeZone: optedOut[0]?.time_zone ?? null,
    },
    subscriptions: subscriptionRows,
    lists: listRows,
    sends: sendRows,
    timeline: eventRows.map(({ madeBy, madeByEmail, note, ...event }) => ({
      ...event,
      onBehalf: madeBy ? { by: actorLabelText(madeBy, madeByEmail), note: note ?? "" } : null,
    })),
  };
}
