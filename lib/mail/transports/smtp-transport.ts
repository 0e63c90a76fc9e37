import nodemailer from "nodemailer";
import type SMTPPool from "nodemailer/lib/smtp-pool";

import type { Ctx } from "@/lib/context";
import { returnPathFor } from "@/lib/deliverability/return-path";

import { composeMessage } from "../build-message";
import type { DkimKey, OutgoingMessage, SentMessage } from "../outgoing-message";
import { refusalOf } from "../refusal";
import type { MailTransport } from "./mail-transport";

export interface SmtpOptions {
  /** e.g. smtp://user:pass@smtp.example.com:587 or smtps://…:465 */
  url: string;
  /** Simultaneous connections kept open. */
  maxConnections?: number;
  dkim?: DkimKey;
  /** With it, each message's envelope sender is its own signed bounce address at this domain (VERP). */
  bounceDomain?: string;
}

/**
 * SMTP through nodemailer with pooled connections. Each message is composed
 * by composeMessage (the same bytes as the local mailbox) and handed to the
 * pool as it is, which DKIM-signs it when a key is configured; the signature
 * covers the List- headers and Feedback-ID. SMTP has no idempotency key: the stable
 * Message-ID is what lets a receiver recognise a resent copy.
 */
export function smtpTransport(options: SmtpOptions): MailTransport {
  const transporter = smtpPool(options);

  async function send(ctx: Ctx, message: OutgoingMessage): Promise<SentMessage> {
    const { raw, messageId } = composeMessage(message, ctx.clock.now());
    const envelope = {
      from: options.bounceDomain ? returnPathFor(message.idempotencyKey, options.bounceDomain) : message.from.address,
      to: message.to,
    };
    // The sender's own domain key, when it has a ready domain, else the transport's DKIM_* key.
    await transporter.sendMail({ envelope, raw, ...(message.dkim ? { dkim: dkimOptions(message.dkim) } : {}) });
    return { providerMessageId: messageId };
  }
  return {
    name: "smtp",
    send,
    // One recipient's refusal (a 421 from one provider) is that message's outcome, not the batch's.
    sendBatch: async (ctx, messages) =>
      Promise.all(
        messages.map((message) =>
          send(ctx, message).catch((error: unknown) => {
            const refusal = refusalOf(error);
            if (!refusal) throw error;
            return refusal;
          }),
        ),
      ),
    close: async () => transporter.close(),
  };
}

/**
 * The pooled nodemailer connections the transport sends through (the dispatch benchmark's floor
 * sends through the same pool, without the rest of the transport).
 */
export function smtpPool(options: Pick<SmtpOptions, "url" | "maxConnections" | "dkim">) {
  const connection = connectionOptions(options.url);
  const pool: SMTPPool.Options = {
    ...connection,
    pool: true,
    maxConnections: options.maxConnections ?? 5,
    // Reconnecting every 100 messages (the default) costs a handshake per 100 mails on big campaigns.
    maxMessages: 1000,
    // A message whose connection closed under it is queued again (five times by default): a server
    // that accepts connections and closes them before greeting (a proxy whose backend is down) would
    // hold a batch back. Twice more, then it fails and the batch is retried later.
    maxRequeues: 2,
    ...(options.dkim ? { dkim: dkimOptions(options.dkim) } : {}),
  };
  return nodemailer.createTransport(pool);
}

/**
 * The signature covers the List- headers (mailbox providers check that one-click unsubscribe was
 * signed) and Feedback-ID (Gmail counts complaints by it only when it is signed).
 */
function dkimOptions(key: DkimKey) {
  return {
    ...key,
    headerFieldNames:
      "from:sender:reply-to:subject:date:message-id:to:cc:mime-version:content-type:content-transfer-encoding:list-unsubscribe:list-unsubscribe-post:list-id:feedback-id",
  };
}

/**
 * nodemailer given `{ url }` replaces every other option with the parsed URL
 * (pooling and DKIM would silently be lost), so the URL is turned into
 * explicit options here.
 */
function connectionOptions(url: string) {
  const parsed = new URL(url);
  if (parsed.protocol !== "smtp:" && parsed.protocol !== "smtps:")
    throw new Error("SMTP_URL must start with smtp:// or smtps://");
  const secure = parsed.protocol === "smtps:";
  return {
    host: parsed.hostname,
    port: Number(parsed.port || (secure ? 465 : 587)),
    secure,
    ...(parsed.username
      ? { auth: { user: decodeURIComponent(parsed.username), pass: decodeURIComponent(parsed.password) } }
      : {}),
  };
}
