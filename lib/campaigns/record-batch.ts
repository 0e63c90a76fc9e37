import "server-only";

import { sql } from "drizzle-orm";

import { systemActor } from "@/lib/actor";
import { refundSends } from "@/lib/billing/send-allowance";
import { withTransaction, type Ctx } from "@/lib/context";
import { sends } from "@/lib/db/schema";
import { emailEventBase } from "@/lib/events/email-event-base";
import { recordEvents } from "@/lib/events/record-event";
import type { OutgoingMessage } from "@/lib/mail/outgoing-message";
import type { Refusal } from "@/lib/mail/refusal";
import type { MailTransport } from "@/lib/mail/transports/mail-transport";

import type { BatchFailure } from "./build-batch";
import type { Campaign } from "./claim-batch";

/** Step three, for sends that cannot leave: failed with the reason, refunded, and announced by email.failed. */
export async function recordFailures(ctx: Ctx, campaign: Campaign, failures: BatchFailure[]): Promise<void> {
  if (failures.length === 0) return;
  const now = ctx.clock.now();
  await withTransaction(ctx, async (tx) => {
    await tx.db.execute(sql`
      update ${sends} set state = 'failed', failure_reason = v.reason, updated_at = ${now.toISOString()}
      from json_to_recordset(${JSON.stringify(failures)}::json) as v(id text, reason text)
      where ${sends}.id = v.id`);
    // A send that never left the service is not counted against the plan.
    await refundSends(tx, campaign.workspaceId, failures.length);
    await announceFailures(tx, campaign, failures);
  });
}

/**
 * Sends whose contact was erased after the batch claimed them: cancelled as the erasure cancels
 * queued ones (lib/contacts/erase-contacts.ts), refunded, and announced to nobody.
 */
export async function cancelErasedSends(ctx: Ctx, campaign: Campaign, sendIds: string[]): Promise<void> {
  if (sendIds.length === 0) return;
  await withTransaction(ctx, async (tx) => {
    const cancelled = await tx.db.execute(sql`
      update ${sends} set state = 'cancelled', failure_reason = 'erased', email = '', updated_at = ${tx.clock.now().toISOString()}
      where id = any(${sendIds}::text[]) and state = 'sending'`);
    await refundSends(tx, campaign.workspaceId, cancelled.count);
  });
}

/** email.failed for each send that cannot leave, in one statement however many there are. */
export async function announceFailures(ctx: Ctx, campaign: Campaign, failures: BatchFailure[]): Promise<void> {
  const now = ctx.clock.now();
  await recordEvents(
    ctx,
    systemActor("workflow:dispatch-campaign", campaign.workspaceId),
    "email.failed",
    failures.map((failure) => {
      const send = { id: failure.id, campaignId: campaign.id, contactId: failure.contactId, email: failure.email };
      return { data: { ...emailEventBase(send, campaign.name, now), reason: failure.reason }, occurredAt: now };
    }),
  );
}

/**
 * Step three, for the messages: handed to the transport with each send id as
 * idempotency key (local and Resend drop a repeat; SMTP has no such key, so
 * at most one batch can repeat there), then the sends are accepted. Those the
 * receiving server refused are returned with its answer, still `sending`.
 */
export async function sendAndRecord(
  ctx: Ctx,
  transport: MailTransport,
  messages: OutgoingMessage[],
): Promise<{ id: string; refused: Refusal["refused"] }[]> {
  if (messages.length === 0) return [];
  const now = ctx.clock.now();
  const outcomes = await transport.sendBatch(ctx, messages);
  const accepted: { id: string; pid: string }[] = [];
  const refused: { id: string; refused: Refusal["refused"] }[] = [];
  messages.forEach((message, i) => {
    const outcome = outcomes[i]!;
    if ("refused" in outcome) refused.push({ id: message.idempotencyKey, refused: outcome.refused });
    else accepted.push({ id: message.idempotencyKey, pid: outcome.providerMessageId });
  });
  // Each accepted send is one more campaign that reached its contact since their last human open or
  // click (contact_engagement, read by the sunset of inactive contacts). Only sends this statement moved
  // from `sending` are counted, so a batch sent again after a crash counts once; rows are taken in
  // contact order so that two campaigns' batches lock shared contacts in the same order.
  if (accepted.length > 0)
    await ctx.db.execute(sql`
      with accepted as (
        update ${sends} set state = 'accepted', provider_message_id = v.pid, failure_reason = null, accepted_at = ${now.toISOString()}, updated_at = ${now.toISOString()}
        from json_to_recordset(${JSON.stringify(accepted)}::json) as v(id text, pid text)
        where ${sends}.id = v.id and ${sends}.state = 'sending'
        returning ${sends.contactId} as contact_id, ${sends.workspaceId} as workspace_id)
      insert into contact_engagement (contact_id, workspace_id, campaigns_since_engaged, unengaged_since)
      select contact_id, workspace_id, 1, ${now.toISOString()}::timestamptz from accepted order by contact_id
      on conflict (contact_id) do update set
        campaigns_since_engaged = contact_engagement.campaigns_since_engaged + 1,
        unengaged_since = coalesce(contact_engagement.unengaged_since, excluded.unengaged_since)`);
  return refused;
}
