import type { Ctx } from "@/lib/context";
import type { MailTransport } from "@/lib/mail/transports/mail-transport";

import { buildBatch } from "./build-batch";
import { claimBatch, type BatchRequest } from "./claim-batch";
import { deferSends } from "./defer-sends";
import { cancelErasedSends, recordFailures, sendAndRecord } from "./record-batch";

export interface BatchResult {
  sent: number;
  failed: number;
  /** Where the next batch starts: the last send id this one took; null when nothing was left to take. */
  next: string | null;
  /**
   * When nothing was left to take: whether another run still holds some of the campaign's sends (a
   * batch in flight, or one whose run died, taken over once abandoned). The campaign is not done until
   * no run does.
   */
  heldElsewhere: boolean;
  /**
   * When nothing was left to take now but sends wait for their provider's pace or their retry after a
   * temporary refusal: when the first may go (ISO time). Dispatch sleeps until then.
   */
  wakeAt: string | null;
  /** Set when the campaign is no longer sending (paused, cancelled) or its brand is held for review: dispatch stops between batches. */
  stopped: string | null;
}

/**
 * Sends the next batch of a campaign: the first sends after `after` in the
 * campaign's key range (see send-id-range.ts), or from its start when
 * `after` is null or nothing is left after it. Claim (queued → sending, in
 * one transaction), build (render, or fail with a reason), record (failures
 * refunded and announced; messages handed over, then accepted). A batch
 * interrupted by a crash is claimed again by the same run and sent again
 * under the same send ids. A recipient missing a used merge tag, not
 * verified while the workspace is in review, or suppressed since the
 * snapshot becomes a `failed` send that is not counted. A message the
 * receiving server refuses for now (421, 450, 451, 454, "slow down") goes
 * back to the queue with a growing delay and slows its provider
 * (defer-sends.ts); one it refuses for good fails with `refused:<code>`.
 */
export async function sendNextBatch(ctx: Ctx, transport: MailTransport, request: BatchRequest): Promise<BatchResult> {
  const claim = await claimBatch(ctx, request);
  if ("stopped" in claim)
    return { sent: 0, failed: 0, next: null, heldElsewhere: false, wakeAt: null, stopped: claim.stopped };
  const { campaign, rows, heldElsewhere, wakeAt } = claim;
  if (rows.length === 0)
    return { sent: 0, failed: 0, next: null, heldElsewhere, wakeAt: wakeAt?.toISOString() ?? null, stopped: null };
  const { messages, failures, erased } = await buildBatch(ctx, campaign, rows);
  await cancelErasedSends(ctx, campaign, erased);
  await recordFailures(ctx, campaign, failures);
  const refused = await sendAndRecord(ctx, transport, messages);
  // Refused by the receiving server: put back to try later, or failed when the refusal is permanent.
  const byId = new Map(rows.map((row) => [row.id, row]));
  const answered = refused.map(({ id, refused }) => {
    const row = byId.get(id)!;
    return { id, contactId: row.contact_id, email: row.email, provider: row.provider, ...refused };
  });
  await deferSends(
    ctx,
    campaign,
    answered.filter((refusal) => refusal.temporary),
  );
  const rejected = answered
    .filter((refusal) => !refusal.temporary)
    .map((refusal) => ({ ...refusal, reason: `refused:${refusal.code}` }));
  await recordFailures(ctx, campaign, rejected);
  const last = rows.reduce((max, row) => (row.id > max ? row.id : max), rows[0]!.id);
  return {
    sent: messages.length - refused.length,
    failed: failures.length + rejected.length,
    next: last,
    heldElsewhere: false,
    wakeAt: null,
    stopped: null,
  };
}
