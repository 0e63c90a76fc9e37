import nodemailer from "nodemailer";
import type SMTPPool from "nodemailer/lib/smtp-pool";

import type { Ctx } from "@/lib/context";
import { returnPathFor } from "@/lib/deliverability/return-path";

import { composeMessage } from "../build-message";
import type { DkimKey, OutgoingMessage, SentMessage } from "../outgoing-message";
import { refusalOf, type Refusal } from "../refusal";
import type { MailTransport } from "./mail-transport";
import { recordAfterSend } from "./record-after-send";

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
    dropsRepeats: false,
    send,
    sendAndRecord: recordAfterSend(send),
    // Enough in flight to keep every pooled connection busy.
    sendBatch: (ctx, messages) =>
      sendEach(messages, (message) => send(ctx, message), (options.maxConnections ?? 5) * 4),
    close: async () => transporter.close(),
  };
}

/** Passes over the messages whose connection was lost under them, while others in the batch get answers. */
const LOST_MESSAGE_PASSES = 3;

/**
 * Each message's outcome: sent, or the server's refusal of it (a 421 to one provider's recipients is
 * theirs, not the batch's). Messages go out `inFlight` at a time; once a domain's server refuses one
 * for now, the domain's messages not yet handed over get the same answer without being tried, so a
 * provider that throttles (and closes the connection with each 421) costs the batch one refusal, not
 * one reconnection per recipient. A message whose connection was lost under it is sent again in a
 * further pass, and after the last pass reported as a temporary refusal without an answer (code 0).
 * Only when no message got any answer (the server is unreachable) does the batch fail as a whole, to
 * be retried: resending it then duplicates nothing that was sent.
 */
export async function sendEach(
  messages: OutgoingMessage[],
  sendOne: (message: OutgoingMessage) => Promise<SentMessage>,
  inFlight: number,
): Promise<(SentMessage | Refusal)[]> {
  const outcomes: (SentMessage | Refusal)[] = new Array(messages.length);
  const refusedDomains = new Map<string, Refusal["refused"]>();
  const domainOf = (i: number) => messages[i]!.to.slice(messages[i]!.to.lastIndexOf("@") + 1).toLowerCase();
  let pending = messages.map((_, i) => i);
  let answered = false;
  for (let pass = 1; ; pass++) {
    const lost: { i: number; error: unknown }[] = [];
    let next = 0;
    const worker = async () => {
      while (next < pending.length) {
        const i = pending[next++]!;
        const refused = refusedDomains.get(domainOf(i));
        if (refused) {
          outcomes[i] = {
            refused: { ...refused, response: `not tried, its domain refused another: ${refused.response}` },
          };
          continue;
        }
        try {
          outcomes[i] = await sendOne(messages[i]!);
          answered = true;
        } catch (error) {
          const refusal = refusalOf(error);
          if (!refusal) lost.push({ i, error });
          else {
            outcomes[i] = refusal;
            answered = true;
            if (refusal.refused.temporary) refusedDomains.set(domainOf(i), refusal.refused);
          }
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(inFlight, pending.length) }, worker));
    if (lost.length === 0) return outcomes;
    if (!answered) throw lost[0]!.error;
    if (pass === LOST_MESSAGE_PASSES) {
      for (const { i, error } of lost)
        outcomes[i] = { refused: { code: 0, response: `no answer: ${(error as Error).message}`, temporary: true } };
      return outcomes;
    }
    pending = lost.map(({ i }) => i).sort((a, b) => a - b);
  }
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
