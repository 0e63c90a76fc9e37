import "server-only";

import { sql, type SQL } from "drizzle-orm";

import type { Ctx } from "@/lib/context";
import { brands, confirmationRequests, sendingDomains, subscriptions, topics } from "@/lib/db/schema";
import { signingKeyOf } from "@/lib/domains/domain-signing-key";
import { feedbackId } from "@/lib/mail/feedback-id";
import type { MailTransport } from "@/lib/mail/transports/mail-transport";

import { renderConfirmationMail } from "./confirmation-mail";
import { decideConfirmationThenRead, type ConfirmationDecision } from "./decide-confirmation";
import { confirmationUrl } from "./links";

/**
 * The confirmation workflow's one step: decides whether a requested confirmation is mailed
 * (decideConfirmation) and, if so, mails it from the topic's brand and records it on the
 * subscription (with the hand-over, in one statement, where that is the local mailbox's row:
 * sendAndRecord). The mail's read goes with the decision, in its transaction and round trip. A step
 * run again decides the same (the recorded answer) but does not mail again once the subscription's
 * record shows this request's mail or a newer one (a step can fail after the record, before its own
 * result is saved; a newer request's link serves as well), nor, where the transport can prevent it,
 * if it failed between the hand-over and the record: the request id is the idempotency key.
 */
export async function decideAndSendConfirmation(
  ctx: Ctx,
  transport: MailTransport,
  requestId: string,
): Promise<ConfirmationDecision> {
  const [decision, read] = await decideConfirmationThenRead(ctx, requestId, [confirmationMailSql(requestId)]);
  if (decision.send) await mailConfirmation(ctx, transport, requestId, read?.[0] as ConfirmationMail | undefined);
  return decision;
}

/** What the mail is made of, as confirmationMailSql reads it (raw rows: the decision's instant as text). */
interface ConfirmationMail {
  workspace_id: string;
  email: string;
  /** The decision's record; null while no decision let the mail through. */
  mailed_at: string | null;
  /** Whether the subscription records this request's mail, or a newer one, as sent. */
  sent: boolean;
  topic: { name: string; description: string };
  brand: {
    id: string;
    name: string;
    legalName: string;
    postalAddress: string;
    websiteUrl: string;
    senderEmail: string;
    replyTo: string | null;
  };
  /** The brand's sending domain, what signing needs of it; null when it has none. */
  domain: Pick<typeof sendingDomains.$inferSelect, "state" | "hostname" | "dkimSelector" | "dkimPrivateKey"> | null;
}

/** Only what the mail needs, the brand's domain with it (its key signs the mail): one statement. */
function confirmationMailSql(requestId: string): SQL {
  return sql`
    select r.workspace_id, r.email, r.mailed_at, coalesce(s.confirmation_sent_at >= r.mailed_at, false) as sent,
      json_build_object('name', t.name, 'description', t.description) as topic,
      json_build_object('id', b.id, 'name', b.name, 'legalName', b.legal_name, 'postalAddress', b.postal_address,
        'websiteUrl', b.website_url, 'senderEmail', b.sender_email, 'replyTo', b.reply_to) as brand,
      case when d.id is not null then json_build_object('state', d.state, 'hostname', d.hostname,
        'dkimSelector', d.dkim_selector, 'dkimPrivateKey', d.dkim_private_key) end as domain
    from ${confirmationRequests} r
    join ${subscriptions} s on s.id = r.subscription_id
    join ${topics} t on t.id = s.topic_id
    join ${brands} b on b.id = t.brand_id
    left join ${sendingDomains} d on d.id = b.domain_id
    where r.id = ${requestId}`;
}

async function mailConfirmation(
  ctx: Ctx,
  transport: MailTransport,
  requestId: string,
  mail: ConfirmationMail | undefined,
): Promise<void> {
  if (!mail?.mailed_at) throw new Error(`confirmation ${requestId} was not cleared for sending`);
  if (mail.sent) return;
  const { subject, text, html } = renderConfirmationMail({
    brand: mail.brand,
    topic: mail.topic,
    confirmUrl: confirmationUrl(requestId),
  });
  // Signed with the brand's ready domain, as its campaigns are: DMARC alignment for the first mail a person gets.
  const dkim = signingKeyOf(mail.domain, mail.brand);
  // Recorded on the subscription, never back in time: an older request's step finishing late must not hide a newer mail.
  const record = sql`
    update ${subscriptions} s set confirmation_sent_at = r.mailed_at, updated_at = ${ctx.clock.now().toISOString()}::timestamptz
    from ${confirmationRequests} r
    where r.id = ${requestId} and s.id = r.subscription_id
      and (s.confirmation_sent_at is null or s.confirmation_sent_at < r.mailed_at)`;
  await transport.sendAndRecord(
    ctx,
    {
      workspaceId: mail.workspace_id,
      idempotencyKey: requestId,
      from: { name: mail.brand.name, address: mail.brand.senderEmail },
      replyTo: mail.brand.replyTo ?? undefined,
      to: mail.email,
      subject,
      text,
      html,
      headers: {
        "Feedback-ID": feedbackId({
          stream: "confirmation",
          brandId: mail.brand.id,
          workspaceId: mail.workspace_id,
        }),
      },
      ...(dkim ? { dkim } : {}),
    },
    record,
  );
}
