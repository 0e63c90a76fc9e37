import "server-only";

import { stringify } from "csv-stringify/sync";
import { and, eq, sql } from "drizzle-orm";

import { inActorWorkspace, type Actor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { campaigns, sends } from "@/lib/db/schema";
import { notFound } from "@/lib/errors";

import { notSentReason } from "./not-sent-reasons";
import { sendsOfCampaign } from "./send-id-range";

const BATCH = 10_000;

/**
 * Every recipient a campaign was not sent to, as CSV in send order: the address, the reason's code,
 * whether a rule left them out or sending failed, the reason in words and what to do about it.
 * Walks the campaign's range of the sends key in batches, so a large campaign streams.
 */
export async function* notSentCsv(ctx: Ctx, actor: Actor, campaignId: string): AsyncGenerator<string> {
  const [campaign] = await ctx.db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.id, campaignId), inActorWorkspace(actor, campaigns.workspaceId)));
  if (!campaign) throw notFound("campaign_not_found", `No campaign ${campaignId}.`);
  yield stringify([["email", "reason", "kind", "detail", "what_to_do"]]);
  let after = "";
  for (;;) {
    const rows = await ctx.db
      .select({ id: sends.id, email: sends.email, reason: sends.failureReason })
      .from(sends)
      .where(and(sendsOfCampaign(campaign), eq(sends.state, "failed"), sql`${sends.id} > ${after}`))
      .orderBy(sends.id)
      .limit(BATCH);
    if (rows.length === 0) return;
    yield stringify(
      rows.map((row) => {
        const reason = notSentReason(row.reason ?? "");
        return [
          row.email,
          row.reason ?? "",
          reason.byRule ? "not sent by a rule" : "failed",
          reason.label,
          reason.fix ?? "",
        ];
      }),
      { escape_formulas: true },
    );
    after = rows.at(-1)!.id;
  }
}
