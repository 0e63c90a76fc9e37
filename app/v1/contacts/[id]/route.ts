import { apiRoute } from "@/lib/api/api-route";
import { getContactOrThrow } from "@/lib/contacts/contact-view";
import { serializeContact } from "../serializers";

// GET /v1/contacts/{id}
export const GET = apiRoute({ key: "secret", bucket: "contacts.get" }, async ({ ctx, actor, params }) => {
  const contact = await getContactOrThrow(ctx, actor, params.id!);
  return { body: { data: serializeContact(contact) } };
});
