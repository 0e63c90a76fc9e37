import type { SQL } from "drizzle-orm";

import type { Ctx } from "@/lib/context";

import type { OutgoingMessage, SentMessage } from "../outgoing-message";

/**
 * sendAndRecord for a transport that hands over outside PostgreSQL (SMTP, Resend): the record is
 * written once the hand-over is made, so a failed hand-over leaves none.
 */
export function recordAfterSend(send: (ctx: Ctx, message: OutgoingMessage) => Promise<SentMessage>) {
  return async (ctx: Ctx, message: OutgoingMessage, record: SQL): Promise<SentMessage> => {
    const sent = await send(ctx, message);
    await ctx.db.execute(record);
    return sent;
  };
}
