import { z } from "zod";

import { apiRoute } from "@/lib/api/api-route";
import { methodsNotAllowed } from "@/lib/api/methods-not-allowed";
import { toListJson } from "@/lib/api/pagination";
import { contact, contactWritten, dataOf, listOf } from "@/lib/api/response-schemas";
import { CONTACT_STATUSES } from "@/lib/contacts/contact-status";
import { listContactsJson } from "@/lib/contacts/list-contacts";
import { timeZoneField } from "@/lib/contacts/time-zone-field";
import { upsertContact } from "@/lib/contacts/upsert-contact";
import { attributesField, idField } from "@/lib/validation/api-fields";
import { emailField } from "@/lib/validation/fields";

const listQuery = z.strictObject({ status: z.enum(CONTACT_STATUSES).optional(), topic_id: idField.optional() });

const optionalName = z.string().trim().max(120, "must be at most 120 characters").nullable().optional();
const upsertBody = z.strictObject({
  email: emailField,
  first_name: optionalName,
  last_name: optionalName,
  attributes: attributesField.optional(),
  topic_ids: z.array(idField).max(100).optional(),
  time_zone: timeZoneField.nullable().optional().meta({
    description:
      "The contact's IANA time zone, such as Europe/Berlin: campaigns sent at a local time reach them at that hour. Merged like the names; null clears it where the merge policy lets a value be cleared.",
  }),
});

// GET /v1/contacts — newest first, filtered by status or topic.
export const GET = apiRoute(
  {
    key: "secret",
    bucket: "contacts.list",
    query: listQuery,
    paginated: true,
    doc: {
      summary: "List contacts",
      description: "Newest first, optionally filtered by derived status or by topic (confirmed subscribers of it).",
      responses: { 200: { description: "A page of contacts.", schema: listOf(contact) } },
      errors: [
        { status: 404, code: "topic_not_found", when: "`topic_id` names no topic of the workspace." },
        {
          status: 400,
          code: "topic_not_on_key_brand",
          when: "The key is brand-scoped and `topic_id` names another brand's topic.",
        },
      ],
      example: { query: { status: "subscribed" } },
    },
  },
  async ({ ctx, actor, query, page }) => {
    const serialized = await listContactsJson(ctx, actor, { status: query.status, topicId: query.topic_id }, page);
    return { json: toListJson(serialized, page, page.scope) };
  },
);

// POST /v1/contacts — create or merge by email; topic_ids subscribe directly.
export const POST = apiRoute(
  {
    key: "secret",
    bucket: "contacts.create",
    body: upsertBody,
    doc: {
      summary: "Create or update a contact",
      description:
        "Idempotent on email: a known address is merged under the workspace's merge policy (200), a new one created (201). `topic_ids` subscribe directly, without confirmation mail.",
      responses: {
        201: { description: "Created.", schema: dataOf(contactWritten) },
        200: { description: "Merged into the existing contact.", schema: dataOf(contactWritten) },
      },
      errors: [
        {
          status: 400,
          code: "contact_unsubscribed",
          when: "The address belongs to an unsubscribed contact; nothing changed.",
        },
        {
          status: 400,
          code: "contact_erased",
          when: "The workspace erased this person at their request; only their own signup brings them back. Nothing changed.",
        },
        { status: 404, code: "topic_not_found", when: "A `topic_ids` entry names no topic of the workspace." },
        {
          status: 400,
          code: "topic_not_on_key_brand",
          when: "The key is brand-scoped and a topic belongs to another brand.",
        },
      ],
      example: {
        body: { email: "ada@example.com", first_name: "Ada", last_name: "Lovelace", time_zone: "Europe/London" },
      },
    },
  },
  async ({ ctx, actor, body }) => {
    const { contact, created } = await upsertContact(ctx, actor, {
      email: body.email,
      firstName: body.first_name,
      lastName: body.last_name,
      attributes: body.attributes,
      timeZone: body.time_zone,
      topicIds: body.topic_ids,
    });
    return {
      status: created ? 201 : 200,
      body: {
        data: {
          id: contact.id,
          email: contact.email,
          status: contact.status,
          created_at: contact.createdAt.toISOString(),
        },
      },
    };
  },
);

export const { PUT, PATCH, DELETE } = methodsNotAllowed("GET", "POST");
