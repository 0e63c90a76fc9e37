import "server-only";

import { sql, type SQL } from "drizzle-orm";

import { sunsetApplies, type SunsetSettings } from "./sunset-schemas";

/** The failure reason of a contact the sunset leaves out. */
export const INACTIVE = "inactive";

/**
 * The sunset of inactive contacts as a sending rule (docs/readings.md, "Sunset of inactive contacts"):
 * a contact is inactive when, since their last human open or click (or ever, without one), at least
 * `afterCampaigns` campaigns reached them, or the first campaign that did so reached them at least
 * `afterDays` days ago. A contact no campaign ever reached has no engagement row and is never inactive.
 * Null when the sunset leaves nobody out (off, or no measure). One join on the contact id, to add after `contacts c`.
 */
export function inactiveRule(settings: SunsetSettings, now: Date): { join: SQL; when: SQL } | null {
  if (!sunsetApplies(settings)) return null;
  const measures: SQL[] = [];
  if (settings.afterCampaigns !== null) measures.push(sql`e.campaigns_since_engaged >= ${settings.afterCampaigns}`);
  if (settings.afterDays !== null) {
    const cutoff = new Date(now.getTime() - settings.afterDays * 86_400_000).toISOString();
    measures.push(sql`e.unengaged_since <= ${cutoff}::timestamptz`);
  }
  return {
    join: sql`left join contact_engagement e on e.contact_id = c.id`,
    when: sql`when ${sql.join(measures, sql` or `)} then ${INACTIVE}`,
  };
}
