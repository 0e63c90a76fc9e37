import "server-only";

import { and, eq, sql } from "drizzle-orm";

import { inActorWorkspace, type Actor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { campaigns, providerPaces, sends } from "@/lib/db/schema";
import { MAILBOX_PROVIDERS, PROVIDER_LABELS, type MailboxProvider } from "@/lib/deliverability/mailbox-provider";
import { notFound } from "@/lib/errors";

import { rateAt, slowdownAt } from "./provider-pacing";
import { sendsOfCampaign } from "./send-id-range";

export interface ProviderProgress {
  provider: MailboxProvider;
  label: string;
  recipients: number;
  accepted: number;
  /** Queued and free to go as the pace allows. */
  queued: number;
  /** Put back after a temporary refusal, waiting until `retryAt` (the earliest). */
  deferred: number;
  retryAt: Date | null;
  failed: number;
  /** Sends per minute at this moment, and whether refusals have slowed it. */
  rate: number;
  slowed: boolean;
}

/**
 * A started campaign's recipients per mailbox provider: how many went, wait, or were put back after
 * a temporary refusal and when they are tried again, beside each provider's pace now. One pass over
 * the campaign's sends: the campaign page streams it in rather than polling it.
 */
export async function getProviderProgressOrThrow(
  ctx: Ctx,
  actor: Actor,
  campaignId: string,
): Promise<ProviderProgress[]> {
  const [campaign] = await ctx.db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.id, campaignId), inActorWorkspace(actor, campaigns.workspaceId)));
  if (!campaign) throw notFound("campaign_not_found", `No campaign ${campaignId}.`);
  if (campaign.recipientCount === null) return [];
  const now = ctx.clock.now();
  const [rows, paces] = await Promise.all([
    ctx.db.execute<{
      provider: MailboxProvider;
      recipients: number;
      accepted: number;
      queued: number;
      deferred: number;
      retry_at: string | null;
      failed: number;
    }>(sql`
      select coalesce(provider, 'other') as provider, count(*)::int as recipients,
             count(*) filter (where state = 'accepted')::int as accepted,
             count(*) filter (where state in ('queued', 'sending') and (not_before is null or not_before <= ${now.toISOString()}::timestamptz or deferrals = 0))::int as queued,
             -- Waiting for a retry after a refusal; a send waiting for its local-time slice (due_at) is queued.
             count(*) filter (where state = 'queued' and not_before > ${now.toISOString()}::timestamptz and deferrals > 0)::int as deferred,
             min(not_before) filter (where state = 'queued' and not_before > ${now.toISOString()}::timestamptz and deferrals > 0) as retry_at,
             count(*) filter (where state = 'failed')::int as failed
      from ${sends} where ${sendsOfCampaign(campaign)}
      group by 1`),
    ctx.db.select().from(providerPaces).where(eq(providerPaces.workspaceId, campaign.workspaceId)),
  ]);
  const byProvider = new Map(rows.map((row) => [row.provider, row]));
  const paceOf = new Map(paces.map((pace) => [pace.provider, pace]));
  return MAILBOX_PROVIDERS.filter((provider) => byProvider.has(provider)).map((provider) => {
    const row = byProvider.get(provider)!;
    const pace = paceOf.get(provider);
    return {
      provider,
      label: PROVIDER_LABELS[provider],
      recipients: Number(row.recipients),
      accepted: Number(row.accepted),
      queued: Number(row.queued),
      deferred: Number(row.deferred),
      retryAt: row.retry_at ? new Date(row.retry_at) : null,
      failed: Number(row.failed),
      rate: Math.round(rateAt(provider, pace, now)),
      slowed: slowdownAt(pace, now) < 1,
    };
  });
}
