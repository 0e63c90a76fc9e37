import "server-only";

import { eq, sql } from "drizzle-orm";

import { withTransaction, type Ctx } from "@/lib/context";
import { providerEvents, type ProviderEventState } from "@/lib/db/schema";

import { applyDeliveryOutcome } from "./apply-delivery-outcome";
import { recordProviderEvent, type ProviderEvent } from "./record-provider-event";

/**
 * Applies one stored provider report, once: the outcome on its send (or, for
 * other mail, on its address), the suppression it calls for with the report
 * as evidence, contact status, counters and the email.* webhook, then marks
 * it applied in the same transaction. A failure is recorded on the row and
 * thrown for the workflow to retry; after the last attempt the row is left
 * `failed` for an operator (`provider-events:list --state failed`).
 */
export async function applyProviderEvent(
  ctx: Ctx,
  providerEventId: string,
  options: { lastAttempt: boolean },
): Promise<{ state: ProviderEventState; suppressed: boolean }> {
  try {
    return await withTransaction(ctx, async (tx) => {
      const [row] = await tx.db
        .select()
        .from(providerEvents)
        .where(eq(providerEvents.id, providerEventId))
        .for("update");
      if (!row || row.state !== "received" || !row.event) return { state: row?.state ?? "ignored", suppressed: false };
      // Written by receiveProviderEvent from a ProviderEvent: the same shape with its date as text.
      const event = { ...row.event, occurredAt: new Date(row.event.occurredAt) } as ProviderEvent;
      const recorded = await recordProviderEvent(tx, event, row.id);
      let workspaceId = recorded.workspaceId ?? null;
      let suppressed = recorded.suppressed;
      if (!recorded.matched && event.address) {
        ({ suppressed } = await applyDeliveryOutcome(
          tx,
          event.address.workspaceId,
          event.address.email,
          event,
          row.id,
        ));
        workspaceId = event.address.workspaceId;
      }
      const state: ProviderEventState = workspaceId ? "applied" : "ignored";
      await tx.db
        .update(providerEvents)
        .set({
          state,
          workspaceId,
          appliedAt: tx.clock.now(),
          attempts: sql`${providerEvents.attempts} + 1`,
          lastError: null,
        })
        .where(eq(providerEvents.id, row.id));
      return { state, suppressed };
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await ctx.db
      .update(providerEvents)
      .set({
        attempts: sql`${providerEvents.attempts} + 1`,
        lastError: message.slice(0, 2000),
        ...(options.lastAttempt ? { state: "failed" as const } : {}),
      })
      .where(eq(providerEvents.id, providerEventId))
      .catch(() => {}); // the database may be what failed: the workflow's own record of the attempt remains
    throw error;
  }
}
