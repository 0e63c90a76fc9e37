import { z } from "zod";

import { CONTACT_STATUSES } from "@/lib/contacts/contact-status";
import { INTERVALS } from "@/lib/reports/report-window";
import { timestampField } from "@/lib/validation/api-fields";

// The shapes /v1 answers with, as zod schemas: the OpenAPI document is generated from them, and
// every response the route tests receive is checked against them. Strict objects, so a field
// added to a serializer without being documented fails a test.

const timestamp = timestampField;
const count = z.int().nonnegative();
const rate = z.number().meta({ description: "A percentage rounded to 2 decimals; 0 when the denominator is 0." });

export const pageMeta = z
  .strictObject({
    limit: count,
    has_more: z.boolean(),
    next_cursor: z
      .string()
      .nullable()
      .meta({ description: "Pass as `cursor` for the next page; null on the last page." }),
  })
  .meta({ id: "PageMeta" });

/** A page of a list endpoint: `{ data, meta }`. */
export const listOf = (item: z.ZodType) => z.strictObject({ data: z.array(item), meta: pageMeta });
export const dataOf = (item: z.ZodType) => z.strictObject({ data: item });

export const errorBody = z
  .strictObject({
    error: z.strictObject({
      type: z.enum([
        "authentication_error",
        "permission_error",
        "invalid_request_error",
        "not_found_error",
        "rate_limit_error",
        "api_error",
      ]),
      code: z.string().meta({ description: "The specific reason: match on it, never on `message`." }),
      message: z.string(),
      param: z.string().optional().meta({ description: "The offending field, when one field caused the error." }),
    }),
  })
  .meta({ id: "Error" });

export const contact = z
  .strictObject({
    id: z.string().meta({ description: "Prefix `ct_`." }),
    email: z.string(),
    first_name: z.string().nullable(),
    last_name: z.string().nullable(),
    status: z
      .enum(CONTACT_STATUSES)
      .meta({ description: "Derived: `bounced` and `complained` mean no sending whatever the subscriptions." }),
    attributes: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
    created_at: timestamp,
  })
  .meta({ id: "Contact" });

export const contactWritten = z
  .strictObject({ id: z.string(), email: z.string(), status: z.enum(CONTACT_STATUSES), created_at: timestamp })
  .meta({ id: "ContactWritten" });

export const contactEventAccepted = z
  .strictObject({
    id: z.string().meta({ description: "The event's id (prefix `cev_`)." }),
    contact_id: z.string(),
    name: z.string(),
    occurred_at: timestamp,
  })
  .meta({ id: "ContactEventAccepted" });

export const topic = z
  .strictObject({
    id: z.string().meta({ description: "Prefix `tp_`." }),
    name: z.string(),
    description: z.string(),
    brand_id: z.string(),
    requires_confirmation: z.boolean().meta({ description: "Double opt-in: subscribe answers `confirmation_sent`." }),
    subscriber_count: count.meta({ description: "Confirmed subscribers only." }),
    created_at: timestamp,
  })
  .meta({ id: "Topic" });

export const list = z
  .strictObject({
    id: z.string().meta({ description: "Prefix `ls_`." }),
    name: z.string(),
    description: z.string(),
    brand_id: z.string(),
    member_count: count,
    created_at: timestamp,
  })
  .meta({ id: "List" });

export const membersAdded = z.strictObject({ added: count, already_members: count, member_count: count });
export const membersRemoved = z.strictObject({ removed: count, member_count: count });

export const suppression = z
  .strictObject({
    id: z.string().meta({ description: "Prefix `sup_`." }),
    email: z.string().nullable(),
    domain: z.string().nullable(),
    reason: z.string().meta({ description: "`manual` for suppressions made through the API." }),
    note: z.string(),
    created_at: timestamp,
  })
  .meta({ id: "Suppression" });

export const suppressionDeleted = z.strictObject({ id: z.string(), deleted: z.literal(true) });
export const contactErasedResult = z.strictObject({
  id: z.string(),
  deleted: z.literal(true),
  cancelled_sends: z.number().int().meta({ description: "Queued sends of campaigns under way that will not go out." }),
});

export const subscribeResult = z.strictObject({
  status: z
    .enum(["subscribed", "confirmation_sent"])
    .meta({ description: "The same answer whether or not the address was known." }),
});

const reportScope = z
  .union([
    z.strictObject({ type: z.literal("workspace"), brand_id: z.null() }),
    z.strictObject({ type: z.literal("brand"), brand_id: z.string() }),
  ])
  .meta({ id: "ReportScope" });

export const summaryReport = z.strictObject({
  data: z.strictObject({
    contacts: z.strictObject({
      total: count,
      subscribed: count,
      unsubscribed: count,
      bounced: count,
      complained: count,
    }),
    lists: z.strictObject({ total: count, memberships: count }),
    topics: z.strictObject({ total: count }),
    campaigns: z.strictObject({ total: count, sent: count, scheduled: count, draft: count, sending: count }),
    sends: z.strictObject({
      used_this_period: count,
      period_started_at: timestamp.nullable(),
      scope: z.literal("workspace"),
    }),
    scope: reportScope,
  }),
  as_of: timestamp,
});

export const campaignReportRow = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    subject: z.string(),
    sent_at: timestamp,
    recipients: count,
    accepted: count,
    delivered: count,
    opened: count,
    clicked: count,
    bounced: count,
    complained: count,
    unsubscribed: count,
    failed: count,
    open_rate: rate,
    click_rate: rate,
    bounce_rate: rate,
    complaint_rate: rate,
  })
  .meta({ id: "CampaignReportRow" });

export const campaignReport = z.strictObject({
  data: z.array(campaignReportRow),
  meta: pageMeta,
  as_of: timestamp,
  scope: reportScope,
});

const activityCounts = {
  contacts_added: count,
  unsubscribes: count,
  campaigns_sent: count,
  opens: count,
  clicks: count,
};
export const activityReport = z.strictObject({
  data: z.array(z.strictObject({ period_start: timestamp, ...activityCounts })),
  meta: pageMeta,
  totals: z.strictObject(activityCounts),
  period: z.strictObject({ from: timestamp, to: timestamp, interval: z.enum(INTERVALS) }),
  as_of: timestamp,
  scope: reportScope,
});
