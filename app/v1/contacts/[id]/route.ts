import { apiRoute } from "@/lib/api/api-route";
import { methodsNotAllowed } from "@/lib/api/methods-not-allowed";
import { contact, dataOf } from "@/lib/api/response-schemas";
import { getContactOrThrow } from "@/lib/contacts/contact-view";

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

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed("GET");
