import type { SQL } from "drizzle-orm";

import type { Ctx } from "@/lib/context";
import { setEventEmitter } from "@/lib/events/emit-events";
import { workflowsAreEmbedded } from "@/lib/runtime/workflow-mode";

import { inngest } from "./client";
import { enqueueEvents, enqueueEventsWithin, type OutgoingEvent } from "./embedded/enqueue";
import { registerFunctions } from "./embedded/registry";

let registry: ReturnType<typeof registerFunctions> | undefined;

/**
 * Starts workflows for events. Embedded: the runs are written in the
 * caller's transaction, so the change and its workflow commit together.
 * With an Inngest server: sent to it (a rolled-back change then meets
 * functions that find nothing to do, which they treat as done).
 */
async function emitToWorkflows(ctx: Ctx, events: OutgoingEvent[]): Promise<void> {
  if (!workflowsAreEmbedded()) {
    await inngest.send(
      events.map((event) => ({
        name: event.name,
        data: (event.data ?? {}) as Record<string, unknown>,
        id: event.id,
        ts: event.ts,
      })),
    );
    return;
  }
  // The functions are loaded on the first emit rather than imported: they import most of the domain
  // code, which a process that connects its events but never emits (a script, a test) need not load.
  registry ??= registerFunctions(inngest, (await import("./index")).functions);
  await enqueueEvents(ctx, registry, events);
}

/** Embedded: the runs as part of the caller's statement (enqueueEventsWithin). With an Inngest server: null, the caller emits. */
async function startWithin(ctx: Ctx, events: OutgoingEvent[], when: SQL): Promise<SQL | null> {
  if (!workflowsAreEmbedded()) return null;
  registry ??= registerFunctions(inngest, (await import("./index")).functions);
  return enqueueEventsWithin(ctx, registry, events, when);
}

/** At a process's start: the events domain verbs emit (lib/events) start these workflows. */
export function connectWorkflowEvents(): void {
  setEventEmitter(emitToWorkflows, startWithin);
}
