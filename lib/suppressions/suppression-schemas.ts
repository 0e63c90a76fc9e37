import { z } from "zod";

import { domainField } from "@/lib/validation/api-fields";
import { emailField } from "@/lib/validation/fields";

// Schemas only (no database): the dashboard's forms check input in the browser with the same rules.

/** One of `email` or `domain` (createSuppression refuses both or neither). POST /v1/suppressions's body. */
export const createSuppressionSchema = z.strictObject({
  email: emailField.optional(),
  domain: domainField.optional(),
  note: z.string().max(1000).optional(),
});
export type CreateSuppressionInput = z.input<typeof createSuppressionSchema>;
