import "server-only";

import { eq } from "drizzle-orm";

import type { Ctx } from "@/lib/context";
import { mailMessages } from "@/lib/db/schema";
import { newId } from "@/lib/ids";

import { buildMessage } from "../build-message";
import type { OutgoingMessage, SentMessage } from "../outgoing-message";
import type { MailTransport } from "./mail-transport";

/**
 * The embedded default: the complete message is stored in PostgreSQL, to be
 * read in the local mailbox. A retry with the same idempotency key stores
 * nothing new and answers the first copy's id.
 */
export function localTransport(): MailTransport {
  async function send(ctx: Ctx, message: OutgoingMessage): Promise<SentMessage> {
    const built = buildMessage(message, ctx.clock);
    const [stored] = await ctx.db
      .insert(mailMessages)
      .values({
        id: newId("msg"),
        workspaceId: message.workspaceId,
        serviceMail: message.serviceMail ?? null,
        idempotencyKey: message.idempotencyKey,
        toAddress: message.to,
        fromAddress: message.from.address,
        subject: message.subject,
        messageId: built.messageId,
        raw: built.raw.toString("utf8"),
        createdAt: ctx.clock.now(),
      })
      .onConflictDoNothing()
      .returning({ id: mailMessages.id });
    if (stored) return { providerMessageId: stored.id };
    const [first] = await ctx.db
      .select({ id: mailMessages.id })
      .from(mailMessages)
      .where(eq(mailMessages.idempotencyKey, message.idempotencyKey));
    return { providerMessageId: first!.id };
  }
  return {
    name: "local",
    dropsRepeats: true,
    send,
    sendBatch: async (ctx, messages) => Promise.all(messages.map((message) => send(ctx, message))),
    close: async () => {},
  };
}
