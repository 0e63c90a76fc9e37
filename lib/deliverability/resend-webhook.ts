import { Webhook } from "svix";

import type { ProviderEvent } from "./record-provider-event";

interface ResendEvent {
  type: string;
  created_at: string;
  data: {
    email_id?: string;
    bounce?: { type?: string; subType?: string; message?: string };
    complaint?: { type?: string };
  };
}

const BOUNCE_TYPES: Record<string, "permanent" | "transient" | "undetermined"> = {
  permanent: "permanent",
  transient: "transient",
  undetermined: "undetermined",
};

/**
 * Resend signs its webhooks with Svix: verified over the raw body, with the
 * svix-id, svix-timestamp and svix-signature headers (the timestamp must be
 * within five minutes). Anything that does not verify is refused.
 */
export function verifyResendWebhook(secret: string, rawBody: string, headers: Headers): ResendEvent | null {
  try {
    // Throws unless the signature matches the raw bytes and the timestamp is recent.
    new Webhook(secret).verify(rawBody, {
      "svix-id": headers.get("svix-id") ?? "",
      "svix-timestamp": headers.get("svix-timestamp") ?? "",
      "svix-signature": headers.get("svix-signature") ?? "",
    });
    return JSON.parse(rawBody) as ResendEvent;
  } catch {
    return null;
  }
}

/** Resend's delivery events in our terms; other event types (sent, opened, clicked: we track those ourselves) are ignored. */
export function toProviderEvent(event: ResendEvent): ProviderEvent | null {
  const providerMessageId = event.data.email_id;
  const occurredAt = new Date(event.created_at);
  if (!providerMessageId || Number.isNaN(occurredAt.getTime())) return null;
  switch (event.type) {
    case "email.delivered":
      return { type: "delivered", providerMessageId, occurredAt };
    case "email.bounced":
      return {
        type: "bounced",
        bounceType: BOUNCE_TYPES[(event.data.bounce?.type ?? "").toLowerCase()] ?? "undetermined",
        reason: event.data.bounce?.message,
        providerMessageId,
        occurredAt,
      };
    case "email.complained":
      return { type: "complained", complaintType: event.data.complaint?.type, providerMessageId, occurredAt };
    default:
      return null;
  }
}
