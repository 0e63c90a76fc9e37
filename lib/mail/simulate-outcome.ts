import "server-only";

import { and, eq } from "drizzle-orm";

import { inActorWorkspace, type Actor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { mailMessages } from "@/lib/db/schema";
import type { DeliveryOutcome } from "@/lib/deliverability/apply-delivery-outcome";
import { applyProviderEvent } from "@/lib/deliverability/apply-provider-event";
import { receiveProviderEvent } from "@/lib/deliverability/receive-provider-event";
import { notFound } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { checkWorkspaceWritable } from "@/lib/workspaces/check-workspace-writable";

/**
 * The local mailbox stands in for a provider: its buttons (and `mailbox:event`)
 * report what a real provider would, through the same path: the report is
 * stored, then applied. It is applied here at once, so the person clicking
 * sees the result; the workflow started by storing it finds it done (or
 * retries it if applying failed). Each click is a new report. A message of
 * another workspace than the actor's is not found; a read-only or deleted
 * workspace reports nothing (team_inactive).
 */
export async function simulateOutcome(
  ctx: Ctx,
  actor: Actor,
  messageId: string,
  outcome: DeliveryOutcome,
): Promise<{ workspaceId: string | null; suppressed: boolean }> {
  const [message] = await ctx.db
    .select()
    .from(mailMessages)
    .where(and(eq(mailMessages.id, messageId), inActorWorkspace(actor, mailMessages.workspaceId)));
  // The service's own mail is no workspace's audience: a member reports nothing for it (nor learns it exists).
  if (!message || (message.serviceMail && actor.kind !== "system"))
    throw notFound("message_not_found", `No message ${messageId} in the local mailbox.`);
  if (!message.workspaceId || message.serviceMail) return { workspaceId: null, suppressed: false };
  // A report from these buttons is the workspace's own act (it suppresses addresses): an inactive workspace makes none.
  await checkWorkspaceWritable(ctx, message.workspaceId);
  // Campaign mail is keyed by its send id (the outcome is the send's, with its email.* event); other mail by its address.
  const event = {
    ...outcome,
    sendId: message.idempotencyKey,
    occurredAt: ctx.clock.now(),
    address: { workspaceId: message.workspaceId, email: message.toAddress },
  };
  const { id } = await receiveProviderEvent(ctx, {
    provider: "local",
    providerEventId: newId("pev"),
    raw: JSON.stringify({ message_id: message.id, ...outcome }),
    event,
  });
  const { suppressed } = await applyProviderEvent(ctx, id!, { lastAttempt: false });
  return { workspaceId: message.workspaceId, suppressed };
}
