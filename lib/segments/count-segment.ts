import "server-only";

import { sql, type SQL } from "drizzle-orm";

import { requireActorWorkspace, type Actor } from "@/lib/actor";
import type { ContactCount } from "@/lib/contacts/contact-list-query";
import { CONTACT_COUNT_CAP } from "@/lib/contacts/count-contacts";
import { withTransaction, type Ctx } from "@/lib/context";
import { getTopicForActorOrThrow } from "@/lib/topics/get-topic-for-actor";
import { parseInput } from "@/lib/validation/parse-input";

import { SEGMENT_WORK_MEM, segmentPredicate } from "./compile-segment";
import { getSegmentOrThrow } from "./list-segments";
import { segmentRuleSchema, type SegmentRule } from "./segment-rule-schema";

/**
 * Who a segment's rule matches among the topic's subscribers: subscribed (confirmed) to the topic and
 * not opted out of everything, the consent a campaign's audience starts from. Suppressions and the
 * sending rules are the campaign's, shown in its exclusion preview, not here. Capped like the
 * contacts table's counts (CONTACT_COUNT_CAP): the builder counts again at every change.
 */
export async function countSegmentRule(
  ctx: Ctx,
  actor: Actor,
  input: { rule: unknown; topicId: string },
  cap = CONTACT_COUNT_CAP,
): Promise<ContactCount> {
  const rule = parseInput(segmentRuleSchema, input.rule);
  const workspaceId = requireActorWorkspace(actor);
  await getTopicForActorOrThrow(ctx, actor, input.topicId, "topicId");
  const predicate = await segmentPredicate(ctx, rule, {
    workspaceId,
    topicId: input.topicId,
    now: ctx.clock.now(),
    contact: "c",
    subscription: "s",
    placement: "where",
  });
  return countMatching(ctx, workspaceId, input.topicId, predicate, cap);
}

/** A saved segment's count for a topic (countSegmentRule). */
export async function countSegment(
  ctx: Ctx,
  actor: Actor,
  segmentId: string,
  topicId: string,
  cap = CONTACT_COUNT_CAP,
): Promise<ContactCount> {
  const segment = await getSegmentOrThrow(ctx, actor, segmentId, "segmentId");
  return countSegmentRule(ctx, actor, { rule: segment.rule satisfies SegmentRule, topicId }, cap);
}

async function countMatching(
  ctx: Ctx,
  workspaceId: string,
  topicId: string,
  predicate: SQL,
  cap: number,
): Promise<ContactCount> {
  const [row] = await withTransaction(ctx, async (tx) => {
    await tx.db.execute(SEGMENT_WORK_MEM);
    return tx.db.execute<{ count: number }>(sql`
      select count(*)::int as count from (
        select 1 from subscriptions s join contacts c on c.id = s.contact_id
        where s.topic_id = ${topicId} and s.state = 'subscribed' and c.workspace_id = ${workspaceId}
          and c.opted_out_at is null and ${predicate}
        limit ${cap + 1}) matching`);
  });
  const count = Number(row?.count ?? 0);
  return count > cap ? { count: cap, more: true } : { count, more: false };
}
