// The twelve events, apart from the database code that records them, so that browser code
// (the webhook forms) and the OpenAPI document can name them.

export const EVENT_TYPES = [
  "contact.subscribed",
  "contact.unsubscribed",
  "email.delivered",
  "email.bounced",
  "email.complained",
  "email.failed",
  "email.opened",
  "email.clicked",
  "campaign.sending",
  "campaign.sent",
  "campaign.paused",
  "campaign.cancelled",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];
