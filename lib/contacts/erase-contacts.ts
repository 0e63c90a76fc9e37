import "server-only";

import { sql } from "drizzle-orm";

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
  const workspaceId = actor.workspaceId;
  if (contactIds.length === 0) return { erased: 0, cancelledSends: 0 };
  return withTransaction(ctx, async (tx) => {
    const now = tx.clock.now().toISOString();
    const run = (query: ReturnType<typeof sql>) => tx.db.execute(query);
    const people = (await run(sql`
      select id, email from contacts where workspace_id = ${workspaceId} and id = any(${idArray(contactIds)})
      order by id for update`)) as unknown as { id: string; email: string }[];
    if (people.length === 0) return { erased: 0, cancelledSends: 0 };
    const ids = idArray(people.map((p) => p.id));
    // The ids' range, beside each `contact_id = any(ids)` on a table keyed by contact: a bulk action's
    // chunk is a run of ids in order, and for thousands of ids PostgreSQL otherwise reads the whole
    // table (subscriptions: 500,000 rows per chunk in npm run bench:bulk) rather than the index.
    const inRange = (column: ReturnType<typeof sql>) =>
      sql`${column} between ${people[0]!.id} and ${people.at(-1)!.id} and ${column} = any(${ids})`;
    // A valid address holds no comma (email-address.ts), so addresses pass as ids do.
    const emails = idArray(people.map((p) => p.email));

    await run(sql`
      insert into erased_contacts (workspace_id, address_hash, contact_id, erased_by, erased_at)
      select ${workspaceId}, ${erasedAddressHashSql(sql`c.email`)}, c.id, ${actorLabel(actor)}, ${now}
      from contacts c where c.id = any(${ids})
      on conflict (workspace_id, address_hash) do update set contact_id = excluded.contact_id, erased_by = excluded.erased_by, erased_at = excluded.erased_at`);

    // Sends carry no contact index (see the sends schema): reach them through the workspace's campaigns.
    const cancelled = await run(sql`
      with theirs as (
        select s.id from campaigns c
        cross join lateral (
          select id from sends
          where case when c.send_id_prefix is not null then sends.id >= c.send_id_prefix and sends.id < c.send_id_prefix || '~'
                     else sends.campaign_id = c.id end
            and sends.contact_id = any(${ids})) s
        where c.workspace_id = ${workspaceId})
      update sends set email = '',
        state = case when state = 'queued' then 'cancelled' else state end,
        failure_reason = case when state = 'queued' then 'erased' else failure_reason end,
        updated_at = ${now}
      where id in (select id from theirs)
      returning (failure_reason = 'erased' and state = 'cancelled') as cancelled`);

    // Every event about them: the address goes from the payload, wherever it appears (a link with a
    // merge tag in it included); the rest (campaign, link, device) keeps the campaign report whole.
    const scrubbed = (await run(sql`
      update events e set data = jsonb_set(
          replace(replace(e.data::text, x.email, ''), replace(x.email, '@', '%40'), '')::jsonb,
          '{email}', 'null'::jsonb, false)
      from contacts x
      where x.id = any(${ids}) and e.workspace_id = ${workspaceId}
        and e.data->>'contact_id' = x.id
      returning e.id`)) as unknown as { id: string }[];
    if (scrubbed.length > 0) {
      const eventIds = idArray(scrubbed.map((e) => e.id));
      await run(sql`
        update webhook_attempts set response_excerpt = null
        where delivery_id in (select id from webhook_deliveries where event_id = any(${eventIds}))`);
      await run(sql`delete from webhook_deliveries where event_id = any(${eventIds}) and status = 'pending'`);
    }

    await run(sql`delete from mail_messages where workspace_id = ${workspaceId} and to_address = any(${emails})`);
    // A bounce or complaint report quotes the mail: those about the address or one of its sends lose
    // their text; what they reported (a bounce, a complaint) stays in the campaign's figures.
    await run(sql`
      update provider_events p set raw = '', event = p.event - 'address' - 'reason'
      where (p.workspace_id = ${workspaceId} and p.event->'address'->>'email' = any(${emails}))
         or exists (select 1 from sends s where s.id = p.event->>'sendId' and s.contact_id = any(${ids}))`);
    await run(sql`delete from suppressions where workspace_id = ${workspaceId} and email = any(${emails})`);
    await run(sql`delete from suppression_lifts where workspace_id = ${workspaceId} and email = any(${emails})`);

    const subscriptionIds = sql`array(select id from subscriptions where ${inRange(sql`contact_id`)})::text[]`;
    await run(sql`
      update signup_form_submissions f
      set subscription_ids = array(select unnest(f.subscription_ids) except select unnest(${subscriptionIds}))
      where f.workspace_id = ${workspaceId} and f.subscription_ids && ${subscriptionIds}`);
    await run(sql`delete from opt_outs_on_behalf where workspace_id = ${workspaceId} and contact_id = any(${ids})`);
    // Their confirmation requests go with them (a foreign key that cascades).
    await run(sql`delete from subscriptions where ${inRange(sql`contact_id`)}`);
    await scrubImportFiles(
      tx,
      workspaceId,
      people.map((p) => p.email),
    );
    await run(sql`delete from contact_engagement where contact_id = any(${ids})`);
    // List memberships go with the contact (a foreign key that cascades); the report triggers recount.
    await run(sql`delete from contacts where id = any(${ids})`);

    const cancelledSends = (cancelled as unknown as { cancelled: boolean }[]).filter((row) => row.cancelled).length;
    // A send that never left the service is not counted against the plan.
    await refundSends(tx, workspaceId, cancelledSends);
    return { erased: people.length, cancelledSends };
  });
}
