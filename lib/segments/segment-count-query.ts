import "server-only";

import { z } from "zod";

import type { Actor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { validationFailed } from "@/lib/errors";

import { countSegmentRule } from "./count-segment";
import type { SegmentRule } from "./segment-rule-schema";

/**
 * The builder's question, in the address: the topic, and the rule as JSON (a rule is at most 400 small
 * conditions). Without a rule, every subscriber of the topic is counted: what a rule narrows from.
 */
export const segmentCountQuerySchema = z.strictObject({
  topic: z.string().min(1).max(100),
  rule_json: z.string().min(2).max(100_000).optional(),
});

const EVERYONE: SegmentRule = {
  match: "all",
  groups: [{ match: "all", conditions: [{ kind: "field", field: "email", op: "is_set" }] }],
};

/** Counts the rule the builder holds now, saved or not. */
export async function countSegmentRuleQuery(ctx: Ctx, actor: Actor, query: z.infer<typeof segmentCountQuerySchema>) {
  let rule: unknown = EVERYONE;
  if (query.rule_json)
    try {
      rule = JSON.parse(query.rule_json);
    } catch {
      throw validationFailed("rule_json", "rule_json: must be JSON.");
    }
  return countSegmentRule(ctx, actor, { rule, topicId: query.topic });
}
