import "server-only";

import { and, eq, isNull, lt, or } from "drizzle-orm";

import type { Ctx } from "@/lib/context";
import { cachedPlansDb } from "@/lib/db/client";
import { brands, confirmationRequests, subscriptions, topics } from "@/lib/db/schema";
import { domainSigningKey } from "@/lib/domains/domain-signing-key";
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
  const [row] = await db
    .select({
      request: confirmationRequests,
      topic: topics,
      brand: brands,
      subscriptionId: subscriptions.id,
      sentAt: subscriptions.confirmationSentAt,
    })
    .from(confirmationRequests)
    .innerJoin(subscriptions, eq(subscriptions.id, confirmationRequests.subscriptionId))
    .innerJoin(topics, eq(topics.id, subscriptions.topicId))
    .innerJoin(brands, eq(brands.id, topics.brandId))
    .where(eq(confirmationRequests.id, requestId));
  if (!row?.request.mailedAt) throw new Error(`confirmation ${requestId} was not cleared for sending`);
  if (row.sentAt && row.sentAt.getTime() >= row.request.mailedAt.getTime()) return;
  const { subject, text, html } = renderConfirmationMail({
    brand: row.brand,
    topic: row.topic,
    confirmUrl: confirmationUrl(requestId),
  });
  // Signed with the brand's ready domain, as its campaigns are: DMARC alignment for the first mail a person gets.
  const dkim = await domainSigningKey(ctx, row.brand);
  await transport.send(ctx, {
    workspaceId: row.request.workspaceId,
    idempotencyKey: requestId,
    from: { name: row.brand.name, address: row.brand.senderEmail },
    replyTo: row.brand.replyTo ?? undefined,
    to: row.request.email,
    subject,
    text,
    html,
    headers: {
      "Feedback-ID": feedbackId({
        stream: "confirmation",
        brandId: row.brand.id,
        workspaceId: row.request.workspaceId,
      }),
    },
    ...(dkim ? { dkim } : {}),
  });
  // Never back in time: an older request's step finishing late must not hide a newer mail.
  await db
    .update(subscriptions)
    .set({ confirmationSentAt: row.request.mailedAt, updatedAt: ctx.clock.now() })
    .where(
      and(
        eq(subscriptions.id, row.subscriptionId),
        or(isNull(subscriptions.confirmationSentAt), lt(subscriptions.confirmationSentAt, row.request.mailedAt)),
      ),
    );
}
