import "server-only";

import { eq } from "drizzle-orm";

import type { Ctx } from "@/lib/context";
import { campaigns } from "@/lib/db/schema";
import { classifyAudienceDomains, type MxLookup } from "@/lib/deliverability/mailbox-provider";
import { domainResolver } from "@/lib/domains/check-domain-dns";

/**
 * System: before a campaign's audience snapshot, its largest recipient domains get their mailbox
 * provider from their MX hosts (mailbox-provider.ts) through DNS_SERVERS. Only while the snapshot is
 * still to be taken: a retried run does not look them up again.
 */
export async function classifyCampaignDomains(ctx: Ctx, campaignId: string, lookupMx?: MxLookup): Promise<number> {
  const [campaign] = await ctx.db.select().from(campaigns).where(eq(campaigns.id, campaignId));
  if (!campaign || campaign.status !== "sending" || campaign.recipientCount !== null) return 0;
  const resolver = lookupMx ? null : domainResolver();
  return classifyAudienceDomains(ctx, campaign, lookupMx ?? ((domain) => resolver!.resolveMx(domain)));
}
