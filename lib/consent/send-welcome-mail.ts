import "server-only";

import { and, eq, isNull } from "drizzle-orm";

import type { Ctx } from "@/lib/context";
import { brands, contacts, subscriptions, topics } from "@/lib/db/schema";
import { domainSigningKey } from "@/lib/domains/domain-signing-key";
import { escapeHtml } from "@/lib/mail/escape-html";
import { feedbackId } from "@/lib/mail/feedback-id";
import type { MailTransport } from "@/lib/mail/transports/mail-transport";

import { consentFooter } from "./consent-footer";
import { listHeaders } from "./list-headers";

/**
 * After a double opt-in is confirmed: a short "you're subscribed" mail from
 * the brand, carrying the unsubscribe headers and links like every topic
 * mail. Sent once per subscription, recorded on it (with the hand-over, where
 * that is a row of the local mailbox): a retried step finds the record and
 * sends nothing (over SMTP nothing else would drop the repeat), and one that
 * failed between the hand-over and the record is dropped by the transports
 * that can (the idempotency key); nothing either if it is no longer subscribed.
 */
export async function sendWelcomeMail(
  ctx: Ctx,
  transport: MailTransport,
  subscriptionId: string,
): Promise<{ sent: boolean }> {
  const [row] = await ctx.db
    .select({ subscription: subscriptions, contact: contacts, topic: topics, brand: brands })
    .from(subscriptions)
    .innerJoin(contacts, eq(contacts.id, subscriptions.contactId))
    .innerJoin(topics, eq(topics.id, subscriptions.topicId))
    .innerJoin(brands, eq(brands.id, topics.brandId))
    .where(eq(subscriptions.id, subscriptionId));
  if (!row || row.subscription.state !== "subscribed" || row.contact.optedOutAt || row.subscription.welcomeSentAt)
    return { sent: false };
  const target = { contactId: row.contact.id, topicId: row.topic.id };
  const footer = consentFooter(target, row.brand);
  const subject = `You're subscribed to ${row.topic.name}`;
  const dkim = await domainSigningKey(ctx, row.brand);
  const record = ctx.db
    .update(subscriptions)
    .set({ welcomeSentAt: ctx.clock.now(), updatedAt: ctx.clock.now() })
    .where(and(eq(subscriptions.id, subscriptionId), isNull(subscriptions.welcomeSentAt)))
    .getSQL();
  await transport.sendAndRecord(
    ctx,
    {
      workspaceId: row.subscription.workspaceId,
      idempotencyKey: `welcome-${subscriptionId}`,
      from: { name: row.brand.name, address: row.brand.senderEmail },
      replyTo: row.brand.replyTo ?? undefined,
      to: row.contact.email,
      subject,
      text: `Thanks for confirming. You will receive ${row.topic.name} from ${row.brand.name}.\n${footer.text}`,
      html: `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1d2330;line-height:1.5">
<p>Thanks for confirming. You will receive <strong>${escapeHtml(row.topic.name)}</strong> from ${escapeHtml(row.brand.name)}.</p>${footer.html}</body></html>`,
      headers: {
        ...listHeaders(target, row.brand),
        "Feedback-ID": feedbackId({
          stream: "welcome",
          brandId: row.brand.id,
          workspaceId: row.subscription.workspaceId,
        }),
      },
      ...(dkim ? { dkim } : {}),
    },
    record,
  );
  return { sent: true };
}
