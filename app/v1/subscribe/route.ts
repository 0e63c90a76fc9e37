import { z } from "zod";

import { apiRoute } from "@/lib/api/api-route";
import { preflightResponse } from "@/lib/api/cors";
import { methodsNotAllowed } from "@/lib/api/methods-not-allowed";
import { dataOf, subscribeResult } from "@/lib/api/response-schemas";
import { canonicalTimeZone } from "@/lib/contacts/time-zone";
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
  /** The visitor's browser's zone; one the runtime does not know is dropped rather than refusing the signup. */
  time_zone: z.string().max(64).optional().meta({
    description: "The visitor's IANA time zone, as their browser reports it; fills a blank one only.",
  }),
  website: z.string().max(1000).optional(),
});

// POST /v1/subscribe — the signup form's endpoint; the only one a publishable key may call.
export const POST = apiRoute(
  {
    key: "any",
    bucket: "subscribe",
    body: subscribeBody,
    cors: true,
    doc: {
      summary: "Subscribe an address to a topic",
      description:
        "The signup form's endpoint, and the only one a publishable key may call (from an allowed origin). A topic that requires confirmation mails a confirmation link and answers `confirmation_sent`; the answer never reveals whether the address was known. `website` is a honeypot: leave it empty.",
      responses: {
        200: { description: "Subscribed, or a confirmation mail is on its way.", schema: dataOf(subscribeResult) },
      },
      errors: [
        { status: 404, code: "topic_not_found", when: "No such topic on the workspace, or archived." },
        {
          status: 400,
          code: "topic_not_on_key_brand",
          when: "The key is brand-scoped and the topic belongs to another brand.",
        },
        {
          status: 403,
          code: "origin_not_allowed",
          when: "A publishable key used from an origin not on its allowlist.",
        },
      ],
      example: { body: { topic_id: "tp_01hzy3v1q8m0c2d5r7t9w1x3y5", email: "ada@example.com" } },
    },
  },
  async ({ ctx, actor, body }) => {
    const { status } = await subscribeFromForm(ctx, actor, {
      topicId: body.topic_id,
      email: body.email,
      firstName: body.first_name,
      lastName: body.last_name,
      attributes: body.attributes,
      timeZone: (body.time_zone && canonicalTimeZone(body.time_zone)) || undefined,
      website: body.website,
    });
    return { body: { data: { status } } };
  },
);

// OPTIONS /v1/subscribe — CORS preflight for forms on the sender's own site.
export function OPTIONS(request: Request): Response {
  return preflightResponse(request);
}

export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed("POST");
