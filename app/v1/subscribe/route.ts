import { z } from "zod";
import { apiRoute } from "@/lib/api/api-route";
import { preflightResponse } from "@/lib/api/cors";
import { subscribeFromForm } from "@/lib/subscriptions/subscribe-from-form";
import { attributesField, idField } from "@/lib/validation/api-fields";
import { emailField } from "@/lib/validation/fields";

const nameField = z.string().trim().min(1, "must be 1 to 120 characters").max(120, "must be 1 to 120 characters");

const subscribeBody = z.strictObject({
  topic_id: idField,
  email: emailField,
  first_name: nameField.optional(),
  last_name: nameField.optional(),
  attributes: attributesField.optional(),
  website: z.string().max(1000).optional(),
});

// POST /v1/subscribe — the signup form's endpoint; the only one a publishable key may call.
export const POST = apiRoute({ key: "any", bucket: "subscribe", body: subscribeBody, cors: true }, async ({ ctx, actor, body }) => {
  const status = await subscribeFromForm(ctx, actor, {
    topicId: body.topic_id,
    email: body.email,
    firstName: body.first_name,
    lastName: body.last_name,
    attributes: body.attributes,
    website: body.website,
  });
  return { body: { data: { status } } };
});

// OPTIONS /v1/subscribe — CORS preflight for forms on the sender's own site.
export function OPTIONS(request: Request): Response {
  return preflightResponse(request);
}
