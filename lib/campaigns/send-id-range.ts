import { sql, type SQL } from "drizzle-orm";
import { sends } from "@/lib/db/schema";

/**
 * The sends of one campaign, as a range of the sends primary key: every send id of the campaign is
 * its `send_id_prefix` followed by hex digits, and "~" sorts after every digit and letter under the
 * "C" collation. A campaign without a prefix has no sends yet.
 */
export function sendsOfCampaign(sendIdPrefix: string | null): SQL {
  if (!sendIdPrefix) return sql`false`;
  return sql`${sends.id} >= ${sendIdPrefix} and ${sends.id} < ${`${sendIdPrefix}~`}`;
}
