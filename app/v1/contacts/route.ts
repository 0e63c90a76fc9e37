import { z } from "zod";
import { apiRoute } from "@/lib/api/api-route";
import { toListBody } from "@/lib/api/pagination";
import { CONTACT_STATUSES } from "@/lib/contacts/contact-status";
import { listContacts } from "@/lib/contacts/list-contacts";
import { upsertContact } from "@/lib/contacts/upsert-contact";
import { attributesField, idField } from "@/lib/validation/api-fields";
import { emailField } from "@/lib/validation/fields";
import { serializeContact } from "./serializers";

const listQuery = z.strictObject({ status: z.enum(CONTACT_STATUSES).optional(), topic_id: idField.optional() });

const optionalName = z.string().trim().max(120, "must be at most 120 characters").nullable().optional();
const upsertBody = z.strictObject({
  email: emailField,
  first_name: optionalName,
  last_name: optionalName,
  attributes: attributesField.optional(),
  topic_ids: z.array(idField).max(100).optional(),
});

// GET /v1/contacts — newest first, filtered by status or topic.
export const GET = apiRoute({ key: "secret", bucket: "contacts.list", query: listQuery, paginated: true }, async ({ ctx, actor, query, page }) => {
  const rows = await listContacts(ctx, actor, { status: query.status, topicId: query.topic_id }, page);
  return { body: toListBody(rows, page, page.scope, serializeContact) };
});

// POST /v1/contacts — create or merge by email; topic_ids subscribe directly.
export const POST = apiRoute({ key: "secret", bucket: "contacts.create", body: upsertBody }, async ({ ctx, actor, body }) => {
  const { contact, created } = await upsertContact(ctx, actor, {
    email: body.email,
    firstName: body.first_name,
    lastName: body.last_name,
    attributes: body.attributes,
    topicIds: body.topic_ids,
  });
  return {
    status: created ? 201 : 200,
    body: { data: { id: contact.id, email: contact.email, status: contact.status, created_at: contact.createdAt.toISOString() } },
  };
});
