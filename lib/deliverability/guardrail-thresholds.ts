import "server-only";

import { eq } from "drizzle-orm";

import { inActorWorkspace, requireActorWorkspace, type Actor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { deliverabilitySettings } from "@/lib/db/schema";

import { DEFAULT_GUARDRAIL_THRESHOLDS, guardrailThresholdsSchema, type GuardrailThresholds } from "./guardrail-schemas";

/** Internal: the thresholds the guardrail applies to a workspace's campaigns; the defaults until it sets its own. */
export async function guardrailThresholdsOf(ctx: Ctx, workspaceId: string): Promise<GuardrailThresholds> {
  const [row] = await ctx.db
    .select()
    .from(deliverabilitySettings)
    .where(eq(deliverabilitySettings.workspaceId, workspaceId));
  if (!row) return { ...DEFAULT_GUARDRAIL_THRESHOLDS };
  const { workspaceId: _workspace, updatedAt: _updated, ...thresholds } = row;
  return thresholds;
}

/** The actor's workspace's thresholds, and whether they are its own or the defaults. */
export async function getGuardrailThresholds(
  ctx: Ctx,
  actor: Actor,
): Promise<{ thresholds: GuardrailThresholds; custom: boolean }> {
  const workspaceId = requireActorWorkspace(actor);
  const [row] = await ctx.db
    .select({ workspaceId: deliverabilitySettings.workspaceId })
    .from(deliverabilitySettings)
    .where(inActorWorkspace(actor, deliverabilitySettings.workspaceId));
  return { thresholds: await guardrailThresholdsOf(ctx, workspaceId), custom: Boolean(row) };
}

/** Sets the actor's workspace's thresholds; they apply from the next check of each sending campaign. */
export async function setGuardrailThresholds(
  ctx: Ctx,
  actor: Actor,
  input: GuardrailThresholds,
): Promise<GuardrailThresholds> {
  const workspaceId = requireActorWorkspace(actor);
  const thresholds = guardrailThresholdsSchema.parse(input);
  await ctx.db
    .insert(deliverabilitySettings)
    .values({ workspaceId, ...thresholds, updatedAt: ctx.clock.now() })
    .onConflictDoUpdate({
      target: deliverabilitySettings.workspaceId,
      set: { ...thresholds, updatedAt: ctx.clock.now() },
    });
  return thresholds;
}
