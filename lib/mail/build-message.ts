import { randomUUID } from "node:crypto";
import { foldLines, hasLongerLines, isPlainText } from "nodemailer/lib/mime-funcs";
import MimeNode from "nodemailer/lib/mime-node";
import { encode as quotedPrintable, wrap as wrapQuotedPrintable } from "nodemailer/lib/qp";

import type { Clock } from "@/lib/clock";

import { signedMessageId } from "./message-id";
import type { OutgoingMessage } from "./outgoing-message";

export interface BuiltMessage {
  raw: Buffer;
  messageId: string;
  envelope: { from: string; to: string };
}

/** Header values never carry CR or LF: a merge value must not be able to add a header. */
export function singleLine(value: string): string {
  return value.replace(/[\r\n]+/g, " ").trim();
}

/** `<idempotency key.signature @ sender's domain>` (./message-id): stable, and a report quoting it cannot name another message. */
export function messageIdFor(message: OutgoingMessage): string {
  const domain = message.from.address.split("@")[1] ?? "localhost";
  return signedMessageId(message.idempotencyKey, domain);
}

/**
 * nodemailer's own header encoding (addresses with RFC 2047 names and punycode domains, encoded
 * words for non-ASCII text, Q encoding), from one node kept for the purpose.
 */
const headerEncoder = new MimeNode(undefined, { textEncoding: "quoted-printable" });

/** The fields composeMessage writes itself: an extra header of the same name is left out, never written twice. */
const OWN_FIELDS = new Set([
  "from",
  "sender",
  "to",
  "cc",
  "bcc",
  "reply-to",
  "subject",
  "message-id",
  "date",
  "mime-version",
  "content-type",
  "content-transfer-encoding",
]);

/** A field name is printable ASCII without the colon: anything else would end it early on the wire. */
function fieldName(name: string): string {
  return name.replace(/[^\x21-\x39\x3b-\x7e]/g, "");
}

/** The extra headers (List-Unsubscribe, List-Id…) as header lines, without empty ones or any of the message's own fields. */
function extraHeaders(headers: Record<string, string>): string[] {
  return Object.entries(headers)
    .map(([name, value]) => [fieldName(name), singleLine(value)] as const)
    .filter(([name, value]) => name !== "" && value !== "" && !OWN_FIELDS.has(name.toLowerCase()))
    .map(([name, value]) => header(name, value));
}

function header(key: string, value: Parameters<MimeNode["encodeHeaderValue"]>[1]): string {
  return foldLines(`${key}: ${headerEncoder.encodeHeaderValue(key, value)}`, 76);
}

/** A text part as nodemailer writes it: 7bit when it can go as it is, else quoted-printable. */
function textPart(boundary: string, type: "text/plain" | "text/html", content: string): string {
  const plain = isPlainText(content) && !hasLongerLines(content, 76);
  const body = plain ? content : wrapQuotedPrintable(quotedPrintable(content), 76);
  return `--${boundary}\r\nContent-Type: ${type}; charset=utf-8\r\nContent-Transfer-Encoding: ${plain ? "7bit" : "quoted-printable"}\r\n\r\n${body}\r\n`;
}

/**
 * A complete RFC 5322 message: multipart/alternative text and HTML, encoded
 * as needed (quoted-printable, RFC 2047 words for non-ASCII headers), with
 * Message-ID, Date, From (brand name and sender address), Reply-To and any
 * extra headers. Composed in one pass from nodemailer's encoders, not through
 * its tree of MIME streams: that took 0.4–0.7 ms a message (more than the
 * DKIM signature) against 0.06 ms here, for 3.5 KB messages, and a campaign
 * composes one per recipient. Headers and parts are encoded as the tree encoded them.
 */
export function composeMessage(message: OutgoingMessage, date: Date): { raw: Buffer; messageId: string } {
  const messageId = messageIdFor(message);
  // A boundary of its own per message: no content can be written to hold it.
  const boundary = `--_mail-${randomUUID()}`;
  const lines = [
    ...extraHeaders(message.headers ?? {}),
    header("From", { name: singleLine(message.from.name), address: message.from.address }),
    header("To", message.to),
    ...(message.replyTo ? [header("Reply-To", message.replyTo)] : []),
    header("Subject", singleLine(message.subject)),
    header("Message-ID", messageId),
    header("Date", date),
    "MIME-Version: 1.0",
    foldLines(`Content-Type: multipart/alternative; boundary="${boundary}"`, 76),
  ];
  const raw = `${lines.join("\r\n")}\r\n\r\n${textPart(boundary, "text/plain", message.text)}${textPart(boundary, "text/html", message.html)}--${boundary}--\r\n`;
  return { raw: Buffer.from(raw), messageId };
}

/** A complete RFC 5322 message, as composeMessage writes it. */
export function buildMessage(message: OutgoingMessage, clock: Clock): BuiltMessage {
  const { raw, messageId } = composeMessage(message, clock.now());
  return { raw, messageId, envelope: { from: message.from.address, to: message.to } };
}
