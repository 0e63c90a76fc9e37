import "server-only";

import { and, desc, eq } from "drizzle-orm";

import { inActorWorkspace, type Actor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { segments } from "@/lib/db/schema";
import { notFound } from "@/lib/errors";

export type SegmentRow = typeof segments.$inferSelect;

/** The workspace's segments, newest first. */
export async function listSegments(ctx: Ctx, actor: Actor): Promise<SegmentRow[]> {
  return ctx.db.select().from(segments).where(inActorWorkspace(actor, segments.workspaceId)).orderBy(desc(segments.id));
}

/** One segment of the actor's workspace; another workspace's is "not found". */
export async function getSegmentOrThrow(
  ctx: Ctx,
  actor: Actor,
  segmentId: string,
  param?: string,
): Promise<SegmentRow> {
  const [segment] = await ctx.db
    .select()
    .from(segments)
    .where(and(eq(segments.id, segmentId), inActorWorkspace(actor, segments.workspaceId)));
  if (!segment) throw notFound("segment_not_found", `No segment ${segmentId}.`, param);
  return segment;
}
