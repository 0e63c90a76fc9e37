import "server-only";

import { sql } from "drizzle-orm";

import { withTransaction, type Ctx } from "@/lib/context";
import { idArray } from "@/lib/db/id-array";
import { sends } from "@/lib/db/schema";
import type { MailboxProvider } from "@/lib/deliverability/mailbox-provider";

import type { BatchFailure } from "./build-batch";
import type { Campaign } from "./claim-batch";
import { slowProvider } from "./provider-pacing";
import { recordFailures } from "./record-batch";

/**
 * How long a send waits after its n-th temporary refusal, in minutes. After the last one it is not
 * tried again: the provider has refused it for about ten hours.
 */
export const DEFERRAL_MINUTES = [1, 5, 15, 60, 180, 360] as const;
/** The failure reason of a send refused every time it was tried. */
export const REFUSED_TOO_LONG = "refused_temporarily";

export interface TemporaryRefusal {
  id: string;
  contactId: string;
  email: string;
  provider: MailboxProvider;
  code: number;
  response: string;
}

/**
 * Temporary refusals (SMTP 421/450/451/454, a provider's "slow down"): each send goes back to `queued`
 * with `not_before` set by how often it was refused already (1 min, 5, 15, 60, 180, then 360), and
 * after the last delay fails with `refused_temporarily`, refunded and announced like any send that
 * never left. Never a bounce: nothing is suppressed, no bounce is counted. Each provider that refused
 * in this batch is slowed (provider-pacing.ts).
 */
export async function deferSends(ctx: Ctx, campaign: Campaign, refusals: TemporaryRefusal[]): Promise<void> {
  if (refusals.length === 0) return;
  const now = ctx.clock.now();
  await withTransaction(ctx, async (tx) => {
    // Only sends still this batch's: one cancelled meanwhile stays cancelled.
    const held = await tx.db.execute<{ id: string; deferrals: number }>(sql`
      select id, deferrals from ${sends} where id = any(${idArray(refusals.map((r) => r.id))}) and state = 'sending' for update`);
    const tries = new Map(held.map((row) => [row.id, Number(row.deferrals)]));
    const again = refusals.filter((r) => tries.has(r.id) && tries.get(r.id)! < DEFERRAL_MINUTES.length);
    if (again.length > 0)
      await tx.db.execute(sql`
        update ${sends} set state = 'queued', claimed_by = null, deferrals = deferrals + 1,
          not_before = ${now.toISOString()}::timestamptz + make_interval(mins => (${`{${DEFERRAL_MINUTES.join(",")}}`}::int[])[deferrals + 1]),
          failure_reason = v.reason, updated_at = ${now.toISOString()}
        from json_to_recordset(${JSON.stringify(again.map((r) => ({ id: r.id, reason: `${r.code} ${r.response}`.slice(0, 300) })))}::json)
          as v(id text, reason text)
        where ${sends}.id = v.id`);
    const exhausted: BatchFailure[] = refusals
      .filter((r) => tries.has(r.id) && tries.get(r.id)! >= DEFERRAL_MINUTES.length)
      .map((r) => ({ id: r.id, contactId: r.contactId, email: r.email, reason: REFUSED_TOO_LONG }));
    await recordFailures(tx, campaign, exhausted);
    const byProvider = new Map<MailboxProvider, number>();
    // A message whose connection was lost under it (code 0) was refused by nobody: its provider keeps its pace.
    for (const refusal of refusals.filter((r) => r.code >= 400))
      byProvider.set(refusal.provider, (byProvider.get(refusal.provider) ?? 0) + 1);
    for (const [provider, count] of byProvider) await slowProvider(tx, campaign.workspaceId, provider, count, now);
  });
}
