import "server-only";

import { and, asc, count, desc, eq, max } from "drizzle-orm";

import { inActorWorkspace, requireActorWorkspace, type Actor } from "@/lib/actor";
import { withTransaction, type Ctx } from "@/lib/context";
import {
  automationBranchArms,
  automationEntries,
  automations,
  automationSends,
  automationVersions,
  topics,
} from "@/lib/db/schema";
import { ApiError, notFound } from "@/lib/errors";
import { emitEvents } from "@/lib/events/emit-events";
import { automationResumed } from "@/lib/events/workflow-events";
import { newId } from "@/lib/ids";
import { parseInput } from "@/lib/validation/parse-input";

import { assertKnownMergeTagsOfSteps } from "./automation-merge-tags";
import { assertReferencesReachable, referencesOfSteps, referencesOfTrigger } from "./automation-references";
import {
  automationSettingsSchema,
  createAutomationSchema,
  numberSteps,
  setStepsSchema,
  updateAutomationSettingsSchema,
  type AutomationSettings,
  type AutomationStatus,
  type AutomationStep,
  type CreateAutomationInput,
  type SetStepsInput,
  type UpdateAutomationSettingsInput,
} from "./automation-schemas";

export type AutomationRow = typeof automations.$inferSelect;

const missing = (automationId: string) =>
  notFound("automation_not_found", `No automation ${automationId}.`, "automation_id");

/**
 * Creates a draft automation on a topic of the actor's workspace (and brand, for a brand-locked key).
 * The lists, campaigns and attributes its trigger and exit condition name must be ones the actor
 * reaches (assertReferencesReachable); otherwise nothing is created.
 */
export async function createAutomation(
  ctx: Ctx,
  actor: Actor,
  input: CreateAutomationInput,
): Promise<{ automationId: string }> {
  const values = parseInput(createAutomationSchema, input);
  const workspaceId = requireActorWorkspace(actor);
  const [topic] = await ctx.db
    .select({ id: topics.id, brandId: topics.brandId })
    .from(topics)
    .where(and(eq(topics.id, values.topic_id), eq(topics.workspaceId, workspaceId)));
  if (!topic || (actor.brandId && topic.brandId !== actor.brandId))
    throw notFound("topic_not_found", `No topic ${values.topic_id}.`, "topic_id");
  await assertReferencesReachable(
    ctx,
    actor,
    workspaceId,
    referencesOfTrigger(values.trigger, values.trigger_settings, values.exit_condition),
  );
  const automationId = newId("aut");
  const now = ctx.clock.now();
  await ctx.db.insert(automations).values({
    id: automationId,
    workspaceId,
    topicId: topic.id,
    name: values.name,
    trigger: values.trigger,
    triggerSettings: values.trigger_settings,
    reentryAfterMinutes: values.reentry_after_minutes ?? null,
    exitCondition: values.exit_condition ?? null,
    createdAt: now,
    updatedAt: now,
  });
  return { automationId };
}

/** The automation in the actor's workspace (any, for the operator naming it by id), locked for the transaction when `lock`; "not found" otherwise. */
async function automationOrThrow(ctx: Ctx, actor: Actor, automationId: string, lock = false): Promise<AutomationRow> {
  const query = ctx.db
    .select({ automation: automations, brandId: topics.brandId })
    .from(automations)
    .innerJoin(topics, eq(topics.id, automations.topicId))
    .where(and(eq(automations.id, automationId), inActorWorkspace(actor, automations.workspaceId)));
  const [row] = lock ? await query.for("update", { of: automations }) : await query;
  if (!row || (actor.brandId && row.brandId !== actor.brandId)) throw missing(automationId);
  return row.automation;
}

export async function getAutomationOrThrow(ctx: Ctx, actor: Actor, automationId: string): Promise<AutomationRow> {
  return automationOrThrow(ctx, actor, automationId);
}

/**
 * Sets the automation's steps as a new version. People already inside finish the version they
 * entered unless moved (moveEntriesToLatest); whoever enters from now on walks this one. Lists,
 * campaigns and attributes the steps name must be ones the actor reaches, as for createAutomation.
 */
export async function setAutomationSteps(
  ctx: Ctx,
  actor: Actor,
  automationId: string,
  input: SetStepsInput,
): Promise<{ automationId: string; versionId: string; version: number }> {
  const { steps } = parseInput(setStepsSchema, input);
  return withTransaction(ctx, async (tx) => {
    const automation = await automationOrThrow(tx, actor, automationId, true);
    await assertKnownMergeTagsOfSteps(tx, automation.workspaceId, steps);
    await assertReferencesReachable(tx, actor, automation.workspaceId, referencesOfSteps(steps));
    const [latest] = await tx.db
      .select({ number: max(automationVersions.number) })
      .from(automationVersions)
      .where(eq(automationVersions.automationId, automationId));
    const version = (latest?.number ?? 0) + 1;
    const versionId = newId("auv");
    const now = tx.clock.now();
    await tx.db.insert(automationVersions).values({
      id: versionId,
      workspaceId: automation.workspaceId,
      automationId,
      number: version,
      steps,
      createdAt: now,
    });
    await tx.db.update(automations).set({ updatedAt: now }).where(eq(automations.id, automationId));
    return { automationId, versionId, version };
  });
}

/**
 * Changes the automation's trigger (with its settings), re-entry rule or exit condition, whatever its
 * status; only what `input` names changes, and a refusal changes nothing. What a change means for the
 * people it concerns, read where each setting is read:
 * - the trigger and its settings: only occurrences from now on enter anyone (trigger-matching.ts and
 *   the date pass read the row as they happen); nobody is entered for what happened before, and
 *   nobody already inside leaves because of it;
 * - re-entry: asked when a person's trigger happens (reentry.ts, enterByTrigger), so it applies to
 *   every entry from now on, measured from the end of the person's last entry, whenever that was;
 * - the exit condition: the run reads it at each step boundary and each send (run-entry.ts, run-send.ts),
 *   so it applies to everyone already inside from their next step (a person asleep in a wait when they
 *   wake); whoever left by the old condition stays out, and clearing it lets no one back in.
 * None of it makes a new version: the steps, and who is on which, stay as they are.
 */
export async function updateAutomationSettings(
  ctx: Ctx,
  actor: Actor,
  automationId: string,
  input: UpdateAutomationSettingsInput,
): Promise<{ automationId: string } & AutomationSettings> {
  const changes = parseInput(updateAutomationSettingsSchema, input);
  return withTransaction(ctx, async (tx) => {
    const automation = await automationOrThrow(tx, actor, automationId, true);
    const trigger = changes.trigger ?? automation.trigger;
    const settings = parseInput(automationSettingsSchema, {
      trigger,
      trigger_settings: changes.trigger_settings ?? (trigger === automation.trigger ? automation.triggerSettings : {}),
      reentry_after_minutes:
        changes.reentry_after_minutes === undefined ? automation.reentryAfterMinutes : changes.reentry_after_minutes,
      exit_condition: changes.exit_condition === undefined ? automation.exitCondition : changes.exit_condition,
    });
    await assertReferencesReachable(
      tx,
      actor,
      automation.workspaceId,
      referencesOfTrigger(settings.trigger, settings.trigger_settings, settings.exit_condition),
    );
    await tx.db
      .update(automations)
      .set({
        trigger: settings.trigger,
        triggerSettings: settings.trigger_settings,
        reentryAfterMinutes: settings.reentry_after_minutes ?? null,
        exitCondition: settings.exit_condition ?? null,
        updatedAt: tx.clock.now(),
      })
      .where(eq(automations.id, automationId));
    return { automationId, ...settings };
  });
}

/** Internal: the version people entering now walk (the newest), or null before any steps were set. */
export async function latestVersion(
  ctx: Ctx,
  automationId: string,
): Promise<{ id: string; number: number; steps: AutomationStep[] } | null> {
  const [row] = await ctx.db
    .select({ id: automationVersions.id, number: automationVersions.number, steps: automationVersions.steps })
    .from(automationVersions)
    .where(eq(automationVersions.automationId, automationId))
    .orderBy(desc(automationVersions.number))
    .limit(1);
  return row ?? null;
}

const notAllowed = (code: string, message: string) =>
  new ApiError({ type: "invalid_request_error", code, param: "automation_id", message });

async function setStatus(
  ctx: Ctx,
  actor: Actor,
  automationId: string,
  from: AutomationStatus[],
  to: AutomationStatus,
): Promise<{ automationId: string; status: AutomationStatus }> {
  return withTransaction(ctx, async (tx) => {
    const automation = await automationOrThrow(tx, actor, automationId, true);
    if (automation.status === to) return { automationId, status: to };
    if (!from.includes(automation.status))
      throw notAllowed("automation_status", `The automation is ${automation.status}; it cannot become ${to}.`);
    if (to === "active" && !(await latestVersion(tx, automationId)))
      throw notAllowed("automation_without_steps", "Set the automation's steps before activating it.");
    await tx.db
      .update(automations)
      .set({ status: to, updatedAt: tx.clock.now() })
      .where(eq(automations.id, automationId));
    // Resuming wakes the runs waiting at a send (the same transaction: no resume without its wake-up).
    if (automation.status === "paused" && to === "active")
      await emitEvents(tx, [{ name: automationResumed.name, data: { automationId } }]);
    return { automationId, status: to };
  });
}

/** From now on, a confirmed subscription to the topic enters the person. Needs steps. */
export const activateAutomation = (ctx: Ctx, actor: Actor, automationId: string) =>
  setStatus(ctx, actor, automationId, ["draft"], "active");

/** Nobody new enters and nothing is sent; everyone keeps their place (their run waits at its next send). */
export const pauseAutomation = (ctx: Ctx, actor: Actor, automationId: string) =>
  setStatus(ctx, actor, automationId, ["active"], "paused");

/** People enter again, and the runs waiting at a send go on from where they were. */
export const resumeAutomation = (ctx: Ctx, actor: Actor, automationId: string) =>
  setStatus(ctx, actor, automationId, ["paused"], "active");

export interface AutomationStepFigures {
  index: number;
  type: AutomationStep["type"];
  /** Active entries at this step: waiting out a wait, or at a send (a paused automation holds them there). */
  waiting: number;
  /** Send steps: mails handed over, and mails skipped by reason; people who opened and clicked them (a person's, not a machine's). */
  sent?: number;
  skipped?: Record<string, number>;
  opened?: number;
  clicked?: number;
  /** Branch steps: how many went down each arm. */
  arms?: { yes: number; no: number };
}

export interface AutomationView {
  automation: AutomationRow;
  version: { id: string; number: number; steps: AutomationStep[] } | null;
  entered: number;
  active: number;
  completed: number;
  exited: Record<string, number>;
  steps: AutomationStepFigures[];
}

/**
 * The automation with its newest version's steps and per-step figures: how many entered, are at each
 * step (across versions, by step number), were sent or skipped at each send and opened or clicked it,
 * went down each arm of a branch, and left by reason.
 */
export async function showAutomation(ctx: Ctx, actor: Actor, automationId: string): Promise<AutomationView> {
  const automation = await automationOrThrow(ctx, actor, automationId);
  const version = await latestVersion(ctx, automationId);
  const byStatus = await ctx.db
    .select({
      status: automationEntries.status,
      exitReason: automationEntries.exitReason,
      stepIndex: automationEntries.stepIndex,
      n: count(),
    })
    .from(automationEntries)
    .where(eq(automationEntries.automationId, automationId))
    .groupBy(automationEntries.status, automationEntries.exitReason, automationEntries.stepIndex);
  const sends = await ctx.db
    .select({
      stepIndex: automationSends.stepIndex,
      status: automationSends.status,
      reason: automationSends.reason,
      n: count(),
      opened: count(automationSends.humanOpenedAt),
      clicked: count(automationSends.humanClickedAt),
    })
    .from(automationSends)
    .where(eq(automationSends.automationId, automationId))
    .groupBy(automationSends.stepIndex, automationSends.status, automationSends.reason)
    .orderBy(asc(automationSends.stepIndex));
  const arms = await ctx.db
    .select({ stepIndex: automationBranchArms.stepIndex, arm: automationBranchArms.arm, n: count() })
    .from(automationBranchArms)
    .where(eq(automationBranchArms.automationId, automationId))
    .groupBy(automationBranchArms.stepIndex, automationBranchArms.arm);
  const exited: Record<string, number> = {};
  let entered = 0;
  let active = 0;
  let completed = 0;
  for (const row of byStatus) {
    entered += row.n;
    if (row.status === "active") active += row.n;
    if (row.status === "completed") completed += row.n;
    if (row.status === "exited") exited[row.exitReason!] = (exited[row.exitReason!] ?? 0) + row.n;
  }
  // Every step, those inside branches too, by its pre-order number: the number entries and sends record.
  const steps = numberSteps(version?.steps ?? []).map(({ index, step }): AutomationStepFigures => {
    const waiting = byStatus
      .filter((r) => r.status === "active" && r.stepIndex === index)
      .reduce((sum, r) => sum + r.n, 0);
    if (step.type === "branch") {
      const arm = (which: "yes" | "no") => arms.find((a) => a.stepIndex === index && a.arm === which)?.n ?? 0;
      return { index, type: step.type, waiting, arms: { yes: arm("yes"), no: arm("no") } };
    }
    if (step.type !== "send") return { index, type: step.type, waiting };
    const here = sends.filter((s) => s.stepIndex === index);
    const skipped: Record<string, number> = {};
    for (const s of here.filter((s) => s.status === "skipped")) skipped[s.reason ?? ""] = s.n;
    const sentRows = here.filter((s) => s.status === "sent");
    const sum = (key: "n" | "opened" | "clicked") => sentRows.reduce((total, s) => total + s[key], 0);
    return { index, type: step.type, waiting, sent: sum("n"), skipped, opened: sum("opened"), clicked: sum("clicked") };
  });
  return { automation, version, entered, active, completed, exited, steps };
}
