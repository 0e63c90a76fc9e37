import "server-only";

import { and, eq, sql, type SQL } from "drizzle-orm";

import { requireActorWorkspace, type Actor } from "@/lib/actor";
import { attributeChanges, enterAttributeChanged } from "@/lib/automations/trigger-matching";
import {
  confirmationRequestedEvent,
  emitConfirmationRequested,
  insertConfirmationRequestSql,
} from "@/lib/consent/record-confirmation-request";
import { validateAttributes } from "@/lib/contacts/attributes";
import { lockContact, lockOrCreateContact, type ContactRow } from "@/lib/contacts/lock-contact";
import { mergeContactFields, mergeTimeZone } from "@/lib/contacts/merge-contact-fields";
import { withTransaction, type Ctx } from "@/lib/context";
import { cachedPlansDb } from "@/lib/db/client";
import { contacts, subscriptions, type SubscriptionOrigin } from "@/lib/db/schema";
import { emitEvents, emitEventsWithin } from "@/lib/events/emit-events";
import { newId } from "@/lib/ids";
import { getTopicForActorOrThrow, type TopicRow } from "@/lib/topics/get-topic-for-actor";

import { subscribeDirectly } from "./subscribe-directly";
import { actorOriginSql } from "./subscription-origin";

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
  // Read before the transaction opens: nothing in it locks the topic, so inside it would see the same row.
  const topic = await getTopicForActorOrThrow(ctx, actor, submission.topicId);
  const status: FormAnswer = topic.requiresConfirmation ? "confirmation_sent" : "subscribed";
  const answer: FormOutcome = { status, subscriptionId: null };
  if (submission.website) return answer;
  const attributes = await validateAttributes(ctx, workspaceId, submission.attributes ?? {});

  const incoming = { firstName: submission.firstName, lastName: submission.lastName, attributes };
  const initial = {
    ...mergeContactFields("overwrite", { firstName: null, lastName: null, attributes: {} }, incoming),
    timeZone: submission.timeZone ?? null,
  };
  const live = actor.mode === "live"; // test keys write the audience but mail nothing
  const from = origin ? sql`${JSON.stringify(origin)}::jsonb` : actorOriginSql(actor);
  if (topic.requiresConfirmation) {
    const pending = await createPendingContact(ctx, {
      workspaceId,
      email: submission.email,
      initial,
      topic,
      from,
      live,
    });
    if (pending) return { status, subscriptionId: pending };
  }
  return withTransaction(ctx, async (tx) => {
    // Known to exist when the pending path above found it (null only if erased meanwhile).
    let contact = topic.requiresConfirmation ? await lockContact(tx, workspaceId, submission.email) : null;
    let created = false;
    if (!contact) ({ contact, created } = await lockOrCreateContact(tx, workspaceId, submission.email, initial));
    if (contact.optedOutAt) return answer;

    // A contact made just now has no subscriptions: skip the look-up.
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
    const now = tx.clock.now().toISOString();
    const requestId = newId("cfr");
    if (existing) {
      // The latest signup is where the confirmation it asks for came from.
      const setOrigin = sql`update ${subscriptions} set origin = ${from} where id = ${existing.id}`;
      await tx.db.execute(
        live
          ? sql`with origin as (${setOrigin})
                ${insertConfirmationRequestSql(sql`select ${requestId}, ${workspaceId}, ${existing.id}, ${contact.email}, ${now}::timestamptz`)}`
          : setOrigin,
      );
      if (live) await emitConfirmationRequested(tx, requestId);
      return { status, subscriptionId: existing.id };
    }
    const subscriptionId = newId("sub");
    const insertPending = insertPendingSql(
      sql`select ${subscriptionId} as id, ${workspaceId} as workspace_id, ${contact.id} as contact_id, ${topic.id} as topic_id, ${now}::timestamptz as at`,
      from,
    );
    // The pending subscription and its confirmation request in one statement.
    await tx.db.execute(
      live
        ? sql`with pending as (${insertPending} returning id)
              ${insertConfirmationRequestSql(sql`select ${requestId}, ${workspaceId}, pending.id, ${contact.email}, ${now}::timestamptz from pending`)}`
        : insertPending,
    );
    if (live) await emitConfirmationRequested(tx, requestId);
    return { status, subscriptionId };
  });
}

/**
 * The form's common path in one statement, with no transaction around it: a contact new to the
 * workspace, its pending subscription and (live keys) its confirmation request with the workflow run
 * that mails it. Answers the subscription's id; null, and nothing written, when the workspace already
 * has the address: the caller then takes the contact's lock and its history.
 */
async function createPendingContact(ctx: Ctx, input: PendingContact): Promise<string | null> {
  const requestId = newId("cfr");
  const event = confirmationRequestedEvent(requestId);
  const workflows = input.live ? await emitEventsWithin(ctx, [event], sql`exists (select 1 from requested)`) : sql``;
  if (workflows === null)
    // The workflows cannot start within the statement (an Inngest server): the statement, then the event, together.
    return withTransaction(ctx, async (tx) => {
      const subscriptionId = await insertPendingContact(tx, input, requestId, sql``);
      if (subscriptionId) await emitEvents(tx, [event]);
      return subscriptionId;
    });
  return insertPendingContact(ctx, input, requestId, workflows);
}

interface PendingContact {
  workspaceId: string;
  email: string;
  initial: Pick<ContactRow, "firstName" | "lastName" | "attributes" | "timeZone">;
  topic: TopicRow;
  from: SQL;
  live: boolean;
}

async function insertPendingContact(
  ctx: Ctx,
  input: PendingContact,
  requestId: string,
  workflows: SQL,
): Promise<string | null> {
  const subscriptionId = newId("sub");
  // The values in one parameter: with the workflows' own, the statement stays within the parameters a
  // prepared statement takes (lib/db/client.ts), so it is parsed once per connection, not at every signup.
  const values = JSON.stringify({
    workspace_id: input.workspaceId,
    email: input.email,
    at: ctx.clock.now().toISOString(),
    contact_id: newId("ct"),
    first_name: input.initial.firstName,
    last_name: input.initial.lastName,
    attributes: input.initial.attributes,
    time_zone: input.initial.timeZone,
    subscription_id: subscriptionId,
    topic_id: input.topic.id,
    request_id: requestId,
  });
  // Every row reached by its key: planned once per connection (cachedPlansDb).
  const rows = await cachedPlansDb(ctx.db).execute(sql`
    with v as (
      select * from jsonb_to_record(${values}::jsonb) as v(workspace_id text, email text, at timestamptz, contact_id text,
        first_name text, last_name text, attributes jsonb, time_zone text, subscription_id text, topic_id text, request_id text)
    ), created as (
      insert into ${contacts} (id, workspace_id, email, first_name, last_name, attributes, time_zone, created_at, updated_at)
      select v.contact_id, v.workspace_id, v.email, v.first_name, v.last_name, v.attributes, v.time_zone, v.at, v.at from v
      on conflict do nothing
      returning id
    ), pending as (
      ${insertPendingSql(sql`select v.subscription_id as id, v.workspace_id, created.id as contact_id, v.topic_id, v.at from v, created`, input.from)}
      returning id
    )${
      input.live
        ? sql`, requested as (
      ${insertConfirmationRequestSql(sql`select v.request_id, v.workspace_id, pending.id, v.email, v.at from v, pending`)}
      returning id
    )`
        : sql``
    } ${workflows}
    select id from created`);
  return rows.length > 0 ? subscriptionId : null;
}

/**
 * The insert of a signup's pending subscription, the one place this file writes it: `row` selects its
 * id, workspace_id, contact_id, topic_id and the instant (at) it is made; `origin` is where the signup
 * came from (subscription-origin.ts).
 */
function insertPendingSql(row: SQL, origin: SQL): SQL {
  return sql`insert into ${subscriptions} (id, workspace_id, contact_id, topic_id, state, origin, created_at, updated_at)
    select p.id, p.workspace_id, p.contact_id, p.topic_id, 'pending', ${origin}, p.at, p.at from (${row}) p`;
}
