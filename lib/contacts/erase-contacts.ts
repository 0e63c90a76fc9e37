import "server-only";

import { sql, type SQL } from "drizzle-orm";

import { actorLabel, type WorkspaceActor } from "@/lib/actor";
import { refundSends } from "@/lib/billing/send-allowance";
import { withTransaction, type Ctx } from "@/lib/context";
import { idArray } from "@/lib/db/id-array";
import { notFound, validationFailed } from "@/lib/errors";
import { parseInput } from "@/lib/validation/parse-input";

import { eraseContactSchema, type EraseContactInput } from "./contact-schemas";
import { getContactOrThrow } from "./contact-view";
import { normalizeEmail } from "./email-address";
import { erasedAddressHashSql } from "./erased-address";
import { lockContactsInto } from "./lock-contact";
import { scrubImportFiles } from "./scrub-import-files";

/** What an erasure removed, for the caller to report. */
export interface Erasure {
  erased: number;
  /** Queued sends of campaigns under way that will not go out. */
  cancelledSends: number;
}

/**
 * A member (or a secret key) erases one contact at the person's request (GDPR Art. 17): see
 * eraseContacts. Another workspace's contact is not found.
 */
export async function eraseContact(ctx: Ctx, actor: WorkspaceActor, contactId: string): Promise<Erasure> {
  const erasure = await eraseContacts(ctx, actor, [contactId]);
  if (erasure.erased === 0) throw notFound("contact_not_found", `No contact ${contactId}.`);
  return erasure;
}

/**
 * The contact page's erasure: the member typed the person's address to confirm it, checked here
 * as well as in the browser (`validation_failed` on `confirmation`, nothing erased).
 */
export async function eraseContactConfirmed(
  ctx: Ctx,
  actor: WorkspaceActor,
  input: EraseContactInput,
): Promise<Erasure> {
  const { contactId, confirmation } = parseInput(eraseContactSchema, input);
  const contact = await getContactOrThrow(ctx, actor, contactId);
  if (normalizeEmail(confirmation) !== contact.email)
    throw validationFailed("confirmation", `Type ${contact.email} exactly to confirm.`);
  return eraseContact(ctx, actor, contactId);
}

/**
 * Erases these contacts of the actor's workspace, and every personal datum held about them, in one
 * transaction (ids of other workspaces, or already erased, are passed over):
 * - the contact (address, names, attributes), its subscriptions with their evidence (confirmation
 *   requests, IP and user agent, the signup form's record of them), list memberships, the opt-outs a
 *   member made for them, the suppressions of the address and their lifted record;
 * - in sends, the address (the rows stay, so campaign figures do not move); a queued send of a
 *   campaign under way is cancelled and never goes out;
 * - in events (the timeline, the webhook outbox), the address wherever it appears, and webhook
 *   deliveries of those events not yet made, and receivers' answers to them, which may echo it;
 * - the mail the local mailbox kept for the address, and provider reports about the address or
 *   its sends (bounce and complaint messages quote the mail);
 * - in imports, the rows holding the address (kept as refused `erased`, so counts stay), preview
 *   rows, and files (see scrubImportFiles).
 * Only a keyed hash of each address is kept (erased-address.ts), so that adding the address again
 * is refused. Aggregate figures (campaign counters, the activity series) stay as they were; the
 * contact counts lose the erased contacts, as they would any contact removed.
 */
export async function eraseContacts(ctx: Ctx, actor: WorkspaceActor, contactIds: string[]): Promise<Erasure> {
  if (contactIds.length === 0) return { erased: 0, cancelledSends: 0 };
  return eraseContactsWhere(ctx, actor, sql`contacts.id = any(${idArray(contactIds)})`);
}

/**
 * Internal: eraseContacts of the actor's workspace's contacts that match a condition on `contacts`
 * (a bulk action's chunk: a run of ids in order, under the table's filters), set-based: the people
 * are locked and noted once in a temporary table (`erasing`: id, email) that every statement joins,
 * so no id or address leaves the database and each table is written by one statement per call.
 * Contacts go before their subscriptions (which hold no key to them): the status recount the
 * contacts' deletion makes then finds them gone, and the subscriptions' own finds nothing left to
 * recount, where the other order recounted every contact twice.
 */
export async function eraseContactsWhere(ctx: Ctx, actor: WorkspaceActor, which: SQL): Promise<Erasure> {
  const workspaceId = actor.workspaceId;
  return withTransaction(ctx, async (tx) => {
    const now = tx.clock.now().toISOString();
    const run = (query: SQL) => tx.db.execute(query);
    const one = async <T>(query: SQL) => ((await run(query)) as unknown as T[])[0]!;
    await lockContactsInto(tx, "erasing", workspaceId, which);
    const {
      n: erased,
      first,
      last,
    } = await one<{ n: number; first: string | null; last: string | null }>(
      sql`select count(*)::int as n, min(id) as first, max(id) as last from erasing`,
    );
    if (erased === 0) {
      await run(sql`drop table erasing`);
      return { erased: 0, cancelledSends: 0 };
    }
    // Its statistics, so that each join below is planned for the chunk's true size.
    await run(sql`analyze erasing`);
    // Their ids' range, given to the statements that reach a table by its contact index: a bulk chunk is a
    // run of ids in order, so the index is read over that range only, not over the whole workspace (ids are
    // text COLLATE "C" everywhere, so the range holds every id of the chunk).
    const inRange = (contactId: SQL) => sql`${contactId} collate "C" between ${first} and ${last}`;

    await run(sql`
      insert into erased_contacts (workspace_id, address_hash, contact_id, erased_by, erased_at)
      select ${workspaceId}, ${erasedAddressHashSql(sql`e.email`)}, e.id, ${actorLabel(actor)}, ${now}
      from erasing e
      on conflict (workspace_id, address_hash) do update set contact_id = excluded.contact_id, erased_by = excluded.erased_by, erased_at = excluded.erased_at`);

    // Sends carry no contact index (see the sends schema): reach them through the workspace's campaigns.
    const { cancelled: cancelledSends } = await one<{ cancelled: number }>(sql`
      with theirs as (
        select s.id from campaigns c
        cross join lateral (
          select id from sends
          where case when c.send_id_prefix is not null then sends.id >= c.send_id_prefix and sends.id < c.send_id_prefix || '~'
                     else sends.campaign_id = c.id end
            and sends.contact_id in (select id from erasing)) s
        where c.workspace_id = ${workspaceId}),
      scrubbed as (
        update sends set email = '',
          state = case when state = 'queued' then 'cancelled' else state end,
          failure_reason = case when state = 'queued' then 'erased' else failure_reason end,
          updated_at = ${now}
        where id in (select id from theirs)
        returning (failure_reason = 'erased' and state = 'cancelled') as cancelled)
      select (count(*) filter (where cancelled))::int as cancelled from scrubbed`);

    // Every event about them: the address goes from the payload, wherever it appears (a link with a
    // merge tag in it included); the rest (campaign, link, device) keeps the campaign report whole.
    // Their ids are kept for the webhook rows below, in the database. The events are reached by their index
    // by contact (events_workspace_contact_idx), over the chunk's range.
    await run(sql`drop table if exists erasing_events`);
    await run(sql`create temporary table erasing_events (id text primary key) on commit drop`);
    await run(sql`
      with scrubbed as (
        update events e set data = jsonb_set(
            replace(replace(e.data::text, x.email, ''), replace(x.email, '@', '%40'), '')::jsonb,
            '{email}', 'null'::jsonb, false)
        from erasing x
        where e.workspace_id = ${workspaceId} and e.data->>'contact_id' = x.id
          and ${inRange(sql`(e.data->>'contact_id')`)}
        returning e.id)
      insert into erasing_events (id) select id from scrubbed`);
    await run(sql`
      update webhook_attempts set response_excerpt = null
      where delivery_id in (select d.id from webhook_deliveries d join erasing_events v on v.id = d.event_id)`);
    await run(
      sql`delete from webhook_deliveries where event_id in (select id from erasing_events) and status = 'pending'`,
    );

    await run(
      sql`delete from mail_messages where workspace_id = ${workspaceId} and to_address in (select email from erasing)`,
    );
    // A bounce or complaint report quotes the mail: those about the address or one of its sends lose
    // their text; what they reported (a bounce, a complaint) stays in the campaign's figures.
    await run(sql`
      update provider_events p set raw = '', event = p.event - 'address' - 'reason'
      where (p.workspace_id = ${workspaceId} and p.event->'address'->>'email' in (select email from erasing))
         or exists (select 1 from sends s where s.id = p.event->>'sendId' and s.contact_id in (select id from erasing))`);
    await run(
      sql`delete from suppressions where workspace_id = ${workspaceId} and email in (select email from erasing)`,
    );
    await run(
      sql`delete from suppression_lifts where workspace_id = ${workspaceId} and email in (select email from erasing)`,
    );

    const subscriptionIds = sql`array(select s.id from subscriptions s join erasing e on e.id = s.contact_id)::text[]`;
    await run(sql`
      update signup_form_submissions f
      set subscription_ids = array(select unnest(f.subscription_ids) except select unnest(${subscriptionIds}))
      where f.workspace_id = ${workspaceId} and f.subscription_ids && ${subscriptionIds}`);
    await run(
      sql`delete from opt_outs_on_behalf where workspace_id = ${workspaceId} and contact_id in (select id from erasing)
        and ${inRange(sql`contact_id`)}`,
    );
    await scrubImportFiles(tx, workspaceId, sql`select email from erasing`);
    await run(
      sql`delete from contact_engagement where contact_id in (select id from erasing) and ${inRange(sql`contact_id`)}`,
    );
    // List memberships go with the contact (a foreign key that cascades); the report triggers recount.
    await run(sql`delete from contacts where id in (select id from erasing)`);
    // Their confirmation requests go with them (a foreign key that cascades).
    await run(
      sql`delete from subscriptions where contact_id in (select id from erasing) and ${inRange(sql`contact_id`)}`,
    );
    await run(sql`drop table erasing_events`);
    await run(sql`drop table erasing`);

    // A send that never left the service is not counted against the plan.
    await refundSends(tx, workspaceId, cancelledSends);
    return { erased, cancelledSends };
  });
}
