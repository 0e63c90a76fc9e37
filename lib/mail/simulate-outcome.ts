import "server-only";
import { and, eq } from "drizzle-orm";
import { inActorWorkspace, type Actor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { mailMessages } from "@/lib/db/schema";
import { applyDeliveryOutcome, type DeliveryOutcome } from "@/lib/deliverability/apply-delivery-outcome";
import { recordProviderEvent } from "@/lib/deliverability/record-provider-event";
import { notFound } from "@/lib/errors";

/**
 * The local mailbox stands in for a provider: its buttons (and `mailbox:event`)
 * report what a real provider would, through the same code path. A message of
 * another workspace than the actor's is not found.
 */
export async function simulateOutcome(ctx: Ctx, actor: Actor, messageId: string, outcome: DeliveryOutcome): Promise<{ workspaceId: string | null; suppressed: boolean }> {
  const [message] = await ctx.db
    .select()
    .from(mailMessages)
    .where(and(eq(mailMessages.id, messageId), inActorWorkspace(actor, mailMessages.workspaceId)));
  if (!message) throw notFound("message_not_found", `No message ${messageId} in the local mailbox.`);
  if (!message.workspaceId) return { workspaceId: null, suppressed: false };
  // Campaign mail is keyed by its send id: the outcome is the send's, with its email.* event.
  const recorded = await recordProviderEvent(ctx, { ...outcome, sendId: message.idempotencyKey, occurredAt: ctx.clock.now() });
  if (recorded.matched) return { workspaceId: message.workspaceId, suppressed: recorded.suppressed };
  const { suppressed } = await applyDeliveryOutcome(ctx, message.workspaceId, message.toAddress, outcome);
  return { workspaceId: message.workspaceId, suppressed };
}
