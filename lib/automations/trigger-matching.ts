import "server-only";

import { sql, type SQL } from "drizzle-orm";

import type { Ctx } from "@/lib/context";
import type { AttributeValue } from "@/lib/db/schema";

import { contactIdsQuery, enterByTrigger } from "./enter-by-trigger";

// Each trigger beyond topic_confirmed, as the code where it happens calls it: which automations its
// settings pick, and who enters (enterByTrigger, in the caller's transaction).

/**
 * Internal: these people were added to the list (`people`: rows with `contact_id`, e.g. a bulk
 * add's `insert … returning contact_id`). Only those not on the list before should be given: a
 * repeated add is not an occurrence.
 */
export function enterListAdded(ctx: Ctx, workspaceId: string, listId: string, people: SQL) {
  return enterByTrigger(ctx, workspaceId, {
    trigger: "list_added",
    people,
    settings: sql`a.trigger_settings->>'list_id' = ${listId}`,
  });
}

/** Internal: the sender's systems sent event `name` for the contact (POST /v1/events). */
export function enterOnEvent(ctx: Ctx, workspaceId: string, contactId: string, name: string, brandId: string | null) {
  return enterByTrigger(ctx, workspaceId, {
    trigger: "event",
    people: contactIdsQuery([contactId]),
    settings: sql`a.trigger_settings->>'name' = ${name}`,
    brandId,
  });
}

/** One attribute's change, its values as text as the trigger's `from`/`to` name them (null: no value). */
export interface AttributeChange {
  contactId: string;
  attribute: string;
  from: string | null;
  to: string | null;
}

const asText = (value: AttributeValue | null | undefined): string | null =>
  value === null || value === undefined || value === "" ? null : String(value);

/** The custom attributes whose value differs between the contact's `before` and `after` (both whole). */
export function attributeChanges(
  contactId: string,
  before: Record<string, AttributeValue | null>,
  after: Record<string, AttributeValue | null>,
): AttributeChange[] {
  const changes: AttributeChange[] = [];
  for (const attribute of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const from = asText(before[attribute]);
    const to = asText(after[attribute]);
    if (from !== to) changes.push({ contactId, attribute, from, to });
  }
  return changes;
}

/**
 * Internal: custom attributes of contacts changed. An automation watching the attribute takes a
 * person in when its `from` (if set) names the old value and its `to` (if set) the new one.
 * Set-based: the changes go in as one JSON parameter, however many contacts they concern.
 */
export async function enterAttributeChanged(ctx: Ctx, workspaceId: string, changes: AttributeChange[]) {
  if (changes.length === 0) return { entryIds: [] };
  const rows = JSON.stringify(
    changes.map((c) => ({ contact_id: c.contactId, attribute: c.attribute, from: c.from, to: c.to })),
  );
  return enterByTrigger(ctx, workspaceId, {
    trigger: "attribute_changed",
    people: sql`select * from jsonb_to_recordset(${rows}::jsonb) as x(contact_id text, attribute text, "from" text, "to" text)`,
    settings: sql`a.trigger_settings->>'attribute' in (select (jsonb_array_elements(${rows}::jsonb))->>'attribute')`,
    match: sql`targets.settings->>'attribute' = p.attribute
      and (targets.settings->>'from' is null or targets.settings->>'from' = p."from")
      and (targets.settings->>'to' is null or targets.settings->>'to' = p."to")`,
  });
}

/**
 * Internal: a person (not a machine: the caller says so) clicked `url` in the campaign's mail. An
 * automation on the campaign takes them in; one with a `url` only for that link.
 */
export function enterLinkClicked(ctx: Ctx, workspaceId: string, contactId: string, campaignId: string, url: string) {
  return enterByTrigger(ctx, workspaceId, {
    trigger: "link_clicked",
    people: contactIdsQuery([contactId]),
    settings: sql`a.trigger_settings->>'campaign_id' = ${campaignId}
      and (a.trigger_settings->>'url' is null or a.trigger_settings->>'url' = ${url})`,
  });
}
