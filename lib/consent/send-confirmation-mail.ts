import "server-only";

import { and, eq, isNull, lt, or } from "drizzle-orm";

import type { Ctx } from "@/lib/context";
import { cachedPlansDb } from "@/lib/db/client";
import { brands, confirmationRequests, sendingDomains, subscriptions, topics } from "@/lib/db/schema";
import { signingKeyOf } from "@/lib/domains/domain-signing-key";
import { feedbackId } from "@/lib/mail/feedback-id";
import type { MailTransport } from "@/lib/mail/transports/mail-transport";

import { renderConfirmationMail } from "./confirmation-mail";
import { confirmationUrl } from "./links";

/**
 * Mails a confirmation that decideConfirmation let through, from the topic's
 * brand, and records it on the subscription. A retried step does not mail
 * again once that record shows this request's mail or a newer one (a step can
 * fail after the record, before its own result is saved; a newer request's
 * link serves as well), nor, where the transport can prevent it, if it failed
 * between the hand-over and the record: the request id is the idempotency key.
 */
export async function sendConfirmationMail(ctx: Ctx, transport: MailTransport, requestId: string): Promise<void> {
  // Reached by their keys: planned once per connection (cachedPlansDb).
  const db = cachedPlansDb(ctx.db);
  // Only what the mail needs, the brand's domain with it (its key signs the mail): one statement.
  const [row] = await db
    .select({
      workspaceId: confirmationRequests.workspaceId,
      email: confirmationRequests.email,
      mailedAt: confirmationRequests.mailedAt,
      subscriptionId: subscriptions.id,
      sentAt: subscriptions.confirmationSentAt,
      topic: { name: topics.name, description: topics.description },
      brand: {
        id: brands.id,
        name: brands.name,
        legalName: brands.legalName,
        postalAddress: brands.postalAddress,
        websiteUrl: brands.websiteUrl,
        senderEmail: brands.senderEmail,
        replyTo: brands.replyTo,
      },
      domain: sendingDomains,
    })
    .from(confirmationRequests)
    .innerJoin(subscriptions, eq(subscriptions.id, confirmationRequests.subscriptionId))
    .innerJoin(topics, eq(topics.id, subscriptions.topicId))
    .innerJoin(brands, eq(brands.id, topics.brandId))
    .leftJoin(sendingDomains, eq(sendingDomains.id, brands.domainId))
    .where(eq(confirmationRequests.id, requestId));
  if (!row?.mailedAt) throw new Error(`confirmation ${requestId} was not cleared for sending`);
  if (row.sentAt && row.sentAt.getTime() >= row.mailedAt.getTime()) return;
  const { subject, text, html } = renderConfirmationMail({
    brand: row.brand,
    topic: row.topic,
    confirmUrl: confirmationUrl(requestId),
  });
  // Signed with the brand's ready domain, as its campaigns are: DMARC alignment for the first mail a person gets.
  const dkim = signingKeyOf(row.domain, row.brand);
  await transport.send(ctx, {
    workspaceId: row.workspaceId,
    idempotencyKey: requestId,
    from: { name: row.brand.name, address: row.brand.senderEmail },
    replyTo: row.brand.replyTo ?? undefined,
    to: row.email,
    subject,
    text,
    html,
    headers: {
      "Feedback-ID": feedbackId({
        stream: "confirmation",
        brandId: row.brand.id,
        workspaceId: row.workspaceId,
      }),
    },
    ...(dkim ? { dkim } : {}),
  });
  // Never back in time: an older request's step finishing late must not hide a newer mail.
  await db
    .update(subscriptions)
    .set({ confirmationSentAt: row.mailedAt, updatedAt: ctx.clock.now() })
    .where(
      and(
        eq(subscriptions.id, row.subscriptionId),
        or(isNull(subscriptions.confirmationSentAt), lt(subscriptions.confirmationSentAt, row.mailedAt)),
      ),
    );
}
