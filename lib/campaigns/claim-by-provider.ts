import "server-only";

import { sql } from "drizzle-orm";

import type { Ctx } from "@/lib/context";
import { idArray } from "@/lib/db/id-array";
import { sends } from "@/lib/db/schema";
import { MAILBOX_PROVIDERS, type MailboxProvider } from "@/lib/deliverability/mailbox-provider";

import { notHeldForAbWinner } from "./ab-test-dispatch";
import type { BatchRequest, Campaign, ClaimedSend } from "./claim-batch";
import { claimStep, refilledAt, spendAllowances, takeAllowances } from "./provider-pacing";
import { sendsOfCampaign } from "./send-id-range";

/**
 * Rows a claim locks and looks at after its first window (a batch's size, all taken when every
 * provider has room): twice a batch at a time, to fill it past a provider whose bucket is empty.
 */
const WINDOW_PER_BATCH = 2;

/**
 * The sends a batch takes, provider by provider: walking the campaign's key range from `after` in
 * windows, a send is taken while its provider's bucket has room (provider-pacing.ts) and its
 * `not_before` has passed; the others are stepped over and found on a later walk. So a provider that
 * is out of budget or refusing never holds back the rest. The run's own `sending` rows (a batch cut
 * short by a crash) and rows abandoned for `abandonedBefore` are taken whatever the budget: they were
 * counted when first claimed. `fresh` counts the queued sends taken (what a warm-up cap counts). When
 * nothing can be taken now but sends are waiting, `wakeAt` says when the first of them may go.
 */
export async function claimByProvider(
  ctx: Ctx,
  campaign: Campaign,
  request: BatchRequest,
  abandonedBefore: Date,
): Promise<{ rows: ClaimedSend[]; fresh: number; wakeAt: Date | null }> {
  const now = ctx.clock.now();
  const allowances = await takeAllowances(ctx, campaign.workspaceId, now);
  const room = {} as Record<MailboxProvider, number>;
  // A provider whose bucket holds less than a step waits for one (provider-pacing.ts claimStep).
  for (const provider of MAILBOX_PROVIDERS) {
    const tokens = Math.floor(allowances.tokens[provider]);
    room[provider] = tokens >= claimStep(allowances, provider, request.size) ? tokens : 0;
  }
  const picked: string[] = [];
  const taken: Partial<Record<MailboxProvider, number>> = {};
  const walk = async (start: string | null) => {
    let window = request.size;
    for (let from = start; picked.length < request.size; window = request.size * WINDOW_PER_BATCH) {
      const rows = await ctx.db.execute<{ id: string; provider: MailboxProvider | null; state: string }>(sql`
        select id, provider, state from ${sends}
        where ${sendsOfCampaign(campaign)} ${from ? sql`and ${sends.id} > ${from}` : sql``}
          and ((state = 'queued' and (not_before is null or not_before <= ${now.toISOString()}::timestamptz))
               or (state = 'sending' and (claimed_by = ${request.claimant} or updated_at < ${abandonedBefore.toISOString()}::timestamptz)))
          ${notHeldForAbWinner(campaign)}
        order by id
        limit ${window}
        for update skip locked`);
      for (const row of rows) {
        if (picked.length >= request.size) break;
        const provider = row.provider ?? "other";
        if (row.state === "queued") {
          if (room[provider] < 1) continue;
          room[provider]--;
          taken[provider] = (taken[provider] ?? 0) + 1;
        }
        picked.push(row.id);
      }
      if (rows.length < window) return;
      from = rows.at(-1)!.id;
    }
  };
  await walk(request.after);
  // Past the end: what was stepped over, or taken back since, lies before the cursor.
  if (picked.length === 0 && request.after !== null) await walk(null);
  await spendAllowances(ctx, allowances, taken);
  if (picked.length > 0) {
    const rows = await ctx.db.execute<ClaimedSend>(sql`
      update ${sends} set state = 'sending', claimed_by = ${request.claimant}, updated_at = ${now.toISOString()}
      where id = any(${idArray(picked)})
      returning id, contact_id, email, coalesce(provider, 'other') as provider, ab_variant`);
    const fresh = Object.values(taken).reduce((sum, n) => sum + n, 0);
    // In key order, as they were picked: an UPDATE returns its rows in no promised order.
    const inOrder = [...rows].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return { rows: inOrder, fresh, wakeAt: null };
  }
  // Nothing to take now: when does the first waiting send become takeable, its provider's bucket refilled or its delay over?
  const waiting = await ctx.db.execute<{ provider: MailboxProvider; due: number; next: string | null }>(sql`
    select coalesce(provider, 'other') as provider,
           count(*) filter (where not_before is null or not_before <= ${now.toISOString()}::timestamptz)::int as due,
           min(not_before) filter (where not_before > ${now.toISOString()}::timestamptz) as next
    from ${sends} where ${sendsOfCampaign(campaign)} and state = 'queued' ${notHeldForAbWinner(campaign)}
    group by 1`);
  const times = waiting.map((row) =>
    row.due > 0 ? refilledAt(allowances, row.provider, request.size) : new Date(row.next!),
  );
  // At least a second on: sends stepped over only because another claim had them locked are not waited for in a spin.
  const wakeAt =
    times.length === 0
      ? null
      : new Date(Math.max(now.getTime() + 1000, Math.min(...times.map((time) => time.getTime()))));
  return { rows: [], fresh: 0, wakeAt };
}
