/** docs/readings.md, "Confirmation mails": no second confirmation for one workspace + address + topic within 10 minutes; at most 5 per address of a workspace per 24 hours. */
export const SAME_TOPIC_WINDOW_MS = 10 * 60_000;
export const DAILY_WINDOW_MS = 24 * 60 * 60_000;
export const DAILY_LIMIT = 5;
/**
 * At most this many confirmation mails per address per 24 hours across every
 * workspace: each tenant's own cap holds, yet many tenants' public forms
 * (anyone can make a workspace) must not add up to flooding one inbox.
 */
export const ADDRESS_DAILY_LIMIT = 10;
/** A confirmation link is valid this long after its mail was sent. */
export const CONFIRMATION_VALIDITY_MS = 14 * 24 * 60 * 60_000;
