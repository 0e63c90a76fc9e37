import MailComposer from "nodemailer/lib/mail-composer";
import type { Clock } from "@/lib/clock";
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

/** `<idempotency key @ sender's domain>`: stable, so a resent copy is recognisably the same message. */
export function messageIdFor(message: OutgoingMessage): string {
  const domain = message.from.address.split("@")[1] ?? "localhost";
  return `<${message.idempotencyKey}@${domain}>`;
}

/**
 * What MailComposer is given for a message: multipart/alternative text and
 * HTML, encoded as needed (quoted-printable or base64, RFC 2047 words for
 * non-ASCII headers), with Message-ID, Date, From (brand name and sender
 * address), Reply-To and any extra headers. The SMTP transport hands the same
 * options to nodemailer, which composes them on the way to the wire.
 */
export function composerOptions(message: OutgoingMessage, date: Date) {
  const headers = Object.fromEntries(Object.entries(message.headers ?? {}).map(([name, value]) => [singleLine(name), singleLine(value)]));
  return {
    from: { name: singleLine(message.from.name), address: message.from.address },
    to: message.to,
    replyTo: message.replyTo,
    subject: singleLine(message.subject),
    text: message.text,
    html: message.html,
    headers,
    messageId: messageIdFor(message),
    date,
    textEncoding: "quoted-printable" as const,
  };
}

/** A complete RFC 5322 message, as composerOptions describes it. */
export async function buildMessage(message: OutgoingMessage, clock: Clock): Promise<BuiltMessage> {
  const options = composerOptions(message, clock.now());
  const composer = new MailComposer(options);
  const raw = await new Promise<Buffer>((resolve, reject) => composer.compile().build((error, built) => (error ? reject(error) : resolve(built))));
  return { raw, messageId: options.messageId, envelope: { from: message.from.address, to: message.to } };
}
