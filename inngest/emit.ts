import type { Ctx } from "@/lib/context";
import { inngest } from "./client";
import { enqueueEvents, type OutgoingEvent } from "./embedded/enqueue";
import { registerFunctions } from "./embedded/registry";
import { workflowsAreEmbedded } from "@/lib/runtime/workflow-mode";

let registry: ReturnType<typeof registerFunctions> | undefined;

/**
 * Starts workflows for events. Embedded: the runs are written in the
 * caller's transaction, so the change and its workflow commit together.
 * With an Inngest server: sent to it (a rolled-back change then meets
 * functions that find nothing to do, which they treat as done).
 */
export async function emitEvents(ctx: Ctx, events: OutgoingEvent[]): Promise<void> {
  if (!workflowsAreEmbedded()) {
    await inngest.send(events.map((event) => ({ name: event.name, data: (event.data ?? {}) as Record<string, unknown>, id: event.id, ts: event.ts })));
    return;
  }
  // The functions are loaded on the first emit rather than imported: they import the domain code that
  // emits events, and a static import would make every emitter depend on every function (a cycle).
  registry ??= registerFunctions(inngest, (await import("./index")).functions);
  await enqueueEvents(ctx, registry, events);
}
