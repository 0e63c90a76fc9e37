import "server-only";

import { sql } from "drizzle-orm";

import type { Ctx } from "@/lib/context";

import type { TriggerSettings } from "./automation-schemas";
import { enterByTrigger } from "./enter-by-trigger";

/**
 * System: the hourly pass of `date_attribute` automations (the `automation-dates` cron). Each active
 * one takes in the contacts whose date attribute, moved by `offset_days`, falls on the day it is now in
 * the contact's time zone (else the workspace's): on that date, or every year on its month and day when
 * `yearly` (a 29 February comes round on the 28th in other years). So a person enters in the first pass
 * after their own midnight, not the server's. Idempotent: a contact who entered the automation since
 * their day began is not entered again, so every later pass that day (and a retry, a restart) enters
 * nobody twice — whatever the entries' uniqueness (re-entry) allows.
 */
export async function enterDueDateAttributes(ctx: Ctx): Promise<{ entered: number }> {
  const now = ctx.clock.now().toISOString();
  const automations = (await ctx.db.execute(sql`
    select id, workspace_id, trigger_settings from automations
    where trigger = 'date_attribute' and status = 'active'
    order by id`)) as unknown as {
    id: string;
    workspace_id: string;
    trigger_settings: TriggerSettings<"date_attribute">;
  }[];
  let entered = 0;
  for (const automation of automations) {
    const { attribute, offset_days: offset = 0, yearly = false } = automation.trigger_settings;
    // The date whose anniversary (or which) is due on the contact's today: their today moved back by the offset.
    const due = sql`(d.today - ${offset}::int)`;
    // Compared as text (a date attribute is stored as ISO 8601): no cast, so no stray value can fail the pass.
    const value = sql`(c.attributes->>${attribute})`;
    const falls = yearly
      ? sql`(substr(${value}, 6, 5) = to_char(${due}, 'MM-DD')
          or (substr(${value}, 6, 5) = '02-29' and to_char(${due}, 'MM-DD') = '02-28'
              and extract(day from (date_trunc('year', ${due}) + interval '1 month 28 days')) <> 29))`
      : sql`left(${value}, 10) = to_char(${due}, 'YYYY-MM-DD')`;
    const { entryIds } = await enterByTrigger(ctx, automation.workspace_id, {
      trigger: "date_attribute",
      settings: sql`a.id = ${automation.id}`,
      people: sql`select c.id as contact_id
        from contacts c
        join workspaces w on w.id = c.workspace_id
        cross join lateral (select coalesce(c.time_zone, w.time_zone) as zone) z
        cross join lateral (select (${now}::timestamptz at time zone z.zone)::date as today) d
        where c.workspace_id = ${automation.workspace_id}
          and ${value} ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}' and ${falls}
          and not exists (select 1 from automation_entries e where e.automation_id = ${automation.id}
            and e.contact_id = c.id and e.entered_at >= (d.today::timestamp at time zone z.zone))`,
    });
    entered += entryIds.length;
  }
  return { entered };
}
