import { z } from "zod";

/** What the dry run is asked to check: the mapping and the choices (the dashboard, the CLI). */
export const checkImportSchema = z
  .object({
    /** Per column, the field it fills ("" ignores it). */
    mapping: z.array(z.string().max(100)).max(500),
    policy: z.enum(["keep", "overwrite"]).default("keep"),
    topicIds: z.preprocess((value) => (Array.isArray(value) ? value : typeof value === "string" && value ? [value] : []), z.array(z.string()).max(50)),
    listId: z.preprocess((value) => (value === "" ? null : value), z.string().nullable().default(null)),
    /** Subscribing people to topics asserts that the sender holds their consent: it must be said. */
    consentAsserted: z.boolean().default(false),
  })
  .strict()
  .refine((input) => input.topicIds.length === 0 || input.consentAsserted, {
    path: ["consentAsserted"],
    message: "Confirm that everyone in this file agreed to receive these topics.",
  });
export type CheckImportInput = z.output<typeof checkImportSchema>;
