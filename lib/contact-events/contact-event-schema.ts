import { z } from "zod";

import { eventNameSchema } from "@/lib/automations/automation-schemas";
import { idField } from "@/lib/validation/api-fields";
import { emailField } from "@/lib/validation/fields";

/** An event's properties, as JSON text, at most this many bytes: enough for an order summary, not a document. */
export const MAX_PROPERTIES_BYTES = 8 * 1024;

const properties = z
  .record(z.string(), z.unknown())
  .refine(
    (value) => Buffer.byteLength(JSON.stringify(value), "utf8") <= MAX_PROPERTIES_BYTES,
    `at most ${MAX_PROPERTIES_BYTES} bytes as JSON`,
  )
  .meta({ description: "Free-form details kept with the event, for automation conditions; never merge tags." });

const occurredAt = z.iso
  .datetime({ offset: true })
  .meta({ description: "When it happened (ISO 8601); left out: when it is received." });

export const eventBody = z
  .strictObject({
    contact_id: idField.optional(),
    email: emailField.optional(),
    name: eventNameSchema,
    properties: properties.optional(),
    occurred_at: occurredAt.optional(),
  })
  .superRefine((body, issue) => {
    if ((body.contact_id === undefined) === (body.email === undefined))
      issue.addIssue({ code: "custom", path: ["contact_id"], message: "Send exactly one of `contact_id` or `email`." });
  });
