import { z } from "zod";

import { apiRoute } from "@/lib/api/api-route";
import { methodsNotAllowed } from "@/lib/api/methods-not-allowed";
import { contactEventAccepted, dataOf } from "@/lib/api/response-schemas";
import { eventBody } from "@/lib/contact-events/contact-event-schema";
import { recordContactEvent } from "@/lib/contact-events/record-contact-event";

// POST /v1/events — a custom event about a contact, from the sender's systems.
export const POST = apiRoute(
  {
    key: "secret",
    bucket: "events.create",
    body: eventBody,
    doc: {
      summary: "Record a custom event for a contact",
      description:
        "Names the contact by `contact_id` or `email` (one of them). Active automations triggered by this event name take the person in when they are subscribed to the automation's topic (a brand-locked key reaches its brand's automations only), and runs waiting for it go on. `properties` are kept with the event for automation conditions; they never become merge tags. A test key checks everything and records nothing.",
      responses: {
        202: { description: "Recorded; automations run on their own.", schema: dataOf(contactEventAccepted) },
      },
      errors: [
        { status: 404, code: "contact_not_found", when: "No contact of the workspace with that id or address." },
      ],
      example: {
        body: { contact_id: "ct_01hzy3v1q8m0c2d5r7t9w1x3y5", name: "order.completed", properties: { total: 42 } },
      },
    },
  },
  async ({ ctx, actor, body }) => {
    const occurredAt = body.occurred_at ? new Date(body.occurred_at) : ctx.clock.now();
    const recorded = await recordContactEvent(ctx, actor, {
      contactId: body.contact_id,
      email: body.email,
      name: body.name,
      properties: body.properties ?? {},
      occurredAt,
    });
    const data: z.infer<typeof contactEventAccepted> = {
      id: recorded.id,
      contact_id: recorded.contactId,
      name: body.name,
      occurred_at: occurredAt.toISOString(),
    };
    return { status: 202, body: { data } };
  },
);

export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed("POST");
