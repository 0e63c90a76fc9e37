import { systemActor } from "@/lib/actor";
import { countSegment } from "@/lib/segments/count-segment";
import { getSegmentOrThrow, listSegments } from "@/lib/segments/list-segments";

import { opt, str, string, type AdminCommand } from "./admin-command";

/** Segments: saved rules over a workspace's contacts, counted among one topic's subscribers. */
export const segmentCommands: Record<string, AdminCommand> = {
  "segment:list": {
    summary: "--workspace ID [--topic ID]   (newest first; with --topic, how many of its subscribers each matches)",
    options: { workspace: string, topic: string },
    required: ["workspace"],
    run: async (ctx, v) => {
      const actor = systemActor("admin-cli", str(v, "workspace"));
      const topicId = opt(v, "topic");
      const segments = await listSegments(ctx, actor);
      const rows = [];
      for (const segment of segments) {
        const counted = topicId ? await countSegment(ctx, actor, segment.id, topicId) : null;
        rows.push({
          segment_id: segment.id,
          name: segment.name,
          created_at: segment.createdAt.toISOString(),
          updated_at: segment.updatedAt.toISOString(),
          ...(counted ? { count: counted.count, more: counted.more } : {}),
        });
      }
      return { segments: rows };
    },
  },
  "segment:count": {
    summary: "--segment ID --topic ID   (the topic's subscribers the segment matches; `more` past the cap)",
    options: { segment: string, topic: string },
    required: ["segment", "topic"],
    run: async (ctx, v) => {
      // The segment names its workspace; the count runs in it.
      const segment = await getSegmentOrThrow(ctx, systemActor("admin-cli"), str(v, "segment"));
      const counted = await countSegment(
        ctx,
        systemActor("admin-cli", segment.workspaceId),
        segment.id,
        str(v, "topic"),
      );
      return { segment_id: segment.id, topic_id: str(v, "topic"), count: counted.count, more: counted.more };
    },
  },
};
