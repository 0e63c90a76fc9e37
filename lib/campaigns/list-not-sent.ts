import "server-only";

import { and, eq, sql } from "drizzle-orm";

import { inActorWorkspace, type Actor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { campaigns, sends } from "@/lib/db/schema";
import { notFound } from "@/lib/errors";

export const NOT_SENT_PER_PAGE = 50;

export interface NotSentPage {
  rows: { email: string; reason: string }[];
  /** Every recipient not sent to, on all pages. */
  total: number;
  page: number;
  pages: number;
}

/** One page of the recipients a campaign was not sent to, by address, with the reason of each. */
export async function listNotSent(ctx: Ctx, actor: Actor, campaignId: string, page: number): Promise<NotSentPage> {
  const [campaign] = await ctx.db
    .select({ id: campaigns.id })
    .from(campaigns)
    .where(and(eq(campaigns.id, campaignId), inActorWorkspace(actor, campaigns.workspaceId)));
  if (!campaign) throw notFound("campaign_not_found", `No campaign ${campaignId}.`);
  const failed = and(eq(sends.campaignId, campaignId), eq(sends.state, "failed"));
  const [counted] = await ctx.db
    .select({ total: sql<number>`count(*)::int` })
    .from(sends)
    .where(failed);
  const total = Number(counted?.total ?? 0);
  const pages = Math.max(1, Math.ceil(total / NOT_SENT_PER_PAGE));
  const current = Math.min(Math.max(1, Math.floor(page) || 1), pages);
  const rows = await ctx.db
    .select({ email: sends.email, reason: sends.failureReason })
    .from(sends)
    .where(failed)
    .orderBy(sends.email, sends.id)
    .limit(NOT_SENT_PER_PAGE)
    .offset((current - 1) * NOT_SENT_PER_PAGE);
  return { rows: rows.map((row) => ({ email: row.email, reason: row.reason ?? "" })), total, page: current, pages };
}
