import "server-only";

import { createHash } from "node:crypto";
import PostalMime, { type Attachment } from "postal-mime";

import { readMessageId } from "@/lib/mail/message-id";

import type { ReceivedReport } from "./receive-provider-event";
import type { ProviderEvent } from "./record-provider-event";
import { readReturnPath } from "./return-path";

// Bounce mail, parsed with postal-mime: mailparser folds the machine-readable parts of a report
// (message/delivery-status, message/feedback-report) into the body text, and those parts are the point.

const decoder = new TextDecoder();

/** RFC 3464/5965 field blocks: header-style lines, folded lines joined, blocks split on blank lines. */
function fieldBlocks(text: string): Map<string, string>[] {
  return text
    .replace(/\r\n/g, "\n")
    .replace(/\n[ \t]+/g, " ")
    .split(/\n\s*\n/)
    .map((block) => {
      const fields = new Map<string, string>();
      for (const line of block.split("\n")) {
        const colon = line.indexOf(":");
        if (colon > 0) fields.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
      }
      return fields;
    })
    .filter((fields) => fields.size > 0);
}

const partOf = (attachments: Attachment[], ...types: string[]) =>
  attachments.find((attachment) => types.includes(attachment.mimeType.toLowerCase()));
const textOf = (attachment: Attachment) =>
  typeof attachment.content === "string" ? attachment.content : decoder.decode(attachment.content);
/** A typed field (`rfc822; someone@example.com`, `smtp; 550 …`) without its type. */
const typedValue = (value: string | undefined) =>
  value === undefined ? undefined : value.slice(value.indexOf(";") + 1).trim() || undefined;

/** The Message-ID of the mail a report is about, as the report quotes it: anyone can write one, so it is checked before use. */
function originalMessageId(attachments: Attachment[]): string | undefined {
  const original = partOf(
    attachments,
    "message/rfc822",
    "text/rfc822-headers",
    "message/global",
    "message/global-headers",
  );
  if (!original) return undefined;
  const headers = textOf(original).split(/\r?\n\r?\n/)[0]!;
  return fieldBlocks(headers)[0]?.get("message-id");
}

function bounceType(status: string | undefined): "permanent" | "transient" | "undetermined" {
  if (status?.startsWith("5.")) return "permanent";
  if (status?.startsWith("4.")) return "transient";
  return "undetermined";
}

/**
 * A message that reached the bounce address (the built-in SMTP listener or
 * the IMAP mailbox), as a provider report: a delivery status notification
 * (RFC 3464) is a bounce with its status code and diagnostic, a feedback
 * report (RFC 5965, ARF) a complaint. Which send it is about comes from the
 * signed return path it was sent to, else from the reported message's
 * Message-ID when its signature verifies (lib/mail/message-id); a report
 * that has neither is stored and ignored. Only a report to the signed return
 * path can say a message was delivered: the Message-ID is in every copy the
 * recipient holds. Anything else is kept aside as unrecognized, not guessed at.
 */
export async function readBounceMail(raw: Buffer, envelopeRecipients: string[] = []): Promise<ReceivedReport> {
  const mail = await PostalMime.parse(raw);
  const rawText = raw.toString("utf8");
  const providerEventId = mail.messageId ?? `sha256:${createHash("sha256").update(raw).digest("hex")}`;
  const recipients = [
    ...envelopeRecipients,
    ...["delivered-to", "x-original-to", "to"].flatMap((name) =>
      mail.headers.filter((header) => header.key === name).map((header) => header.value),
    ),
  ];
  const sendKey =
    recipients.map((address) => readReturnPath(address.replace(/^.*</, "").replace(/>.*$/, ""))).find(Boolean) ??
    undefined;
  // A campaign recipient's send id, or an automation mail's (automation_sends).
  const isSendKey = (key: string | null | undefined): key is string =>
    Boolean(key && (key.startsWith("snd_") || key.startsWith("asn_")));
  const sendId = isSendKey(sendKey) ? sendKey : undefined;
  const quoted = originalMessageId(mail.attachments);
  const quotedKey = sendId || !quoted ? null : readMessageId(quoted);
  const quotedSendId = isSendKey(quotedKey) ? quotedKey : undefined;
  const occurredAt = mail.date && !Number.isNaN(Date.parse(mail.date)) ? new Date(mail.date) : new Date();
  /** A report matched by its quoted Message-ID carries the recipient it names, if any: it applies only if that is the send's. */
  const about = (named: string | undefined) =>
    sendId ? { sendId, occurredAt } : { sendId: quotedSendId, occurredAt, ...(named ? { recipient: named } : {}) };
  const report = (event: ProviderEvent | null, unrecognized = false): ReceivedReport => ({
    provider: "smtp",
    providerEventId,
    raw: rawText,
    event,
    unrecognized,
  });

  const status = partOf(mail.attachments, "message/delivery-status", "message/global-delivery-status");
  if (status) {
    const recipient = fieldBlocks(textOf(status)).find((fields) => fields.has("action"));
    const action = recipient?.get("action")?.toLowerCase();
    if (!recipient || (!sendId && !quotedSendId)) return report(null);
    // Anyone who holds a copy of the mail can quote its Message-ID: a delivery (which resets the soft-bounce count) needs the return path.
    if (action === "delivered" || action === "relayed")
      return report(sendId ? { type: "delivered", sendId, occurredAt } : null);
    if (action !== "failed") return report(null); // "delayed": the server is still trying; not a bounce yet
    const statusCode = recipient.get("status")?.match(/^\d\.\d{1,3}\.\d{1,3}/)?.[0];
    const finalRecipient = typedValue(recipient.get("final-recipient") ?? recipient.get("original-recipient"));
    const diagnostic = typedValue(recipient.get("diagnostic-code"));
    return report({
      type: "bounced",
      bounceType: bounceType(statusCode),
      statusCode,
      reason: diagnostic ?? `Delivery to ${finalRecipient ?? "the recipient"} failed.`,
      ...about(finalRecipient),
    });
  }
  const feedback = partOf(mail.attachments, "message/feedback-report");
  if (feedback) {
    const fields = fieldBlocks(textOf(feedback))[0];
    if (!sendId && !quotedSendId) return report(null);
    // Many feedback loops redact the recipient: the signed Message-ID alone then says whose complaint it is.
    const reported = fields?.get("original-rcpt-to")?.replace(/^<|>$/g, "");
    return report({
      type: "complained",
      complaintType: fields?.get("feedback-type") ?? "abuse",
      reason: fields?.get("user-agent"),
      ...about(reported),
    });
  }
  return report(null, true);
}
