import "server-only";

import { and, eq, sql, type SQL } from "drizzle-orm";

import { actorLabel, inActorWorkspace, type WorkspaceActor } from "@/lib/actor";
import { unsubscribe } from "@/lib/consent/unsubscribe";
import { getContactOrThrow } from "@/lib/contacts/contact-view";
import { lockContactsInto } from "@/lib/contacts/lock-contact";
import { withTransaction, type Ctx } from "@/lib/context";
import { idArray } from "@/lib/db/id-array";
import { topics } from "@/lib/db/schema";
import { notFound } from "@/lib/errors";
import { newId, type IdPrefix } from "@/lib/ids";
import { countUnsubscribe } from "@/lib/reports/count-unsubscribe";
import { parseInput } from "@/lib/validation/parse-input";
import { queueDeliveriesOf } from "@/lib/webhooks/queue-deliveries";

import { unsubscribeOnBehalfSchema, type UnsubscribeOnBehalfInput } from "./subscription-schemas";

/**
 * A member unsubscribes a contact for the person, who asked some other way than
 * a link (by phone, by letter, in a reply): from one topic or from everything.
 * It is the opt-out the person's own link makes (lib/consent/unsubscribe.ts), so
 * the subscriptions, the contact's status, the reports and the
 * contact.unsubscribed event and its webhooks are the same; the member and the
 * note are kept beside the event. Nothing here resubscribes: only the person
 * can, from a link in mail they received. An opt-out already made changes
 * nothing and records nothing (`changed` false).
 */
export async function unsubscribeOnBehalf(
  ctx: Ctx,
  actor: WorkspaceActor,
  input: UnsubscribeOnBehalfInput,
): Promise<{ changed: boolean }> {
  const { contactId, topicId, note } = parseInput(unsubscribeOnBehalfSchema, input);
  return withTransaction(ctx, async (tx) => {
    await getContactOrThrow(tx, actor, contactId);
    if (topicId !== null) {
      // An archived topic too: leaving it is harmless, and its subscriptions still show on the contact's page.
      const [topic] = await tx.db
        .select({ id: topics.id })
        .from(topics)
        .where(and(eq(topics.id, topicId), inActorWorkspace(actor, topics.workspaceId)));
      if (!topic) throw notFound("topic_not_found", `No topic ${topicId}.`, "topicId");
    }
    return unsubscribe(tx, {
      contactId,
      ...(topicId === null ? { scope: "all" } : { scope: "topic", topicId }),
      onBehalf: { actor, note },
    });
  });
}

/**
 * Internal: unsubscribeOnBehalf of the actor's workspace's contacts that match a condition on
 * `contacts` (a bulk action's chunk), set-based: the opt-out of lib/consent/unsubscribe.ts for each of
 * them, with the same rules, made by one statement per table whatever their number, so no contact's
 * row passes through here (only the new rows' ids, which lib/ids.ts makes):
 * - the people are locked (as the one-contact opt-out locks its contact) and noted in a temporary
 *   table (`opting_out`); one erased meanwhile is passed over;
 * - from a topic: a contact with no subscription to it gets one `unsubscribed`, so the wish is kept
 *   (nothing recorded for it, as for one contact); every other subscription to it still open ends;
 *   from everything: every open subscription ends and the contact is opted out (`opted_out_at`);
 * - each person for whom that changed something (and only they: an opt-out already made records
 *   nothing) is counted once in the activity series, gets a contact.unsubscribed event (no
 *   `campaign_id`) with its webhook deliveries, and the member's note beside it (opt_outs_on_behalf).
 * The report triggers recount the contacts' statuses from the statements' rows, as for one contact.
 * See docs/readings.md, "Opting out for the person" and "Bulk actions on contacts".
 */
export async function unsubscribeOnBehalfWhere(
  ctx: Ctx,
  actor: WorkspaceActor,
  which: SQL,
  opts: { topicId: string | null; note: string },
): Promise<{ changed: number }> {
  const workspaceId = actor.workspaceId;
  return withTransaction(ctx, async (tx) => {
    const now = tx.clock.now();
    const at = now.toISOString();
    const run = (query: SQL) => tx.db.execute(query);
    const count = async (query: SQL) => ((await run(query)) as unknown as { n: number }[])[0]!.n;
    let topic: { id: string; name: string; brand_id: string } | undefined;
    if (opts.topicId !== null) {
      // An archived topic too, as for one contact; one not of the workspace changes nothing.
      [topic] = (await run(sql`
        select id, name, brand_id from topics where id = ${opts.topicId} and workspace_id = ${workspaceId}`)) as unknown as {
        id: string;
        name: string;
        brand_id: string;
      }[];
      if (!topic) return { changed: 0 };
    }
    await lockContactsInto(tx, "opting_out", workspaceId, which);
    await run(sql`alter table opting_out add primary key (id)`);
    await run(sql`analyze opting_out`);
    // Their ids' range: a bulk chunk is a run of ids in order, so subscriptions are read by their contact
    // index over that range only (ids are text COLLATE "C" everywhere, so it holds every id of the chunk).
    const [range] = (await run(sql`select min(id) as first, max(id) as last from opting_out`)) as unknown as {
      first: string | null;
      last: string | null;
    }[];
    const ofThem = sql`s.contact_id in (select id from opting_out) and s.contact_id between ${range!.first} and ${range!.last}`;
    await run(sql`drop table if exists opted_out`);
    await run(sql`create temporary table opted_out (id text collate "C" primary key) on commit drop`);

    if (topic) {
      // An opt-out is recorded even without a subscription row, so the wish is kept.
      const missing = await count(sql`
        select count(*)::int as n from opting_out o
        where not exists (select 1 from subscriptions s where s.contact_id = o.id and s.topic_id = ${topic.id})`);
      if (missing > 0)
        await run(sql`
          insert into subscriptions (id, workspace_id, contact_id, topic_id, state, unsubscribed_at, created_at, updated_at)
          select n.id, ${workspaceId}, m.id, ${topic.id}, 'unsubscribed', ${at}::timestamptz, ${at}::timestamptz, ${at}::timestamptz
          from (select o.id, row_number() over (order by o.id) as k from opting_out o
                where not exists (select 1 from subscriptions s where s.contact_id = o.id and s.topic_id = ${topic.id})) m
          join unnest(${idArray(newIds("sub", missing))}) with ordinality as n(id, k) on n.k = m.k
          on conflict do nothing`);
    }
    // What an opt-out can end: canOptOut (lib/subscriptions/subscription-state.ts).
    await run(sql`
      with ended as (
        update subscriptions s set state = 'unsubscribed', unsubscribed_at = ${at}::timestamptz, updated_at = ${at}::timestamptz
        where ${ofThem} and s.state <> 'unsubscribed'
          ${topic ? sql`and s.topic_id = ${topic.id}` : sql``}
        returning s.contact_id)
      insert into opted_out (id) select distinct contact_id from ended`);
    if (!topic)
      await run(sql`
        with opted as (
          update contacts set opted_out_at = ${at}::timestamptz, updated_at = ${at}::timestamptz
          where contacts.id in (select id from opting_out) and contacts.opted_out_at is null
          returning contacts.id)
        insert into opted_out (id) select id from opted on conflict do nothing`);

    const changed = await count(sql`select count(*)::int as n from opted_out`);
    if (changed > 0) {
      const brandId = topic?.brand_id ?? null;
      await countUnsubscribe(tx, { workspaceId, brandId, at: now, count: changed });
      // recordEvent's rule: a test key's action records nothing (the bulk actions' actors are members or the system).
      const recorded = actor.mode !== "test";
      await run(sql`drop table if exists opt_out_events`);
      await run(sql`
        create temporary table opt_out_events on commit drop as
        select ev.id, c.id as contact_id
        from (select id, row_number() over (order by id) as k from opted_out) c
        join unnest(${idArray(recorded ? newIds("evt", changed) : [])}) with ordinality as ev(id, k) on ev.k = c.k`);
      if (recorded) {
        await run(sql`
          insert into events (id, workspace_id, type, data, occurred_at, created_at)
          select e.id, ${workspaceId}, 'contact.unsubscribed',
                 jsonb_build_object('contact_id', o.id, 'email', o.email, 'scope', ${topic ? "topic" : "all"}::text,
                   'topic_id', ${topic?.id ?? null}::text, 'topic_name', ${topic?.name ?? null}::text,
                   'brand_id', ${brandId}::text, 'campaign_id', null::text, 'occurred_at', ${at}::text),
                 ${at}::timestamptz, ${at}::timestamptz
          from opt_out_events e join opting_out o on o.id = e.contact_id`);
        await queueDeliveriesOf(tx, {
          workspaceId,
          type: "contact.unsubscribed",
          eventIds: sql`select id from opt_out_events`,
          count: changed,
        });
      }
      await run(sql`
        insert into opt_outs_on_behalf (id, workspace_id, contact_id, event_id, scope, topic_id, made_by, note, created_at)
        select n.id, ${workspaceId}, c.id, e.id, ${topic ? "topic" : "all"}, ${topic?.id ?? null}, ${actorLabel(actor)},
               ${opts.note}, ${at}::timestamptz
        from (select id, row_number() over (order by id) as k from opted_out) c
        join unnest(${idArray(newIds("oob", changed))}) with ordinality as n(id, k) on n.k = c.k
        left join opt_out_events e on e.contact_id = c.id`);
      await run(sql`drop table opt_out_events`);
    }
    await run(sql`drop table opted_out`);
    await run(sql`drop table opting_out`);
    return { changed };
  });
}

const newIds = (prefix: IdPrefix, n: number) => Array.from({ length: n }, () => newId(prefix));
