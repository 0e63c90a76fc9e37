import type { Ctx } from "@/lib/context";
import type { MailTransport } from "@/lib/mail/transports/mail-transport";

import { buildBatch } from "./build-batch";
import { claimBatch, type BatchRequest } from "./claim-batch";
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
 * snapshot becomes a `failed` send that is not counted.
 */
export async function sendNextBatch(ctx: Ctx, transport: MailTransport, request: BatchRequest): Promise<BatchResult> {
  const claim = await claimBatch(ctx, request);
  if ("stopped" in claim) return { sent: 0, failed: 0, next: null, heldElsewhere: false, stopped: claim.stopped };
  const { campaign, rows, heldElsewhere } = claim;
  if (rows.length === 0) return { sent: 0, failed: 0, next: null, heldElsewhere, stopped: null };
  const { messages, failures, erased } = await buildBatch(ctx, campaign, rows);
  await cancelErasedSends(ctx, campaign, erased);
  await recordFailures(ctx, campaign, failures);
  await sendAndRecord(ctx, transport, messages);
  const last = rows.reduce((max, row) => (row.id > max ? row.id : max), rows[0]!.id);
  return { sent: messages.length, failed: failures.length, next: last, heldElsewhere: false, stopped: null };
}
