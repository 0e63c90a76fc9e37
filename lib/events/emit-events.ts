import "server-only";

import type { SQL } from "drizzle-orm";

import type { Ctx } from "@/lib/context";

import type { WorkflowEvent } from "./workflow-events";

/** Starts the workflows of these events; embedded, in the caller's transaction. */
export type EmitEvents = (ctx: Ctx, events: WorkflowEvent[]) => Promise<void>;

/**
 * The common table expressions that start these events' workflows inside a caller's statement, the
 * runs starting only if `when` holds as it runs (`, name as (…)` each, to follow the caller's own);
 * null where they cannot start that way (with an Inngest server), and the caller emits instead.
 */
export type EmitEventsWithin = (ctx: Ctx, events: WorkflowEvent[], when: SQL) => Promise<SQL | null>;

// On globalThis, not in this module: Next.js loads instrumentation.ts, which hands the emitter over,
// and the routes and actions that emit in bundles of their own, each with its own copy of this module.
const EMITTER = Symbol.for("mailservice.emitEvents");
const WITHIN = Symbol.for("mailservice.emitEventsWithin");
type WithEmitter = typeof globalThis & { [EMITTER]?: EmitEvents; [WITHIN]?: EmitEventsWithin };

/**
 * Where this process's events go, handed over at its start by the code that knows the workflows
 * (connectWorkflowEvents in inngest/emit.ts): lib/ names the events, never the workflow engine.
 * `within` is given where the workflows can start inside a caller's statement (embedded).
 */
export function setEventEmitter(emit: EmitEvents, within?: EmitEventsWithin): void {
  (globalThis as WithEmitter)[EMITTER] = emit;
  (globalThis as WithEmitter)[WITHIN] = within;
}

/** Starts the workflows of these events through the emitter handed over at start. */
export async function emitEvents(ctx: Ctx, events: WorkflowEvent[]): Promise<void> {
  const emit = (globalThis as WithEmitter)[EMITTER];
  if (!emit)
    throw new Error("events emitted before this process connected its workflows (connectWorkflowEvents at start)");
  await emit(ctx, events);
}

/**
 * The same as part of the caller's own statement (see EmitEventsWithin): one statement then writes a
 * change and starts its workflows, with no transaction around the two. Null: emit with emitEvents.
 */
export async function emitEventsWithin(ctx: Ctx, events: WorkflowEvent[], when: SQL): Promise<SQL | null> {
  const within = (globalThis as WithEmitter)[WITHIN];
  return within ? within(ctx, events, when) : null;
}
