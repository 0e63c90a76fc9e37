import "server-only";

import { and, eq } from "drizzle-orm";

import { canonicalTimeZone } from "@/lib/contacts/time-zone";
import { withTransaction, type Ctx } from "@/lib/context";
import { automationEntries, automations, automationVersions, contacts, topics, workspaces } from "@/lib/db/schema";

import { conditionHolds } from "./automation-conditions";
import type { AutomationStep, ExitReason } from "./automation-schemas";
import { placeSteps } from "./step-tree";
import { nextLocalTime } from "./wait-until";

// The entry's place in its version (docs/readings.md, "Automations", "The run"). The entry row is the
// one truth of where a person is: its version and step number. The run (inngest/functions/automation-entry.ts)
// asks for it at every step boundary, so a move to a newer version (move-entries.ts) is picked up there.
// System: called by the workflow with the entry id its event carries, never on a person's request.

/**
 * The step the entry is at, as the run keeps it in its log: its kind and what a wait needs, never a
 * mail's body or a contact's data (the event key of a wait is the contact's id and the event's name;
 * its brand, the automation's topic's, is the one a brand-locked key's event must name to wake it).
 */
export type RunStep =
  | { index: number; type: "send" | "list_add" | "list_remove" | "set_attribute" | "branch" | "exit" }
  | { index: number; type: "wait"; minutes: number }
  | { index: number; type: "wait_until"; until: string }
  | { index: number; type: "wait_for_event"; key: string; brandId: string; timeoutMinutes: number };

export type EntryPosition =
  | { at: RunStep }
  /** The entry ended here: it walked every step, or its exit condition held. */
  | { completed: true }
  | { exited: ExitReason }
  /** No longer active (ended by another run, or gone). */
  | { ended: true };

type EntryRow = typeof automationEntries.$inferSelect;

/** The entry, locked for the caller's transaction, with what a step needs of its automation and version. */
export async function lockEntry(ctx: Ctx, entryId: string) {
  const [row] = await entryStateQuery(ctx, entryId).for("update", { of: automationEntries });
  return row ?? null;
}

/** The entry with what a step needs of its automation and version. */
export type EntryState = NonNullable<Awaited<ReturnType<typeof lockEntry>>>;

function entryStateQuery(ctx: Ctx, entryId: string) {
  return ctx.db
    .select({
      entry: automationEntries,
      steps: automationVersions.steps,
      topicId: automations.topicId,
      brandId: topics.brandId,
      exitCondition: automations.exitCondition,
    })
    .from(automationEntries)
    .innerJoin(automationVersions, eq(automationVersions.id, automationEntries.versionId))
    .innerJoin(automations, eq(automations.id, automationEntries.automationId))
    .innerJoin(topics, eq(topics.id, automations.topicId))
    .where(eq(automationEntries.id, entryId));
}

/** Ends an active entry: exited with the reason, at the step it was at. */
export async function exitEntry(ctx: Ctx, entryId: string, reason: ExitReason, stepIndex?: number): Promise<void> {
  await ctx.db
    .update(automationEntries)
    .set({
      status: "exited",
      exitReason: reason,
      ...(stepIndex === undefined ? {} : { stepIndex }),
      endedAt: ctx.clock.now(),
    })
    .where(and(eq(automationEntries.id, entryId), eq(automationEntries.status, "active")));
}

/** Whether the automation's exit condition holds for the entry's person now. */
export async function exitConditionHolds(
  ctx: Ctx,
  entry: EntryRow,
  automation: { topicId: string; exitCondition: typeof automations.$inferSelect.exitCondition },
): Promise<boolean> {
  if (!automation.exitCondition || !entry.contactId) return false;
  return conditionHolds(
    ctx,
    {
      id: entry.id,
      workspaceId: entry.workspaceId,
      topicId: automation.topicId,
      contactId: entry.contactId,
      enteredAt: entry.enteredAt,
    },
    automation.exitCondition,
  );
}

/**
 * System: where the entry is, checked before each step: an entry past its last step completes here;
 * a contact erased meanwhile exits `erased`; when the automation's exit condition holds the entry exits
 * `exit_condition`. A `wait_until` gets its wake time now, in the contact's time zone (else the
 * workspace's, as a campaign sent at a local time reads it).
 */
export async function entryPosition(ctx: Ctx, entryId: string): Promise<EntryPosition> {
  return withTransaction(ctx, async (tx) => {
    const row = await lockEntry(tx, entryId);
    if (!row || row.entry.status !== "active") return { ended: true };
    // Locked, the entry cannot have moved from what the row says.
    return (await positionFrom(tx, row)) ?? { ended: true };
  });
}

/**
 * Where an active entry is, by entryPosition's rules, from its row as the caller last wrote it (a step
 * that moved the entry on knows where it put it, and need not read it again). Null when the entry
 * completes here but is no longer where the row says (moved to another version meanwhile): the caller
 * reads its place again, locked.
 */
export async function positionFrom(ctx: Ctx, row: EntryState): Promise<EntryPosition | null> {
  const { entry } = row;
  const placed = placeSteps(row.steps);
  const here = placed[entry.stepIndex];
  if (!here) {
    const completed = await ctx.db
      .update(automationEntries)
      .set({ status: "completed", stepIndex: placed.length, endedAt: ctx.clock.now() })
      .where(
        and(
          eq(automationEntries.id, entry.id),
          eq(automationEntries.status, "active"),
          eq(automationEntries.versionId, entry.versionId),
          eq(automationEntries.stepIndex, entry.stepIndex),
        ),
      )
      .returning({ id: automationEntries.id });
    return completed.length > 0 ? { completed: true } : null;
  }
  if (!entry.contactId) {
    await exitEntry(ctx, entry.id, "erased");
    return { exited: "erased" };
  }
  if (await exitConditionHolds(ctx, entry, row)) {
    await exitEntry(ctx, entry.id, "exit_condition");
    return { exited: "exit_condition" };
  }
  return { at: await runStepOf(ctx, entry, row.brandId, here.step, here.index) };
}

async function runStepOf(
  ctx: Ctx,
  entry: EntryRow,
  brandId: string,
  step: AutomationStep,
  index: number,
): Promise<RunStep> {
  switch (step.type) {
    case "wait":
      return { index, type: "wait", minutes: step.minutes };
    case "wait_until": {
      const zone = await contactZone(ctx, entry);
      return { index, type: "wait_until", until: nextLocalTime(zone, ctx.clock.now(), step).toISOString() };
    }
    case "wait_for_event":
      return {
        index,
        type: "wait_for_event",
        key: `${entry.contactId}:${step.name}`,
        brandId,
        timeoutMinutes: step.timeout_minutes,
      };
    default:
      return { index, type: step.type };
  }
}

/** The contact's time zone, else the workspace's (a zone the runtime no longer knows is read as the workspace's). */
async function contactZone(ctx: Ctx, entry: EntryRow): Promise<string> {
  const [row] = await ctx.db
    .select({ contact: contacts.timeZone, workspace: workspaces.timeZone })
    .from(workspaces)
    .leftJoin(contacts, and(eq(contacts.id, entry.contactId!), eq(contacts.workspaceId, workspaces.id)))
    .where(eq(workspaces.id, entry.workspaceId));
  return (
    (row?.contact && canonicalTimeZone(row.contact)) || (row?.workspace && canonicalTimeZone(row.workspace)) || "UTC"
  );
}

/**
 * Where an entry goes when it has done step `index` of its version: the step after it (out of a branch's
 * arm, the step after the branch), or past the last. Null when the version's step there is not of kind
 * `type`: the entry was moved to another version, where that number is another step.
 */
export function nextStepAfter(steps: EntryState["steps"], index: number, type: AutomationStep["type"]): number | null {
  const placed = placeSteps(steps);
  const here = placed[index];
  if (!here || here.step.type !== type) return null;
  return here.next ?? placed.length;
}

/**
 * Moves an active entry from step `from` of version `versionId` to step `to`, only if it is still there
 * (a compare-and-set: a move to another version or another run's step in between leaves it, and says so).
 */
export async function moveEntry(
  ctx: Ctx,
  entry: { id: string; versionId: string },
  from: number,
  to: number,
): Promise<boolean> {
  const moved = await ctx.db
    .update(automationEntries)
    .set({ stepIndex: to })
    .where(
      and(
        eq(automationEntries.id, entry.id),
        eq(automationEntries.status, "active"),
        eq(automationEntries.versionId, entry.versionId),
        eq(automationEntries.stepIndex, from),
      ),
    )
    .returning({ id: automationEntries.id });
  return moved.length > 0;
}

/**
 * Internal: the entry has done step `index` of kind `type` (a wait); it moves to the step after it, and
 * the answer is where it is then, as entryPosition says, in two statements: the entry is read without a
 * lock and moved by compare-and-set, and its place follows from what was written. A wait's end is where
 * every sleeping person passes, all at once after a campaign-sized entry, so its round trips count.
 * An entry moved to another version meanwhile goes on from the step the move chose (one of the same
 * kind at the same number is the step it just did; any other is done next): when the compare-and-set
 * finds the entry changed, it is read again.
 */
export async function advanceAndLocate(
  ctx: Ctx,
  entryId: string,
  done: { index: number; type: AutomationStep["type"] },
): Promise<EntryPosition> {
  for (;;) {
    const [row] = await entryStateQuery(ctx, entryId);
    if (!row || row.entry.status !== "active" || row.entry.stepIndex !== done.index) return entryPosition(ctx, entryId);
    const next = nextStepAfter(row.steps, done.index, done.type);
    if (next === null) return entryPosition(ctx, entryId);
    if (await moveEntry(ctx, row.entry, done.index, next))
      return (
        (await positionFrom(ctx, { ...row, entry: { ...row.entry, stepIndex: next } })) ?? entryPosition(ctx, entryId)
      );
  }
}
