import "server-only";

import { sql, type SQL } from "drizzle-orm";

import type { Ctx } from "@/lib/context";
import type { brands, campaigns } from "@/lib/db/schema";
import { inactiveRule } from "@/lib/deliverability/inactive-contacts";
import { sunsetSettingsOf } from "@/lib/deliverability/sunset-settings";
import { brandClearance } from "@/lib/workspaces/sending-clearance";

import { mergeTagsIn } from "./merge-tags";
import { mergeValuesFor } from "./render-campaign-mail";

/** The failure reason of a recipient left out by the sandbox: not one of the workspace's verified addresses. */
export const NOT_VERIFIED = "recipient_not_verified";

export interface SendingRules {
  /** Whether any rule applies: without one, nobody the audience rule lets in is left out. */
  any: boolean;
  /** Joins the rules read, to add after `contacts c` (which must carry `workspace_id`). */
  joins: SQL;
  /** `when … then '<reason>'` branches, first match wins, naming the failure reason dispatch records. */
  whens: SQL;
}

/**
 * The rules that leave out someone the audience rule lets in (subscribed, not
 * opted out, on the list, not suppressed), in the order dispatch applies them:
 * not a verified address while the brand is in the sandbox, then inactive under
 * the workspace's sunset unless the campaign includes inactive contacts, then the
 * first merge tag without a value, in the order the subject, the preview text, the body and
 * the text use them. One definition for the exclusion preview and the audience
 * snapshot, so that both leave out the same people for the same reason; the
 * send allowance covers only the people no rule leaves out.
 */
export async function sendingRules(ctx: Ctx, campaign: CampaignRow, brand: BrandRow): Promise<SendingRules> {
  const { open } = await brandClearance(ctx, brand.id);
  const sandbox = open ? [] : [sql`when v.email is null then ${NOT_VERIFIED}`];
  // The engagement table is joined only while the sunset leaves someone out of this campaign.
  const inactive = campaign.includeInactive
    ? null
    : inactiveRule(await sunsetSettingsOf(ctx, campaign.workspaceId), ctx.clock.now());
  const rules = [...sandbox, ...(inactive ? [inactive.when] : []), ...mergeTagRules(campaign, brand)];
  return {
    any: rules.length > 0,
    joins: sql`${open ? sql`` : sql`left join sandbox_recipients v on v.workspace_id = c.workspace_id and v.email = c.email`} ${inactive?.join ?? sql``}`,
    whens: sql.join(rules, sql` `),
  };
}

type CampaignRow = typeof campaigns.$inferSelect;
type BrandRow = typeof brands.$inferSelect;

/**
 * One `when` per merge tag that can be missing, in the order rendering meets
 * them. A brand tag is the same for everyone: without a value, it skips everyone left.
 */
function mergeTagRules(campaign: CampaignRow, brand: BrandRow): SQL[] {
  const tags = [
    ...new Set([campaign.subject, campaign.previewText ?? "", campaign.html, campaign.text ?? ""].flatMap(mergeTagsIn)),
  ];
  const brandValue = mergeValuesFor({ id: "", email: "", firstName: null, lastName: null, attributes: {} }, brand);
  return tags.flatMap((tag) => {
    const [namespace, name = ""] = tag.split(".");
    const skipped = sql`then ${`missing_merge_tag:${tag}`}`;
    if (namespace === "brand") return brandValue(tag) ? [] : [sql`when true ${skipped}`];
    if (name === "email") return [];
    if (name === "first_name") return [sql`when coalesce(c.first_name, '') = '' ${skipped}`];
    if (name === "last_name") return [sql`when coalesce(c.last_name, '') = '' ${skipped}`];
    // As rendering reads an attribute: absent or an empty string is no value; any other JSON value (false, 0, null) prints.
    return [sql`when not (c.attributes ? ${name}) or c.attributes -> ${name} = '""'::jsonb ${skipped}`];
  });
}
