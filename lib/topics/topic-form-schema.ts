import { z } from "zod";

import { createTopicSchema, updateTopicSchema } from "./topic-schemas";

/**
 * A topic without confirmation mails nobody a confirmation: the sender
 * asserts they already hold consent (spec). The dashboard asks for that
 * assertion explicitly before it sends the topic's own fields.
 */
const consentAsserted = z.boolean().default(false);
const assertion = {
  check: (value: { requiresConfirmation?: boolean; consentAsserted?: boolean }) =>
    value.requiresConfirmation !== false || value.consentAsserted === true,
  message: "Confirm that you hold consent from everyone you will add without confirmation",
  path: ["consentAsserted"],
};

export const createTopicFormSchema = createTopicSchema
  .extend({ consentAsserted })
  .refine(assertion.check, { message: assertion.message, path: assertion.path });

export const editTopicFormSchema = updateTopicSchema
  .extend({ topicId: z.string(), consentAsserted })
  .refine(assertion.check, { message: assertion.message, path: assertion.path });
