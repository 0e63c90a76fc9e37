import { createHash } from "node:crypto";
import { Resend, type CreateEmailOptions } from "resend";

import type { Ctx } from "@/lib/context";

import { messageIdFor, singleLine } from "../build-message";
import type { OutgoingMessage, SentMessage } from "../outgoing-message";
import type { MailTransport } from "./mail-transport";
import { recordAfterSend } from "./record-after-send";

// Resend's batch endpoint takes at most 100 messages a call.
const BATCH_SIZE = 100;

function toPayload(message: OutgoingMessage): CreateEmailOptions {
  const name = singleLine(message.from.name).replace(/["\\]/g, "");
  return {
    from: `"${name}" <${message.from.address}>`,
    to: [message.to],
    subject: singleLine(message.subject),
    html: message.html,
    text: message.text,
    ...(message.replyTo ? { replyTo: message.replyTo } : {}),
    headers: { ...message.headers, "Message-ID": messageIdFor(message) },
  };
}

/**
 * The Resend API through its SDK (RESEND_BASE_URL points it elsewhere, as the
 * tests do). Every call carries an Idempotency-Key derived from our
 * idempotency keys, so a retried step cannot mail twice.
 */
export function resendTransport(apiKey: string): MailTransport {
  const resend = new Resend(apiKey);

  async function send(_ctx: Ctx, message: OutgoingMessage): Promise<SentMessage> {
    const { data, error } = await resend.emails.send(toPayload(message), { idempotencyKey: message.idempotencyKey });
    if (error || !data) throw new Error(`Resend refused the message: ${error?.message ?? "no response"}`);
    return { providerMessageId: data.id };
  }

  async function sendBatch(_ctx: Ctx, messages: OutgoingMessage[]): Promise<SentMessage[]> {
    const sent: SentMessage[] = [];
    for (let start = 0; start < messages.length; start += BATCH_SIZE) {
      const batch = messages.slice(start, start + BATCH_SIZE);
      const idempotencyKey = createHash("sha256")
        .update(batch.map((m) => m.idempotencyKey).join("\n"))
        .digest("hex");
      const { data, error } = await resend.batch.send(batch.map(toPayload), { idempotencyKey });
      if (error || !data) throw new Error(`Resend refused the batch: ${error?.message ?? "no response"}`);
      sent.push(...data.data.map((item) => ({ providerMessageId: item.id })));
    }
    return sent;
  }

  return {
    name: "resend",
    dropsRepeats: true,
    send,
    sendAndRecord: recordAfterSend(send),
    sendBatch,
    close: async () => {},
  };
}
