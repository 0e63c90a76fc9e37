import "server-only";

import type { Ctx } from "@/lib/context";

import type { WorkflowEvent } from "./workflow-events";

/** Starts the workflows of these events; embedded, in the caller's transaction. */
export type EmitEvents = (ctx: Ctx, events: WorkflowEvent[]) => Promise<void>;

// On globalThis, not in this module: Next.js loads instrumentation.ts, which hands the emitter over,
// and the routes and actions that emit in bundles of their own, each with its own copy of this module.
const EMITTER = Symbol.for("mailservice.emitEvents");
type WithEmitter = typeof globalThis & { [EMITTER]?: EmitEvents };

/**
 * Where this process's events go, handed over at its start by the code that knows the workflows
 * (connectWorkflowEvents in inngest/emit.ts): lib/ names the events, never the workflow engine.
 */
export function setEventEmitter(emit: EmitEvents): void {
  (globalThis as WithEmitter)[EMITTER] = emit;
}

/** Starts the workflows of these events through the emitter handed over at start. */
export async function emitEvents(ctx: Ctx, events: WorkflowEvent[]): Promise<void> {
  const emit = (globalThis as WithEmitter)[EMITTER];
  if (!emit)
    throw new Error("events emitted before this process connected its workflows (connectWorkflowEvents at start)");
  await emit(ctx, events);
}
