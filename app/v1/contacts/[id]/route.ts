import { apiRoute } from "@/lib/api/api-route";
import { methodsNotAllowed } from "@/lib/api/methods-not-allowed";
import { contact, contactErasedResult, dataOf } from "@/lib/api/response-schemas";
import { getContactOrThrow } from "@/lib/contacts/contact-view";
import { eraseContact } from "@/lib/contacts/erase-contacts";

import { serializeContact } from "../serializers";

// GET /v1/contacts/{id}
export const GET = apiRoute(
  {
    key: "secret",
    bucket: "contacts.get",
    doc: {
      summary: "Retrieve a contact",
      responses: { 200: { description: "The contact.", schema: dataOf(contact) } },
      errors: [{ status: 404, code: "contact_not_found", when: "No such contact on the workspace." }],
    },
  },
  async ({ ctx, actor, params }) => {
    const contact = await getContactOrThrow(ctx, actor, params.id!);
    return { body: { data: serializeContact(contact) } };
  },
);

// DELETE /v1/contacts/{id} — erasure at the person's request (docs/readings.md, "Erasing a contact").
export const DELETE = apiRoute(
  {
    key: "secret",
    bucket: "contacts.erase",
    doc: {
      summary: "Erase a contact",
      description:
        "Deletes the contact and every personal datum held about them (subscriptions and their evidence, list memberships, suppressions of the address, the address in sends, events, stored mail and provider reports), for a request under GDPR Art. 17. Campaign figures stay as they were. A queued send of a campaign under way is not sent. Only a keyed hash of the address is kept: adding the address again (POST /v1/contacts, an import, a list add) is refused with `contact_erased`, while the person may sign up again through a form or POST /v1/subscribe. Cannot be undone.",
      responses: { 200: { description: "Erased.", schema: dataOf(contactErasedResult) } },
      errors: [
        { status: 404, code: "contact_not_found", when: "No such contact on the workspace (or already erased)." },
      ],
    },
  },
  async ({ ctx, actor, params }) => {
    const { cancelledSends } = await eraseContact(ctx, actor, params.id!);
    return { body: { data: { id: params.id, deleted: true, cancelled_sends: cancelledSends } } };
  },
);

export const { POST, PUT, PATCH } = methodsNotAllowed("GET", "DELETE");
