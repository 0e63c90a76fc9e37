import { eq, sql } from "drizzle-orm";

import { systemActor } from "@/lib/actor";
import { classifyCampaignDomains } from "@/lib/campaigns/classify-campaign-domains";
import { createCampaign } from "@/lib/campaigns/save-campaign";
import { snapshotAudience } from "@/lib/campaigns/snapshot-audience";
import type { Ctx } from "@/lib/context";
import { campaigns, workspaceBilling } from "@/lib/db/schema";
import { clearForSending } from "@/lib/testing/clear-for-sending";

import { seedTopic, seedWorkspace } from "./factories";

/**
 * A workspace cleared for sending whose topic has `count` subscribers at each domain, written in
 * bulk, and a campaign to them in `sending` with its audience snapshotted (domains classified from
 * the known-domain list: no lookup leaves the machine).
 */
export async function seedProviderCampaign(ctx: Ctx, perDomain: Record<string, number>) {
  const { workspaceId, brandId } = await seedWorkspace(ctx);
  await clearForSending(ctx, workspaceId);
  await ctx.db
    .update(workspaceBilling)
    .set({ sendAllowance: 1_000_000 })
    .where(eq(workspaceBilling.workspaceId, workspaceId));
  const topicId = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
  const prefix = workspaceId.slice(-8);
  let offset = 0;
  for (const [domain, count] of Object.entries(perDomain)) {
    await ctx.db.execute(sql`insert into contacts (id, workspace_id, email, first_name)
      select 'ct_' || ${prefix} || lpad(to_hex(i), 18, '0'), ${workspaceId}, 'person' || i || '@' || ${domain}, 'P' || i
      from generate_series(${offset + 1}::int, ${offset + count}::int) i`);
    await ctx.db.execute(sql`insert into subscriptions (id, workspace_id, contact_id, topic_id, state, source)
      select 'sub_' || ${prefix} || lpad(to_hex(i), 18, '0'), ${workspaceId}, 'ct_' || ${prefix} || lpad(to_hex(i), 18, '0'), ${topicId}, 'subscribed', 'api'
      from generate_series(${offset + 1}::int, ${offset + count}::int) i`);
    offset += count;
  }
  const { campaignId } = await createCampaign(ctx, systemActor("test", workspaceId), {
    brandId,
    topicId,
    name: "Providers",
    subject: "Hello {{contact.first_name}}",
    html: "<p>Hello {{contact.first_name}}</p>",
  });
  await ctx.db.update(campaigns).set({ status: "sending" }).where(eq(campaigns.id, campaignId));
  await classifyCampaignDomains(ctx, campaignId, async () => {
    throw Object.assign(new Error("no DNS in this test"), { code: "ECONNREFUSED" });
  });
  await snapshotAudience(ctx, campaignId);
  return { workspaceId, campaignId, topicId };
}
