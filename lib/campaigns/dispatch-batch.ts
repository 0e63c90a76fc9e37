import "server-only";

import type { Ctx } from "@/lib/context";
import { guardCampaign } from "@/lib/deliverability/guard-campaign";
import type { MailTransport } from "@/lib/mail/transports/mail-transport";

import type { BatchRequest } from "./claim-batch";
import { sendNextBatch, type BatchResult } from "./send-batch";
import { checkWarmUpAllowance } from "./warm-up-wait";

export interface DispatchBatchRequest extends BatchRequest {
  /** Whether the previous batch handed mail over: the guardrail judges it before this batch is claimed. */
  guard: boolean;
}

export interface DispatchBatchResult extends BatchResult {
  /** Set when the domain's warm-up cap for the day is used and sends are left: dispatch sleeps until then (ISO time). */
  warmUpUntil: string | null;
}

/**
 * System: one step of a campaign's dispatch. The guardrail first (guard-campaign.ts), on the mail the
 * previous batch handed over: a pause it makes is found by this batch's claim, which then stops. Then
 * what the domain's warm-up still allows today (warm-up-wait.ts), then the batch itself. One workflow
 * step rather than three: each step is a round trip through the workflow engine, and a campaign of a
 * million has two thousand batches. A retried step runs the guardrail again (it pauses once) and takes
 * its own claimed sends back first (claim-batch.ts), so nothing is sent twice.
 */
export async function dispatchBatch(
  ctx: Ctx,
  transport: MailTransport,
  request: DispatchBatchRequest,
): Promise<DispatchBatchResult> {
  if (request.guard) await guardCampaign(ctx, request.campaignId);
  const warmUp = await checkWarmUpAllowance(ctx, request.campaignId);
  if (warmUp.waitUntil)
    return {
      sent: 0,
      failed: 0,
      next: request.after,
      heldElsewhere: false,
      wakeAt: null,
      stopped: null,
      warmUpUntil: warmUp.waitUntil,
    };
  const size = Math.min(request.size, warmUp.allowance ?? Infinity);
  const result = await sendNextBatch(ctx, transport, { ...request, size });
  return { ...result, warmUpUntil: null };
}
