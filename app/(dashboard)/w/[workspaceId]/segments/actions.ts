"use server";

import { z } from "zod";

import { workspaceAction } from "@/lib/dashboard/workspace-action";
import { createSegment, deleteSegment, updateSegment } from "@/lib/segments/save-segment";
import { createSegmentSchema, updateSegmentSchema } from "@/lib/segments/segment-rule-schema";

export const createSegmentAction = workspaceAction(createSegmentSchema, ({ ctx, actor }, input) =>
  createSegment(ctx, actor, input),
);

export const updateSegmentAction = workspaceAction(
  updateSegmentSchema.extend({ segmentId: z.string() }),
  ({ ctx, actor }, { segmentId, ...changes }) => updateSegment(ctx, actor, segmentId, changes),
);

export const deleteSegmentAction = workspaceAction(
  z.strictObject({ segmentId: z.string() }),
  ({ ctx, actor }, { segmentId }) => deleteSegment(ctx, actor, segmentId),
);
