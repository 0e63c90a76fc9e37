import "server-only";

import { sql, type SQL } from "drizzle-orm";

import type { Ctx } from "@/lib/context";
import { idArray } from "@/lib/db/id-array";
import { emitEvents } from "@/lib/events/emit-events";
import { automationEntryStarted } from "@/lib/events/workflow-events";
import { bulkUlidPrefix } from "@/lib/ids";

import type { AutomationTrigger } from "./automation-schemas";

/** Which people a trigger happened to, and which of the trigger's automations it concerns. */
export interface TriggerOccurrence {
  trigger: AutomationTrigger;
  /**
   * A query whose rows carry a `contact_id` column: the people the trigger happened to. It may be a
   * data-modifying statement with `returning contact_id` (a bulk list add), which then runs in the
   * same statement as the entries, so a million people cost one statement, not a query each.
   */
  people: SQL;
  /** Conditions on the automation (alias `a`), e.g. on `a.trigger_settings`; left out: every one with the trigger. */
  settings?: SQL;
  /**
   * Conditions on a person's row (`p`, with the columns `people` gives beside `contact_id`) and the
   * automation's settings (`targets.settings`): an attribute change's key and values, a click's link.
   */
  match?: SQL;
  /** A brand-locked API key reaches only its brand's automations (through the automation's topic). */
  brandId?: string | null;
}

/**
 * Internal: a trigger happened to these people. Every active automation of the workspace with that
 * trigger (and matching settings) takes in those of them subscribed to its topic — consent lives on
 * the topic, so a person without a confirmed subscription is not entered at all, now or later — on
 * its newest version, by the re-entry rule (one active entry per person, another after an ended one only
 * when the automation allows it; the unique index on active entries and `on conflict do nothing` hold
 * that against a race), and each entry's run is emitted in the caller's transaction.
 *
 * The one place the triggers beyond topic_confirmed enter people (docs/readings.md, "Automations").
 */
export async function enterByTrigger(
  ctx: Ctx,
  workspaceId: string,
  on: TriggerOccurrence,
): Promise<{ entryIds: string[] }> {
  const brand = on.brandId
    ? sql`and exists (select 1 from topics t where t.id = a.topic_id and t.brand_id = ${on.brandId})`
    : sql``;
  const now = ctx.clock.now().toISOString();
  const rows = (await ctx.db.execute(sql`
    with people as (${on.people}),
    targets as (
      select a.id, a.topic_id, a.trigger_settings as settings, a.reentry_after_minutes,
        (select v.id from automation_versions v where v.automation_id = a.id order by v.number desc limit 1) as version_id
      from automations a
      where a.workspace_id = ${workspaceId} and a.trigger = ${on.trigger} and a.status = 'active'
        ${on.settings ? sql`and (${on.settings})` : sql``} ${brand}
    ),
    chosen as (
      select distinct on (targets.id, p.contact_id) targets.id as automation_id, targets.version_id, p.contact_id
      from targets
      join people p on ${on.match ?? sql`true`}
      join subscriptions s on s.contact_id = p.contact_id and s.topic_id = targets.topic_id
        and s.workspace_id = ${workspaceId} and s.state = 'subscribed'
      where targets.version_id is not null
        -- Re-entry (lib/automations/reentry.ts, the same rule for one person): never beside an active entry;
        -- after an ended one only when the automation allows it and that long has passed.
        and not exists (
          select 1 from automation_entries e
          where e.automation_id = targets.id and e.contact_id = p.contact_id
            and (e.status = 'active' or targets.reentry_after_minutes is null or e.ended_at is null
              or e.ended_at > ${now}::timestamptz - make_interval(mins => targets.reentry_after_minutes))
        )
    )
    insert into automation_entries (id, workspace_id, automation_id, version_id, contact_id, entered_at)
    select ${bulkUlidPrefix("aen", 8)} || lpad(to_hex(row_number() over ()), 8, '0'), ${workspaceId},
      chosen.automation_id, chosen.version_id, chosen.contact_id, ${now}::timestamptz
    from chosen
    on conflict do nothing
    returning id`)) as unknown as { id: string }[];
  const entryIds = rows.map((r) => r.id);
  if (entryIds.length > 0)
    await emitEvents(
      ctx,
      entryIds.map((entryId) => ({ name: automationEntryStarted.name, id: `entry-${entryId}`, data: { entryId } })),
    );
  return { entryIds };
}

/** The people of a plain list of contact ids, as `enterByTrigger` takes them. */
export function contactIdsQuery(contactIds: readonly string[]): SQL {
  return sql`select unnest(${idArray(contactIds)}) as contact_id`;
}
