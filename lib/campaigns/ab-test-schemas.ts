import { z } from "zod";

// Schemas only (no database): the dashboard's A/B test form checks input in the browser with the rules
// the API of lib/ and the admin CLI apply.

export const AB_DIMENSION_VALUES = ["subject", "sender_name", "content"] as const;
export const AB_METRIC_VALUES = ["clicks", "human_opens"] as const;
export const AB_VARIANT_LABELS = ["A", "B", "C"] as const;
/** The wait's default: two hours of engagement before the metric decides. */
export const DEFAULT_AB_WAIT_MINUTES = 120;
/** The longest wait: three days, after which the rest of the audience has waited long enough. */
export const MAX_AB_WAIT_MINUTES = 3 * 24 * 60;

const variantValue = {
  subject: z.string().trim().min(1, "must not be empty").max(998),
  sender_name: z.string().trim().min(1, "must not be empty").max(200),
  content: z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(2 * 1024 * 1024),
} as const;

/**
 * A campaign's A/B test: 2 or 3 values of one dimension, the share of the audience in the test (a
 * percent, or everyone), the metric that picks the winner and how long to wait for it.
 */
export const abTestFields = z.strictObject({
  dimension: z.enum(AB_DIMENSION_VALUES, { error: "choose what the variants differ in" }),
  variants: z
    .array(z.string().max(2 * 1024 * 1024))
    .min(2, "give at least two variants")
    .max(3, "give at most three variants"),
  /** Percent of the audience in the test; "everyone" sends every variant to a share and nobody waits. */
  testShare: z.union([
    z.literal("everyone"),
    z.coerce
      .number({ error: "give a percent" })
      .int("give a whole percent")
      .min(1, "at least 1 %")
      .max(99, "at most 99 %, or everyone"),
  ]),
  metric: z.enum(AB_METRIC_VALUES).default("clicks"),
  waitMinutes: z.coerce
    .number({ error: "give a number of minutes" })
    .int("give a whole number of minutes")
    .min(1, "wait at least 1 minute")
    .max(MAX_AB_WAIT_MINUTES, `wait at most ${MAX_AB_WAIT_MINUTES} minutes`)
    .default(DEFAULT_AB_WAIT_MINUTES),
});

/** Each variant checked by its dimension's rule, and no two alike; the issue names the variant (`variants.1`). */
export function checkVariants(
  test: { dimension: keyof typeof variantValue; variants: string[] },
  ctx: z.RefinementCtx,
) {
  const rule = variantValue[test.dimension];
  const seen = new Set<string>();
  test.variants.forEach((value, index) => {
    const parsed = rule.safeParse(value);
    if (!parsed.success)
      ctx.addIssue({ code: "custom", path: ["variants", index], message: parsed.error.issues[0]!.message });
    else if (seen.has(parsed.data))
      ctx.addIssue({ code: "custom", path: ["variants", index], message: "must differ from the other variants" });
    else seen.add(parsed.data);
  });
}

export const abTestSchema = abTestFields.superRefine(checkVariants);
export type AbTestInput = z.input<typeof abTestSchema>;
export type AbTestSettings = z.output<typeof abTestSchema>;

/** A person's (or the CLI's) choice of winner, by label (A, B, C) or index. */
export const abWinnerSchema = z.strictObject({
  variant: z.union([z.enum(AB_VARIANT_LABELS), z.coerce.number().int().min(0).max(2)], {
    error: "choose variant A, B or C",
  }),
});

export const variantIndex = (variant: (typeof AB_VARIANT_LABELS)[number] | number): number =>
  typeof variant === "number" ? variant : AB_VARIANT_LABELS.indexOf(variant);

/** A saved test as its form shows it: its percent, or "everyone" for a test of the whole audience. */
export function abTestFormValues(test: {
  dimension: (typeof AB_DIMENSION_VALUES)[number];
  variants: string[];
  testPercent: number | null;
  metric: (typeof AB_METRIC_VALUES)[number];
  waitMinutes: number;
}) {
  const { dimension, variants, metric, waitMinutes } = test;
  return { dimension, variants, testShare: test.testPercent ?? ("everyone" as const), metric, waitMinutes };
}
