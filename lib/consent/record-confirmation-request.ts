import "server-only";

import { sql, type SQL } from "drizzle-orm";

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
  await ctx.db.execute(
    insertConfirmationRequestSql(
      sql`select ${requestId}, ${request.workspaceId}, ${request.subscriptionId}, ${request.email}, ${ctx.clock.now().toISOString()}::timestamptz`,
    ),
  );
  await emitConfirmationRequested(ctx, requestId);
  return requestId;
}

/**
 * The one place a confirmation request row is written, as SQL for the statement that also writes
 * what it confirms (the signup's pending subscription): `row` selects its id, workspace id,
 * subscription id, address and the instant it was requested, in that order. Whoever writes it
 * starts its workflow in the same transaction (emitConfirmationRequested) or the same statement
 * (emitEventsWithin), so a recorded request is never left unmailed.
 */
export function insertConfirmationRequestSql(row: SQL): SQL {
  return sql`insert into ${confirmationRequests} (id, workspace_id, subscription_id, email, requested_at) ${row}`;
}

export function emitConfirmationRequested(ctx: Ctx, requestId: string): Promise<void> {
  return emitEvents(ctx, [confirmationRequestedEvent(requestId)]);
}

/** The event that starts the confirmation workflow of a recorded request (its id: one run per request). */
export function confirmationRequestedEvent(requestId: string): WorkflowEvent {
  return { name: confirmationRequested.name, id: requestId, data: { requestId } };
}
