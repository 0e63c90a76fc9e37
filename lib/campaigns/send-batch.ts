import { and, eq, inArray, sql } from "drizzle-orm";
import { systemActor } from "@/lib/actor";
import { withTransaction, type Ctx } from "@/lib/context";
import { brands, campaigns, contacts, sends, verifiedAddresses, workspaces } from "@/lib/db/schema";
import { listHeaders } from "@/lib/consent/list-headers";
import { emailEventBase } from "@/lib/events/email-event-base";
import { recordEvent } from "@/lib/events/record-event";
import type { OutgoingMessage } from "@/lib/mail/outgoing-message";
import type { MailTransport } from "@/lib/mail/transports/mail-transport";
import { refundSends } from "@/lib/billing/send-allowance";
import { suppressedAmong } from "@/lib/suppressions/suppressed";
import { renderCampaignMail } from "./render-campaign-mail";
import { sendsOfCampaign } from "./send-id-range";

export interface BatchResult {
  sent: number;
  failed: number;
  /** Where the next batch starts: the last send id this one took; null when nothing was left to take. */
  next: string | null;
  /**
   * When nothing was left to take: whether another run still holds some of the campaign's sends (a
   * batch in flight, or one whose run died, taken over once abandoned). The campaign is not done until
   * no run does.
   */
  heldElsewhere: boolean;
  /** Set when the campaign is no longer sending (paused, cancelled) or its brand is held for review: dispatch stops between batches. */
  stopped: string | null;
}

type Claimed = { id: string; contact_id: string; email: string };

/** Rows left in `sending` by a run that died for good are taken over after this long. */
const ABANDONED_AFTER_MS = 10 * 60_000;

/**
 * Sends the next batch of a campaign: the first sends after `after` in the
 * campaign's key range (see send-id-range.ts), or from its start when
 * `after` is null or nothing is left after it. Sends move queued → sending →
 * accepted in the database; a batch interrupted by a crash leaves rows in
 * `sending` marked with the claiming run, which takes them first when it
 * resumes (it starts from the same `after`) and sends them again with the
 * same send_id as idempotency key (local and Resend drop the duplicate; SMTP
 * has no such key, so at most one batch can repeat there). Another run racing
 * on the same campaign never takes them. A recipient missing a used merge
 * tag, not verified while the workspace is in review, or suppressed since
 * the snapshot becomes a `failed` send that is not counted.
 */
export async function sendNextBatch(ctx: Ctx, transport: MailTransport, campaignId: string, size: number, claimant: string, after: string | null): Promise<BatchResult> {
  const claim = await withTransaction(ctx, async (tx) => {
    const [campaign] = await tx.db.select().from(campaigns).where(eq(campaigns.id, campaignId));
    if (!campaign || campaign.status !== "sending") return { stopped: campaign?.status ?? "missing" } as const;
    // An identity edit holds the brand's sending until its review ends; approval starts dispatch again.
    const [held] = await tx.db.select({ at: brands.sendingHeldAt }).from(brands).where(eq(brands.id, campaign.brandId));
    if (held?.at) return { stopped: "brand_in_review" } as const;
    const now = tx.clock.now();
    const claimFrom = (from: string | null) =>
      tx.db.execute<Claimed>(sql`
        update ${sends} set state = 'sending', claimed_by = ${claimant}, updated_at = ${now.toISOString()}
        where id in (
          select id from ${sends}
          where ${sendsOfCampaign(campaign)} ${from ? sql`and ${sends.id} > ${from}` : sql``}
            and (state = 'queued'
                 or (state = 'sending' and (claimed_by = ${claimant} or updated_at < ${new Date(now.getTime() - ABANDONED_AFTER_MS).toISOString()})))
          order by id
          limit ${size}
          for update skip locked)
        returning id, contact_id, email`);
    let rows = [...(await claimFrom(after))];
    // Past the end: anything taken back since (a run abandoned its batch) lies before the cursor.
    if (rows.length === 0 && after !== null) rows = [...(await claimFrom(null))];
    if (rows.length > 0) return { campaign, rows, heldElsewhere: false };
    const [out] = await tx.db.execute<{ held: boolean }>(sql`
      select exists (select 1 from ${sends} where ${sendsOfCampaign(campaign)} and state in ('queued', 'sending')) as held`);
    return { campaign, rows, heldElsewhere: Boolean(out!.held) };
  });
  if ("stopped" in claim) return { sent: 0, failed: 0, next: null, heldElsewhere: false, stopped: claim.stopped ?? "missing" };
  const { campaign, rows, heldElsewhere } = claim;
  if (rows.length === 0) return { sent: 0, failed: 0, next: null, heldElsewhere, stopped: null };

  const [brand] = await ctx.db.select().from(brands).where(eq(brands.id, campaign.brandId));
  const [workspace] = await ctx.db.select().from(workspaces).where(eq(workspaces.id, campaign.workspaceId));
  const emails = rows.map((r) => r.email);
  const people = new Map(
    (await ctx.db.select().from(contacts).where(inArray(contacts.id, rows.map((r) => r.contact_id)))).map((c) => [c.id, c]),
  );
  const blocked = await suppressedAmong(ctx, campaign.workspaceId, emails);
  const verified = workspace!.approvedAt
    ? null
    : new Set((await ctx.db.select({ email: verifiedAddresses.email }).from(verifiedAddresses).where(and(eq(verifiedAddresses.workspaceId, campaign.workspaceId), inArray(verifiedAddresses.email, emails)))).map((v) => v.email));

  const failures: { id: string; reason: string; contactId: string; email: string }[] = [];
  const messages: OutgoingMessage[] = [];
  for (const row of rows) {
    const contact = people.get(row.contact_id)!;
    const fail = (reason: string) => failures.push({ id: row.id, reason, contactId: row.contact_id, email: row.email });
    if (blocked.has(row.email)) {
      fail("suppressed");
      continue;
    }
    if (verified && !verified.has(row.email)) {
      fail("recipient_not_verified");
      continue;
    }
    const mail = renderCampaignMail(campaign, brand!, contact, row.id, { tracked: true });
    if ("missing" in mail) {
      fail(`missing_merge_tag:${mail.missing}`);
      continue;
    }
    // Every campaign mail carries the one-click headers and the visible links: nothing is sent without them.
    const target = { contactId: contact.id, topicId: campaign.topicId, campaignId: campaign.id, sendId: row.id };
    messages.push({
      workspaceId: campaign.workspaceId,
      idempotencyKey: row.id,
      from: { name: brand!.name, address: brand!.senderEmail },
      replyTo: brand!.replyTo ?? undefined,
      to: row.email,
      subject: mail.subject,
      html: mail.html,
      text: mail.text,
      headers: listHeaders(target, brand!),
    });
  }

  const now = ctx.clock.now();
  if (failures.length > 0) {
    await withTransaction(ctx, async (tx) => {
      await tx.db.execute(sql`
        update ${sends} set state = 'failed', failure_reason = v.reason, updated_at = ${now.toISOString()}
        from json_to_recordset(${JSON.stringify(failures)}::json) as v(id text, reason text)
        where ${sends}.id = v.id`);
      // A send that never left the service is not counted against the plan.
      await refundSends(tx, campaign.workspaceId, failures.length);
      for (const failure of failures) {
        const send = { id: failure.id, campaignId: campaign.id, contactId: failure.contactId, email: failure.email };
        await recordEvent(tx, systemActor("workflow:dispatch-campaign", campaign.workspaceId), "email.failed", { ...emailEventBase(send, campaign.name, now), reason: failure.reason }, now);
      }
    });
  }
  if (messages.length > 0) {
    const sent = await transport.sendBatch(ctx, messages);
    const accepted = messages.map((message, i) => ({ id: message.idempotencyKey, pid: sent[i]!.providerMessageId }));
    await ctx.db.execute(sql`
      update ${sends} set state = 'accepted', provider_message_id = v.pid, accepted_at = ${now.toISOString()}, updated_at = ${now.toISOString()}
      from json_to_recordset(${JSON.stringify(accepted)}::json) as v(id text, pid text)
      where ${sends}.id = v.id and ${sends}.state = 'sending'`);
  }
  const last = rows.reduce((max, row) => (row.id > max ? row.id : max), rows[0]!.id);
  return { sent: messages.length, failed: failures.length, next: last, heldElsewhere: false, stopped: null };
}
