import "server-only";

import { and, eq } from "drizzle-orm";

import { systemActor } from "@/lib/actor";
import { validateAttributes } from "@/lib/contacts/attributes";
import { withTransaction, type Ctx } from "@/lib/context";
import { automationBranchArms, automationEntries, contacts } from "@/lib/db/schema";
import { ApiError } from "@/lib/errors";
import { addListMembers, removeListMembers } from "@/lib/lists/list-membership";

import { conditionHolds } from "./automation-conditions";
import { exitEntry, lockEntry } from "./run-entry";
import { placeSteps } from "./step-tree";
import { attributeChanges, enterAttributeChanged } from "./trigger-matching";

export type ActionOutcome =
  | { outcome: "done" }
  /** A branch: which arm the person went down. */
  | { outcome: "branched"; arm: "yes" | "no" }
  /** A list or attribute step that changed nothing: the list or attribute is gone, or the contact erased. */
  | { outcome: "skipped"; reason: string }
  | { outcome: "exited" }
  /** Not at this step any more (moved to another version), or no longer active: the run reads its place again. */
  | { outcome: "moved" }
  | { outcome: "ended" };

/**
 * System: a step that is not a send or a wait (docs/readings.md, "Automations", "The run"): add to or
 * remove from a list, set an attribute, decide a branch, or exit (`exit_step`). One transaction with the
 * entry locked: the step is done and the entry moved past it together, so a retried step finds the
 * entry elsewhere and does nothing twice. List and attribute changes go through the same verbs as a
 * member's (their rules, and whatever they trigger), and change nothing when done again.
 */
export async function runActionStep(ctx: Ctx, entryId: string, index: number): Promise<ActionOutcome> {
  return withTransaction(ctx, async (tx) => {
    const row = await lockEntry(tx, entryId);
    if (!row || row.entry.status !== "active") return { outcome: "ended" };
    if (row.entry.stepIndex !== index) return { outcome: "moved" };
    const { entry } = row;
    const placed = placeSteps(row.steps);
    const here = placed[index];
    if (!here) return { outcome: "moved" };
    const moveTo = async (next: number | null | undefined) =>
      tx.db
        .update(automationEntries)
        .set({ stepIndex: next ?? placed.length })
        .where(eq(automationEntries.id, entryId));
    const step = here.step;
    if (step.type === "exit") {
      await exitEntry(tx, entryId, "exit_step");
      return { outcome: "exited" };
    }
    if (!entry.contactId) {
      await exitEntry(tx, entryId, "erased");
      return { outcome: "ended" };
    }
    const actor = systemActor(`automation:${entry.automationId}`, entry.workspaceId);
    let outcome: ActionOutcome = { outcome: "done" };
    // A refusal (the list deleted, the attribute no longer defined or of another type) skips the step:
    // the person goes on rather than the run stopping here for good.
    const refused = (error: unknown): ActionOutcome => {
      if (error instanceof ApiError) return { outcome: "skipped", reason: error.code };
      throw error;
    };
    switch (step.type) {
      case "list_add":
        outcome = await addListMembers(tx, actor, step.list_id, [entry.contactId]).then(() => outcome, refused);
        break;
      case "list_remove":
        outcome = await removeListMembers(tx, actor, step.list_id, [entry.contactId]).then(() => outcome, refused);
        break;
      case "set_attribute":
        outcome = await setAttribute(tx, entry.workspaceId, entry.contactId, step.attribute, step.value).then(
          () => outcome,
          refused,
        );
        break;
      case "branch": {
        const holds = await conditionHolds(
          tx,
          {
            id: entry.id,
            workspaceId: entry.workspaceId,
            topicId: row.topicId,
            contactId: entry.contactId,
            enteredAt: entry.enteredAt,
          },
          step.condition,
        );
        const arm = holds ? "yes" : "no";
        await tx.db
          .insert(automationBranchArms)
          .values({ entryId, automationId: entry.automationId, stepIndex: index, arm, decidedAt: tx.clock.now() })
          .onConflictDoNothing();
        await moveTo(holds ? here.yes : here.no);
        return { outcome: "branched", arm };
      }
      default:
        throw new Error(`Step ${index} of entry ${entryId} is a ${step.type} step, not an action.`);
    }
    await moveTo(here.next);
    return outcome;
  });
}

/** The attribute set as the contact verbs check it (defined, of its type; null clears it), the rest kept. */
async function setAttribute(
  ctx: Ctx,
  workspaceId: string,
  contactId: string,
  key: string,
  value: string | number | boolean | null,
): Promise<void> {
  const checked = await validateAttributes(ctx, workspaceId, { [key]: value });
  const [contact] = await ctx.db
    .select({ attributes: contacts.attributes })
    .from(contacts)
    .where(and(eq(contacts.id, contactId), eq(contacts.workspaceId, workspaceId)))
    .for("update");
  if (!contact) return;
  const attributes = { ...contact.attributes };
  if (checked[key] === null || checked[key] === undefined) delete attributes[key];
  else attributes[key] = checked[key];
  await ctx.db.update(contacts).set({ attributes, updatedAt: ctx.clock.now() }).where(eq(contacts.id, contactId));
  // A change made by an automation is a change like any other: automations watching the attribute take the person in.
  await enterAttributeChanged(ctx, workspaceId, attributeChanges(contactId, contact.attributes, attributes));
}
