import { z } from "zod";

const checkFields = {
  /** Per column, the field it fills ("" ignores it). */
  mapping: z.array(z.string().max(100)).max(500),
  policy: z.enum(["keep", "overwrite"]).default("keep"),
  topicIds: z.preprocess(
    (value) => (Array.isArray(value) ? value : typeof value === "string" && value ? [value] : []),
    z.array(z.string()).max(50),
  ),
  listId: z.preprocess((value) => (value === "" ? null : value), z.string().nullable().default(null)),
  /** Subscribing people to topics asserts that the sender holds their consent: it must be said. */
  consentAsserted: z.boolean().default(false),
  /** Whether the people this import adds to its list enter the list's automations (list_added); unticked, nobody does. */
  startAutomations: z.boolean().default(false),
};

const consentStated = (input: { topicIds: string[]; consentAsserted: boolean }) =>
  input.topicIds.length === 0 || input.consentAsserted;
const consentIssue = {
  path: ["consentAsserted"],
  message: "Confirm that everyone in this file agreed to receive these topics.",
};

/** What the dry run is asked to check: the mapping and the choices (the CLI, the library). */
export const checkImportSchema = z.object(checkFields).strict().refine(consentStated, consentIssue);
export type CheckImportInput = z.output<typeof checkImportSchema>;

/** The same from the dashboard's mapping form, which names its import. */
export const checkImportFormSchema = z
  .object({ importId: z.string().max(64), ...checkFields })
  .strict()
  .refine(consentStated, consentIssue);

export const importIdSchema = z.object({ importId: z.string().max(64) }).strict();
