import { z } from "zod";

import type { EventType } from "@/lib/events/event-types";
import { timestampField } from "@/lib/validation/api-fields";

// What each webhook carries, as zod schemas: the OpenAPI document's `webhooks` are generated from
// them, and the payload test checks every delivered body against them. Strict objects: a field
// added to an event without being documented fails that test.

const timestamp = timestampField;
const id = z.string();
const count = z.int().nonnegative();

const emailBase = {
  send_id: id.meta({
    description: "Unique per recipient per campaign (prefix `snd_`), or per automation entry and step (prefix `asn_`).",
  }),
  campaign_id: id.nullable().meta({ description: "Null for an automation's mail." }),
  campaign_name: z.string().nullable().meta({ description: "Null for an automation's mail." }),
  contact_id: id,
  email: z.string(),
  occurred_at: timestamp.meta({ description: "When it happened at the provider, not when the service saw it." }),
  automation_id: id.optional().meta({ description: "Set for an automation's mail: the automation that sent it." }),
  step: z
    .int()
    .nonnegative()
    .optional()
    .meta({ description: "Set for an automation's mail: the number of the send step that sent it." }),
};
const campaignBase = {
  campaign_id: id,
  campaign_name: z.string(),
  subject: z.string(),
  brand_id: id,
  status: z
    .enum(["draft", "scheduled", "sending", "paused", "sent", "cancelled"])
    .nullable()
    .meta({ description: "Null for a status outside these six." }),
  recipient_count: count.nullable().meta({
    description: "The size the send was set at; null when paused or cancelled before the audience was counted.",
  }),
  occurred_at: timestamp,
};

const PAYLOADS: Record<EventType, { fires: string; data: z.ZodObject }> = {
  "contact.subscribed": {
    fires:
      "A subscription is confirmed (double opt-in), or a contact is subscribed through the API, the dashboard or an import.",
    data: z.strictObject({
      contact_id: id,
      email: z.string(),
      topic_id: id,
      topic_name: z.string(),
      brand_id: id,
      source: z.enum(["double_opt_in", "api", "import", "dashboard"]),
      occurred_at: timestamp,
    }),
  },
  "contact.unsubscribed": {
    fires: "Someone opts out, from an email link or the preference centre.",
    data: z.strictObject({
      contact_id: id,
      email: z.string(),
      scope: z.enum(["topic", "brand", "all"]),
      topic_id: id.nullable().meta({ description: "Set when `scope` is `topic`." }),
      topic_name: z.string().nullable(),
      brand_id: id.nullable().meta({ description: "Set for `topic` and `brand`." }),
      campaign_id: id.nullable().meta({ description: "The campaign whose link was used, when there was one." }),
      occurred_at: timestamp,
    }),
  },
  "email.delivered": { fires: "The recipient's mail provider accepted the message.", data: z.strictObject(emailBase) },
  "email.bounced": {
    fires: "A bounce; a permanent one suppresses the address.",
    data: z.strictObject({
      ...emailBase,
      bounce_type: z.enum(["permanent", "transient", "undetermined"]),
      reason: z.string().nullable().meta({ description: "The provider's wording; not for parsing." }),
      suppressed: z.boolean(),
    }),
  },
  "email.complained": {
    fires: "The recipient reported the mail; the address is suppressed.",
    data: z.strictObject({ ...emailBase, complaint_type: z.string().nullable(), suppressed: z.literal(true) }),
  },
  "email.failed": {
    fires:
      "The recipient could not be sent to at all (nothing left the service): a missing merge-tag value, a render error, an address suppressed since the send was set.",
    data: z.strictObject({ ...emailBase, reason: z.string() }),
  },
  "email.opened": {
    fires: "A tracking pixel loaded (weak evidence only).",
    data: z.strictObject({ ...emailBase, country: z.string().nullable() }),
  },
  "email.clicked": {
    fires: "A tracked link was followed.",
    data: z.strictObject({
      ...emailBase,
      url: z.string(),
      country: z.string().nullable(),
      device_type: z.enum(["mobile", "tablet", "desktop"]).nullable(),
      client: z.string().nullable(),
    }),
  },
  "campaign.sending": { fires: "A campaign started dispatching.", data: z.strictObject(campaignBase) },
  "campaign.sent": {
    fires: "Every recipient of a campaign has been attempted.",
    data: z.strictObject({ ...campaignBase, delivered: count, bounced: count, failed: count, skipped: count }),
  },
  "campaign.paused": {
    fires: "A campaign was paused mid-send: by a person, or by the guardrail on harm.",
    data: z.strictObject({
      ...campaignBase,
      pause_reason: z.enum(["complaint_rate", "hard_bounce_rate"]).nullable().meta({
        description:
          "Set when the guardrail paused it: the campaign's (or its brand's over 24 hours) complaint or permanent-bounce rate reached the stop threshold. Null for a manual pause.",
      }),
    }),
  },
  "campaign.cancelled": {
    fires: "A campaign was cancelled mid-send; queued recipients are not sent to and the allowance is refunded.",
    data: z.strictObject(campaignBase),
  },
};

/** The body POSTed to an endpoint for one event: `{ id, type, created_at, data }`. */
export function webhookBody(type: EventType) {
  return z.strictObject({
    id: id.meta({ description: "Stable across retries (prefix `evt_`): deduplicate on it." }),
    type: z.literal(type),
    created_at: timestamp,
    data: PAYLOADS[type].data,
  });
}

export const webhookFires = (type: EventType) => PAYLOADS[type].fires;
