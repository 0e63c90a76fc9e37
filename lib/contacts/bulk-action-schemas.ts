import { z } from "zod";

import { contactCountQuerySchema } from "./contact-list-query";

// What a bulk action on the contacts table may be asked, checked alike in the browser and by the verb.

export const BULK_ACTION_KINDS = ["add_to_list", "remove_from_list", "unsubscribe", "erase"] as const;
export type BulkActionKind = (typeof BULK_ACTION_KINDS)[number];

/** Contacts picked one by one: at most the table's pages a person can tick through. */
export const MAX_PICKED_CONTACTS = 1000;

/** Typed to confirm erasing many people at once. */
export const ERASE_CONFIRMATION = "ERASE";

export const startBulkActionSchema = z
  .strictObject({
    kind: z.enum(BULK_ACTION_KINDS),
    /** Picked one by one; or, without them, every contact the filters match. */
    contactIds: z.array(z.string().min(1).max(64)).min(1).max(MAX_PICKED_CONTACTS).optional(),
    filters: contactCountQuerySchema.optional(),
    listId: z.string().max(64).optional(),
    /** For unsubscribe: the topic, or null for everything. */
    topicId: z.string().max(64).nullable().optional(),
    note: z.string().trim().max(500, "must be at most 500 characters").optional(),
    confirmation: z.string().trim().max(20).optional(),
  })
  .superRefine((input, issues) => {
    if (!input.contactIds && !input.filters)
      issues.addIssue({ code: "custom", path: ["contactIds"], message: "pick contacts, or act on the filter" });
    if ((input.kind === "add_to_list" || input.kind === "remove_from_list") && !input.listId)
      issues.addIssue({ code: "custom", path: ["listId"], message: "choose a list" });
    if (input.kind === "unsubscribe" && !input.note)
      issues.addIssue({ code: "custom", path: ["note"], message: "say how they asked" });
    if (input.kind === "erase" && input.confirmation?.toUpperCase() !== ERASE_CONFIRMATION)
      issues.addIssue({ code: "custom", path: ["confirmation"], message: `type ${ERASE_CONFIRMATION} to confirm` });
  });
export type StartBulkActionInput = z.input<typeof startBulkActionSchema>;
