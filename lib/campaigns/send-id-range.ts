import { sql, type SQL } from "drizzle-orm";

import { sends, type campaigns } from "@/lib/db/schema";

type CampaignRow = typeof campaigns.$inferSelect;

/**
 * The sends of one campaign, as a range of the sends primary key: every send id of the campaign is
 * its `send_id_prefix` followed by hex digits, and "~" sorts after every digit and letter under the
 * "C" collation. A campaign snapshotted before prefixes existed (its send ids are random) is found by
 * campaign_id, a scan of all sends that only such campaigns pay. A campaign with neither has no sends.
 */
export function sendsOfCampaign(campaign: Pick<CampaignRow, "id" | "sendIdPrefix" | "recipientCount">): SQL {
  if (campaign.sendIdPrefix)
    return sql`${sends.id} >= ${campaign.sendIdPrefix} and ${sends.id} < ${`${campaign.sendIdPrefix}~`}`;
  if (campaign.recipientCount !== null) return sql`${sends.campaignId} = ${campaign.id}`;
  return sql`false`;
}
