import "server-only";

import type { Ctx } from "@/lib/context";
import { confirmationRequests } from "@/lib/db/schema";
import { emitEvents } from "@/lib/events/emit-events";
import { confirmationRequested, type WorkflowEvent } from "@/lib/events/workflow-events";
import { newId } from "@/lib/ids";

/**
 * Records that a confirmation mail is wanted for a pending subscription and
 * starts the workflow that mails it, in the caller's transaction: a recorded
 * request is never left unmailed. The workflow applies the windows.
 */
export async function recordConfirmationRequest(
  ctx: Ctx,
  request: { workspaceId: string; subscriptionId: string; email: string },
): Promise<string> {
  const requestId = newId("cfr");
  await ctx.db.insert(confirmationRequests).values({ id: requestId, ...request, requestedAt: ctx.clock.now() });
  await emitConfirmationRequested(ctx, requestId);
  return requestId;
}

export function emitConfirmationRequested(ctx: Ctx, requestId: string): Promise<void> {
  return emitEvents(ctx, [confirmationRequestedEvent(requestId)]);
}

/** The event that starts the confirmation workflow of a recorded request (its id: one run per request). */
export function confirmationRequestedEvent(requestId: string): WorkflowEvent {
  return { name: confirmationRequested.name, id: requestId, data: { requestId } };
}
