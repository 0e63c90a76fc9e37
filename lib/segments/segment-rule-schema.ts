import { z } from "zod";

// Schemas only (no database): the segment builder checks a rule in the browser with the rules the
// server applies. What a condition means, in SQL and in words, is in compile-segment.ts and
// docs/readings.md ("Segments").

export const SEGMENT_FIELDS = ["email", "first_name", "last_name"] as const;
export const TEXT_OPERATORS = ["equals", "not_equals", "contains", "starts_with", "is_set", "is_not_set"] as const;
export const NUMBER_OPERATORS = ["equals", "not_equals", "greater", "less", "is_set", "is_not_set"] as const;
export const DATE_OPERATORS = ["before", "after", "is_set", "is_not_set"] as const;
export const BOOLEAN_OPERATORS = ["equals", "is_set", "is_not_set"] as const;
export const ATTRIBUTE_OPERATORS = [
  "equals",
  "not_equals",
  "contains",
  "starts_with",
  "greater",
  "less",
  "before",
  "after",
  "is_set",
  "is_not_set",
] as const;
export type AttributeOperator = (typeof ATTRIBUTE_OPERATORS)[number];
/** The subscription sources a segment can pick, as subscriptions.source holds them. */
export const SEGMENT_SOURCES = ["double_opt_in", "api", "import", "dashboard"] as const;

/** Which operators an attribute of each type takes, and so which the builder offers. */
export const OPERATORS_BY_TYPE: Record<"string" | "number" | "date" | "boolean", readonly AttributeOperator[]> = {
  string: TEXT_OPERATORS,
  number: NUMBER_OPERATORS,
  date: DATE_OPERATORS,
  boolean: BOOLEAN_OPERATORS,
};

/** Operators that compare with nothing. */
export const VALUELESS_OPERATORS: readonly string[] = ["is_set", "is_not_set"];

const id = z.string().min(1, "choose one").max(100);
const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/, "must be a date (YYYY-MM-DD)")
  .refine((value) => !Number.isNaN(Date.parse(value)), "must be a date (YYYY-MM-DD)");

const fieldCondition = z
  .strictObject({
    kind: z.literal("field"),
    field: z.enum(SEGMENT_FIELDS),
    op: z.enum(TEXT_OPERATORS),
    value: z.string().max(2000).optional(),
  })
  .refine((c) => VALUELESS_OPERATORS.includes(c.op) || (c.value !== undefined && c.value !== ""), {
    message: "must not be empty",
    path: ["value"],
  });

/** The value's type is checked against the attribute's definition when the rule is compiled (checkSegmentRule). */
const attributeCondition = z.strictObject({
  kind: z.literal("attribute"),
  key: z.string().min(1, "choose an attribute").max(64),
  op: z.enum(ATTRIBUTE_OPERATORS),
  value: z.union([z.string().max(2000), z.number(), z.boolean()]).optional(),
});

const listCondition = z.strictObject({
  kind: z.literal("list"),
  op: z.enum(["in", "not_in"]),
  listId: id,
});

/** When the contact became a subscriber of the topic the segment is evaluated for. */
const subscribedCondition = z.strictObject({
  kind: z.literal("subscribed"),
  op: z.enum(["before", "after"]),
  value: isoDate,
});

/** How the subscription to the topic was made, and optionally which form, key or import made it. */
const sourceCondition = z.strictObject({
  kind: z.literal("source"),
  op: z.enum(["is", "is_not"]),
  source: z.enum(SEGMENT_SOURCES),
  origin: z.string().max(100).optional(),
});

/**
 * A person's open or click (machine ones do not count): of one campaign, or of any campaign in the
 * last `days` days; `did_not` is the contrary.
 */
const engagementCondition = z
  .strictObject({
    kind: z.literal("engagement"),
    op: z.enum(["did", "did_not"]),
    action: z.enum(["opened", "clicked"]),
    campaignId: id.optional(),
    days: z.number().int().min(1).max(3650).optional(),
  })
  .refine((c) => (c.campaignId === undefined) !== (c.days === undefined), {
    message: "choose a campaign or a number of days",
    path: ["campaignId"],
  });

export const segmentConditionSchema = z.discriminatedUnion("kind", [
  fieldCondition,
  attributeCondition,
  listCondition,
  subscribedCondition,
  sourceCondition,
  engagementCondition,
]);
export type SegmentCondition = z.output<typeof segmentConditionSchema>;

export const MAX_GROUPS = 20;
export const MAX_CONDITIONS = 20;

export const segmentGroupSchema = z.strictObject({
  match: z.enum(["all", "any"]),
  conditions: z.array(segmentConditionSchema).min(1, "add a condition").max(MAX_CONDITIONS),
});

/** A saved rule: groups joined by `match`, each group's conditions joined by its own `match`. */
export const segmentRuleSchema = z.strictObject({
  match: z.enum(["all", "any"]),
  groups: z.array(segmentGroupSchema).min(1, "add a group").max(MAX_GROUPS),
});
export type SegmentRule = z.output<typeof segmentRuleSchema>;

export const createSegmentSchema = z.strictObject({
  name: z.string().trim().min(1, "must not be empty").max(200),
  rule: segmentRuleSchema,
});
export type CreateSegmentInput = z.input<typeof createSegmentSchema>;

export const updateSegmentSchema = createSegmentSchema.partial();
export type UpdateSegmentInput = z.input<typeof updateSegmentSchema>;

export type AttributeTypes = ReadonlyMap<string, "string" | "number" | "date" | "boolean">;

/**
 * The checks that need the workspace's attribute definitions: the key is defined, the operator is one
 * its type takes and the value is of its type. Each problem names the condition's path
 * (`rule.groups.0.conditions.1.key`), for the builder to show beside the field and for the API error.
 */
export function attributeIssues(rule: SegmentRule, types: AttributeTypes): { path: string; message: string }[] {
  const issues: { path: string; message: string }[] = [];
  rule.groups.forEach((group, g) =>
    group.conditions.forEach((condition, c) => {
      if (condition.kind !== "attribute") return;
      const at = `rule.groups.${g}.conditions.${c}`;
      const type = types.get(condition.key);
      if (!type) {
        issues.push({ path: `${at}.key`, message: `no attribute ${condition.key} is defined on this workspace` });
        return;
      }
      if (!OPERATORS_BY_TYPE[type].includes(condition.op)) {
        issues.push({ path: `${at}.op`, message: `a ${type} attribute cannot be compared with ${condition.op}` });
        return;
      }
      if (VALUELESS_OPERATORS.includes(condition.op)) return;
      const value = condition.value;
      const fits =
        type === "string"
          ? typeof value === "string" && value !== ""
          : type === "number"
            ? typeof value === "number" && Number.isFinite(value)
            : type === "boolean"
              ? typeof value === "boolean"
              : typeof value === "string" && isoDate.safeParse(value).success;
      if (!fits) issues.push({ path: `${at}.value`, message: `must be a ${type}` });
    }),
  );
  return issues;
}
