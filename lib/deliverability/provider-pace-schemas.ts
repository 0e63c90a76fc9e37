import { z } from "zod";

/** The mailbox providers dispatch paces apart; every other domain is `other`. */
export const MAILBOX_PROVIDERS = ["gmail", "microsoft", "yahoo", "apple", "other"] as const;
export type MailboxProvider = (typeof MAILBOX_PROVIDERS)[number];

export const PROVIDER_LABELS: Record<MailboxProvider, string> = {
  gmail: "Gmail",
  microsoft: "Microsoft",
  yahoo: "Yahoo",
  apple: "Apple",
  other: "Others",
};

export const MAX_RATE_PER_MINUTE = 1_000_000;

/** A workspace's rate at one provider, as typed: a whole number of sends per minute, or empty for the default. */
export const providerRateSchema = z.strictObject({
  provider: z.enum(MAILBOX_PROVIDERS),
  ratePerMinute: z
    .string()
    .trim()
    .regex(/^\d*$/, "a whole number of sends per minute, or empty for the default")
    .refine((typed) => typed === "" || (Number(typed) >= 1 && Number(typed) <= MAX_RATE_PER_MINUTE), {
      message: `from 1 to ${MAX_RATE_PER_MINUTE.toLocaleString("en")} sends per minute`,
    })
    .transform((typed) => (typed === "" ? null : Number(typed))),
});
export type ProviderRateInput = z.input<typeof providerRateSchema>;
