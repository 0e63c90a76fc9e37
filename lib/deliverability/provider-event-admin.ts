import "server-only";

import { and, desc, eq, type SQL } from "drizzle-orm";

import { withTransaction, type Ctx } from "@/lib/context";
import { providerEvents, type ProviderEventState } from "@/lib/db/schema";
import { notFound, validationFailed } from "@/lib/errors";
import { emitEvents } from "@/lib/events/emit-events";
import { providerEventReceived } from "@/lib/events/workflow-events";

/** For operators: stored provider reports, newest first, by state (`failed` ones need a look). */
export async function listProviderEvents(ctx: Ctx, filter: { state?: ProviderEventState; limit: number }) {
  const where: SQL | undefined = filter.state ? eq(providerEvents.state, filter.state) : undefined;
  return ctx.db
    .select({
      id: providerEvents.id,
      provider: providerEvents.provider,
      providerEventId: providerEvents.providerEventId,
      state: providerEvents.state,
      workspaceId: providerEvents.workspaceId,
      attempts: providerEvents.attempts,
      lastError: providerEvents.lastError,
      receivedAt: providerEvents.receivedAt,
      appliedAt: providerEvents.appliedAt,
      event: providerEvents.event,
    })
    .from(providerEvents)
    .where(where)
    .orderBy(desc(providerEvents.receivedAt))
    .limit(filter.limit);
}

/** Once the cause of a failure is fixed: the report goes back to `received` and is applied again. */
export async function retryProviderEvent(ctx: Ctx, id: string): Promise<void> {
  await withTransaction(ctx, async (tx) => {
    const [row] = await tx.db
      .select({ state: providerEvents.state })
      .from(providerEvents)
      .where(eq(providerEvents.id, id))
      .for("update");
    if (!row) throw notFound("provider_event_not_found", `No provider event ${id}.`);
    if (row.state !== "failed")
      throw validationFailed("id", `id: only a failed event is retried; this one is ${row.state}.`);
    await tx.db
      .update(providerEvents)
      .set({ state: "received" })
      .where(and(eq(providerEvents.id, id), eq(providerEvents.state, "failed")));
    await emitEvents(tx, [
      {
        name: providerEventReceived.name,
        id: `${id}-retry-${tx.clock.now().getTime()}`,
        data: { providerEventId: id },
      },
    ]);
  });
}
