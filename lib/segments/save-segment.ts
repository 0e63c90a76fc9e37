import "server-only";

import { and, eq } from "drizzle-orm";

import { requireActorWorkspace, type Actor } from "@/lib/actor";
import { withTransaction, type Ctx } from "@/lib/context";
import { campaigns, segments } from "@/lib/db/schema";
import { ApiError, notFound } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { parseInput } from "@/lib/validation/parse-input";

import { checkSegmentRule } from "./compile-segment";
import {
  createSegmentSchema,
  updateSegmentSchema,
  type CreateSegmentInput,
  type UpdateSegmentInput,
} from "./segment-rule-schema";

/** Saves a segment in the actor's workspace; its rule is checked against the workspace (checkSegmentRule). */
export async function createSegment(ctx: Ctx, actor: Actor, input: CreateSegmentInput): Promise<{ segmentId: string }> {
  const values = parseInput(createSegmentSchema, input);
  const workspaceId = requireActorWorkspace(actor);
  await checkSegmentRule(ctx, workspaceId, values.rule);
  const segmentId = newId("seg");
  const now = ctx.clock.now();
  await ctx.db.insert(segments).values({ id: segmentId, workspaceId, ...values, createdAt: now, updatedAt: now });
  return { segmentId };
}

/**
 * Renames a segment or rewrites its rule. A campaign that uses it takes its audience with the rule as
 * it is when dispatch starts.
 */
export async function updateSegment(
  ctx: Ctx,
  actor: Actor,
  segmentId: string,
  input: UpdateSegmentInput,
): Promise<{ segmentId: string }> {
  const changes = parseInput(updateSegmentSchema, input);
  const workspaceId = requireActorWorkspace(actor);
  if (changes.rule) await checkSegmentRule(ctx, workspaceId, changes.rule);
  const [updated] = await ctx.db
    .update(segments)
    .set({ ...changes, updatedAt: ctx.clock.now() })
    .where(and(eq(segments.id, segmentId), eq(segments.workspaceId, workspaceId)))
    .returning({ id: segments.id });
  if (!updated) throw notFound("segment_not_found", `No segment ${segmentId}.`);
  return { segmentId };
}

/** Deletes a segment no campaign uses; one a campaign uses stays, as a list does (its audience names it). */
export async function deleteSegment(ctx: Ctx, actor: Actor, segmentId: string): Promise<{ segmentId: string }> {
  const workspaceId = requireActorWorkspace(actor);
  return withTransaction(ctx, async (tx) => {
    const [segment] = await tx.db
      .select({ id: segments.id })
      .from(segments)
      .where(and(eq(segments.id, segmentId), eq(segments.workspaceId, workspaceId)))
      .for("update");
    if (!segment) throw notFound("segment_not_found", `No segment ${segmentId}.`);
    const [campaign] = await tx.db
      .select({ name: campaigns.name })
      .from(campaigns)
      .where(eq(campaigns.segmentId, segmentId))
      .limit(1);
    if (campaign) {
      throw new ApiError({
        type: "invalid_request_error",
        code: "segment_in_use",
        message: `The campaign “${campaign.name}” uses this segment, so the segment stays.`,
      });
    }
    await tx.db.delete(segments).where(eq(segments.id, segmentId));
    return { segmentId };
  });
}
