import "server-only";

import { eq, sql, type SQL } from "drizzle-orm";

import type { Ctx } from "@/lib/context";
import { cachedPlansDb } from "@/lib/db/client";
import { mailMessages } from "@/lib/db/schema";
import { newId } from "@/lib/ids";

import { buildMessage } from "../build-message";
import type { OutgoingMessage, SentMessage } from "../outgoing-message";
import type { MailTransport } from "./mail-transport";

/**
 * The embedded default: the complete message is stored in PostgreSQL, to be
 * read in the local mailbox. A retry with the same idempotency key stores
 * nothing new and answers the first copy's id. Storing is the hand-over, so
 * a sender's record of it goes in the same statement (sendAndRecord).
 */
export function localTransport(): MailTransport {
  async function store(ctx: Ctx, message: OutgoingMessage, record: SQL | null): Promise<SentMessage> {
    const built = buildMessage(message, ctx.clock);
    const insert = sql`
      insert into ${mailMessages} (id, workspace_id, service_mail, idempotency_key, to_address, from_address, subject, message_id, raw, created_at)
      values (${newId("msg")}, ${message.workspaceId}, ${message.serviceMail ?? null}, ${message.idempotencyKey}, ${message.to},
        ${message.from.address}, ${message.subject}, ${built.messageId}, ${built.raw.toString("utf8")}, ${ctx.clock.now().toISOString()}::timestamptz)
      on conflict do nothing
      returning id`;
    // A one-off mail with its record reaches each row by its key: planned once per connection
    // (cachedPlansDb). A campaign's batch, many sends at once, stays on the main pool.
    const [stored] = (record
      ? await cachedPlansDb(ctx.db).execute(
          sql`with stored as (${insert}), recorded as (${record}) select id from stored`,
        )
      : await ctx.db.execute(insert)) as unknown as { id: string }[];
    if (stored) return { providerMessageId: stored.id };
    const [first] = await ctx.db
      .select({ id: mailMessages.id })
      .from(mailMessages)
      .where(eq(mailMessages.idempotencyKey, message.idempotencyKey));
    return { providerMessageId: first!.id };
  }
  const send = (ctx: Ctx, message: OutgoingMessage) => store(ctx, message, null);
  return {
    name: "local",
    dropsRepeats: true,
    send,
    sendAndRecord: store,
    sendBatch: async (ctx, messages) => Promise.all(messages.map((message) => send(ctx, message))),
    close: async () => {},
  };
}
